"""The `Store` protocol: what the gate, the loop and the gateway need from a database.

A store is a set of tables, each behind its own small protocol. Every method runs in one
transaction of its own: it either happens completely or raises (`StoreUnavailable` when the
database cannot be reached, `StoreConflict` when a rule of the table refuses the change).
Methods are synchronous: SQLite calls take microseconds, and async callers can hand
PostgreSQL calls to a thread.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any, Literal, Protocol, Self

from callgate.store._receipt import ChainHead, Receipt, ReceiptDraft, ReceiptQuery, VerifyReport
from callgate.store._records import (
    Approval,
    ApprovalDraft,
    Claim,
    Consumption,
    Grant,
    IdempotencyRecord,
    Pin,
    RunRecord,
)

__all__ = [
    "ApprovalStore",
    "IdempotencyStore",
    "PinStore",
    "ReceiptStore",
    "RunStore",
    "Store",
]


class IdempotencyStore(Protocol):
    """Keys of calls that must run at most once, each with a lease."""

    def begin(self, key: str, *, request_hash: str, owner: str, lease_seconds: float) -> Claim:
        """Claim `key` for `owner`, or report what holds it (see `Claim.status`).

        A `started` record whose lease has run out is turned into `unknown` here, once, by
        whichever caller sees it first.
        """
        ...

    def finish(
        self, key: str, *, owner: str, state: Literal["completed", "failed"], outcome: Any
    ) -> IdempotencyRecord:
        """Store the outcome. Allowed to the current owner while `started` or `unknown`
        (a late finish after a lost lease still records the truth); else `StoreConflict`."""
        ...

    def mark_unknown(self, key: str, *, owner: str) -> IdempotencyRecord:
        """The owner cannot tell whether its call took effect (a write timed out)."""
        ...

    def reclaim(self, key: str, *, owner: str, lease_seconds: float) -> IdempotencyRecord:
        """Take over an `unknown` key (after reconciling) to retry or to record the outcome;
        only one caller wins, the others get `StoreConflict`."""
        ...

    def renew(self, key: str, *, owner: str, lease_seconds: float) -> IdempotencyRecord:
        """Extend the lease of a long call that is still `started` and still yours."""
        ...

    def get(self, key: str) -> IdempotencyRecord | None: ...


class ReceiptStore(Protocol):
    """The append-only, hash-chained journal of routed calls."""

    def append(self, draft: ReceiptDraft) -> Receipt:
        """Add one receipt at the end of the chain; safe with concurrent writers."""
        ...

    def get(self, seq: int) -> Receipt | None: ...

    def list(
        self,
        query: ReceiptQuery | None = None,
        *,
        limit: int = 100,
        offset: int = 0,
        descending: bool = False,
    ) -> list[Receipt]:
        """Receipts in chain order (newest first with `descending`)."""
        ...

    def head(self) -> ChainHead:
        """The last link (`seq` 0 and the genesis hash when the journal is empty)."""
        ...

    def verify(self) -> VerifyReport:
        """Recompute the whole chain; name the first receipt that is edited, missing or moved."""
        ...

    def prune_payloads(self, older_than: float) -> int:
        """Drop raw arguments and results recorded before `older_than`; the chain stays valid.
        Returns how many receipts lost their payloads."""
        ...


class ApprovalStore(Protocol):
    """Held calls waiting for a human, their decisions, and per-run grants."""

    def create(self, draft: ApprovalDraft) -> Approval: ...

    def get(self, approval_id: str) -> Approval | None: ...

    def list(
        self, *, pending_only: bool = True, limit: int = 100, offset: int = 0
    ) -> list[Approval]:
        """Oldest first; `pending_only` leaves out decided and expired approvals."""
        ...

    def find(self, request_hash: str) -> Approval | None:
        """The newest approval filed for this request hash, or approved with it as the
        edited request's hash, in any state; so a re-proposed held call finds its approval."""
        ...

    def decide(
        self,
        approval_id: str,
        *,
        approve: bool,
        decided_by: str,
        note: str | None = None,
        edited_arguments: Any = None,
        edited_request_hash: str | None = None,
        grant: bool = False,
    ) -> Approval:
        """Approve or deny a pending approval, once. `grant` (with a run id) allows the tool
        for the rest of the run. Raises `RecordNotFound`, or `StoreConflict` when the
        approval is no longer pending (decided or expired)."""
        ...

    def consume(self, approval_id: str, *, request_hash: str) -> Consumption:
        """Use an approved approval for the request it was made for (or its edited form),
        exactly once and only before it expires."""
        ...

    def grant_for(self, run_id: str, tool_name: str) -> Grant | None: ...


class RunStore(Protocol):
    """Serialized loop state, so a paused run can resume in another process."""

    def save(
        self,
        run_id: str,
        state: Any,
        *,
        expected_version: int | None,
        status: str = "running",
        state_format: int = 1,
    ) -> RunRecord:
        """Create the run (`expected_version=None`) or replace the version you loaded;
        `StoreConflict` when someone saved in between (or the run already exists)."""
        ...

    def load(self, run_id: str) -> RunRecord | None: ...

    def list(
        self, *, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[RunRecord]:
        """Most recently updated first."""
        ...


class PinStore(Protocol):
    """Pinned tool fingerprints per source."""

    def upsert(self, pin: Pin) -> Pin: ...

    def get(self, source: str, tool_name: str) -> Pin | None: ...

    def list(self, source: str | None = None) -> list[Pin]: ...


class Store(Protocol):
    """A database behind callgate. Both `SQLiteStore` and `PostgresStore` implement it."""

    @property
    def idempotency(self) -> IdempotencyStore: ...

    @property
    def receipts(self) -> ReceiptStore: ...

    @property
    def approvals(self) -> ApprovalStore: ...

    @property
    def runs(self) -> RunStore: ...

    @property
    def pins(self) -> PinStore: ...

    def finish_and_record(
        self,
        key: str,
        *,
        owner: str,
        state: Literal["completed", "failed"],
        outcome: Any,
        receipt: ReceiptDraft,
    ) -> tuple[IdempotencyRecord, Receipt]:
        """`idempotency.finish` and `receipts.append` in one transaction: the stored outcome
        and its receipt exist together or not at all, and it costs one commit, not two."""
        ...

    def ping(self) -> None:
        """Raise `StoreUnavailable` when the database cannot be reached."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
