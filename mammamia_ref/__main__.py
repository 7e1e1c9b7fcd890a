"""``python -m mammamia_ref`` is the ``mammamia`` command."""

import sys

from mammamia_ref.cli.app import main

if __name__ == "__main__":
    sys.exit(main())
