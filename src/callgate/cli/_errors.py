"""Every error of a command as one line on stderr, and the exit code it means.

The library's own errors already say what to change; files, folders and URLs are named
in them. What is not ours (a bug, a dependency's surprise) still gets one line, with the
way to see the traceback.
"""

from __future__ import annotations

import json
import sys

import typer

from callgate._errors import CallgateError, UserError

__all__ = ["INPUT_ERROR", "report"]

INPUT_ERROR = 2
"""Usage or input error: a file, folder, URL or option that cannot be used."""
FAILED = 1

_DEBUG_HINT = "rerun with --debug (or CALLGATE_DEBUG=1) for the traceback"


def report(exc: BaseException) -> int:
    """Print `exc` as one line on stderr; the exit code it stands for."""
    message, code = _describe(exc)
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    return code


def _describe(exc: BaseException) -> tuple[str, int]:
    if isinstance(exc, UserError):
        return str(exc), INPUT_ERROR
    unavailable = _store_unavailable()
    if unavailable is not None and isinstance(exc, unavailable):
        return f"{exc} (is the database running, and is the store URL right?)", INPUT_ERROR
    if isinstance(exc, CallgateError):
        return str(exc), FAILED
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc}", INPUT_ERROR
    if isinstance(exc, json.JSONDecodeError | UnicodeError):
        return f"input is not valid: {exc}", INPUT_ERROR
    if isinstance(exc, RecursionError):
        return f"input nested too deeply to read; {_DEBUG_HINT}", INPUT_ERROR
    return f"unexpected {type(exc).__name__}: {exc}; {_DEBUG_HINT}", INPUT_ERROR


def _store_unavailable() -> type[Exception] | None:
    # Only a command that opened a store can raise the store's errors: no import otherwise.
    module = sys.modules.get("callgate.store._errors")
    return None if module is None else module.StoreUnavailable
