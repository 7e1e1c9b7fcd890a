"""``python -m mammamia_ref`` is the ``mammamia`` command."""

import sys

from .cli import main

sys.exit(main())
