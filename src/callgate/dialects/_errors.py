"""The dialect layer's error: a provider payload that cannot be read or written."""

from __future__ import annotations

from callgate._errors import CallgateError

__all__ = ["DialectError"]


class DialectError(CallgateError):
    """A payload does not have the shape its dialect requires.

    Raised for malformed provider responses, messages and stream events, and for
    content the canonical model cannot carry. `where` points at the offending part.
    """

    def __init__(self, dialect: str, message: str, *, where: str = "") -> None:
        self.dialect = dialect
        self.where = where
        self.message = message
        at = f" at {where}" if where else ""
        super().__init__(f"{dialect}{at}: {message}")
