"""``python -m mammamia_ref.tools.bench``: the same as ``mammamia bench`` (an entry point,
like ``mammamia_ref/__main__.py``: it may import the command line)."""

import sys

from mammamia_ref.cli.bench import main

if __name__ == "__main__":
    sys.exit(main())
