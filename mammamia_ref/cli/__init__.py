"""The ``mammamia`` command line: one module per command group; the top layer."""

from mammamia_ref.cli.app import main

__all__ = ["main"]
