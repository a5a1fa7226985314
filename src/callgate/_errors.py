"""The exceptions of callgate.

    CallgateError                  root of everything callgate raises
    ├── UserError                  the developer used the library wrongly (bad tool, duplicate name)
    │   └── MissingExtraError      an optional integration is not installed
    ├── UnknownToolError           a name the catalog lacks (with did-you-mean candidates)
    └── ToolError                  raised by a tool on purpose: its message reaches the model
        ├── ConflictError          the target object changed since it was read (stale version)
        ├── TransientError         the target system is briefly unavailable; safe reads may retry
        └── OutcomeUnknownError    the call may or may not have taken effect (a broken link)

Any other exception raised inside a tool is masked before it reaches the model.
"""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = [
    "CallgateError",
    "ConflictError",
    "MissingExtraError",
    "OutcomeUnknownError",
    "ToolError",
    "TransientError",
    "UnknownToolError",
    "UserError",
    "shown",
]

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 2, 60, 60
_REPR.maxlist = _REPR.maxdict = _REPR.maxtuple = _REPR.maxset = 4
_REPR.maxlong = 40


def shown(value: Any) -> str:
    """A short `repr` of an untrusted value for an error message, whatever its size or
    depth (a plain `repr` of a deeply nested payload exhausts the stack, and one of a
    5,000-digit integer raises)."""
    try:
        return _REPR.repr(value)
    except ValueError:  # an integer too long for Python to write
        return "<an integer too long to show>"


class CallgateError(Exception):
    """Root of every exception callgate raises."""


class UserError(CallgateError):
    """The library was used wrongly: the message says what to change."""


class MissingExtraError(UserError, ImportError):
    """An optional integration is missing; the message names the install command."""

    def __init__(self, extra: str, package: str) -> None:
        self.extra = extra
        self.package = package
        super().__init__(
            f"{package!r} is not installed; install it with: pip install 'callgate[{extra}]'"
        )


class UnknownToolError(CallgateError, KeyError):
    """A tool name that the catalog does not hold."""

    def __init__(self, name: str, suggestions: tuple[str, ...] = ()) -> None:
        self.name = name
        self.suggestions = suggestions
        hint = f"; did you mean {', '.join(map(repr, suggestions))}?" if suggestions else ""
        super().__init__(f"unknown tool {name!r}{hint}")

    def __str__(self) -> str:  # KeyError would wrap the message in quotes
        return str(self.args[0])


class ToolError(CallgateError):
    """Raised by a tool to send a deliberate message to the model.

    Only this family carries its text to the model; other exceptions are masked.
    """

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class ConflictError(ToolError):
    """The change was based on a stale version of the object."""


class TransientError(ToolError):
    """The target system is briefly unavailable; the call may succeed if repeated."""


class OutcomeUnknownError(ToolError):
    """The target system may or may not have applied the call (the connection broke after
    the request was sent). A write becomes `unknown_outcome` and is never re-run blindly;
    a read simply failed."""
