"""The exceptions of the store.

CallgateError
└── StoreError                 something about the store went wrong
    ├── StoreUnavailable       the database cannot be reached or written: fail closed
    ├── StoreConflict          a write lost a race or broke a rule of its table
    └── RecordNotFound         no record under that key (also a `KeyError`)
"""

from __future__ import annotations

from callgate._errors import CallgateError

__all__ = ["RecordNotFound", "StoreConflict", "StoreError", "StoreUnavailable"]


class StoreError(CallgateError):
    """Root of the store's exceptions."""


class StoreUnavailable(StoreError):
    """The database is unreachable, locked or read-only; nothing was written.

    Every operation runs in one transaction, so when this is raised the operation left no
    trace. The gate treats it as a reason to deny a write (fail closed).
    """


class StoreConflict(StoreError):
    """The record is not in a state that allows this change (not the owner, not pending,
    a stale version). The message says which rule was broken."""


class RecordNotFound(StoreError, KeyError):
    """No record under the given key."""

    def __init__(self, kind: str, key: object) -> None:
        self.kind = kind
        self.key = key
        super().__init__(f"no {kind} {key!r}")

    def __str__(self) -> str:  # KeyError would wrap the message in quotes
        return str(self.args[0])
