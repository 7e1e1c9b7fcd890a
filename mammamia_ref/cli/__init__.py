"""The ``mammamia`` command line: one module per command group; the top layer.

:func:`main` (the ``mammamia`` entry point) imports the command line inside itself, so
that Ctrl-C while Python is still loading it is one line and exit code 130, not a
traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """The ``mammamia`` command (:func:`mammamia_ref.cli.app.main`), loaded here."""
    try:
        from mammamia_ref.cli.app import main as run
    except KeyboardInterrupt:
        print("mammamia: interrupted while starting", file=sys.stderr)
        return 130
    return run(argv)


__all__ = ["main"]
