"""The `callgate` command line: a thin shell over the library."""

from callgate.cli._app import app, main

__all__ = ["app", "main"]
