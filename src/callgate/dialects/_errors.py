"""The dialect layer's error: a provider payload that cannot be read or written."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from callgate._errors import CallgateError, shown

__all__ = ["DialectError", "malformed", "shown"]


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


_SHAPE_ERRORS = (TypeError, AttributeError, ValueError, KeyError, IndexError)


@contextmanager
def malformed(dialect: str, what: str) -> Iterator[None]:
    """Turn a shape error deep in a payload into a `DialectError` naming `what`.

    The readers check the shapes they rely on; this is the net under them, so untrusted
    payloads never end in a bare traceback. A payload nested deeper than Python's
    recursion limit is reported as such.
    """
    try:
        yield
    except DialectError:
        raise
    except RecursionError:
        raise DialectError(dialect, f"malformed {what} (nested too deeply)") from None
    except _SHAPE_ERRORS as exc:
        detail = str(exc)
        detail = detail if len(detail) <= 200 else detail[:197] + "..."
        raise DialectError(dialect, f"malformed {what} ({type(exc).__name__}: {detail})") from exc
