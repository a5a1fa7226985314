"""The `Store` protocol: what the gate, the loop and the gateway need from a database.

A store is a set of tables, each behind its own small protocol. Every method runs in one
transaction of its own: it either happens completely or raises (`StoreUnavailable` when the
database cannot be reached, `StoreConflict` when a rule of the table refuses the change).
Methods are synchronous; async code (the gate, approvals, the loop, the gateway) reaches
them through `AsyncStore`, which never runs one on the event loop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, Protocol, Self

from callgate.contract import ApprovalDecision, Approve, Decline
from callgate.store._errors import StoreError
from callgate.store._receipt import ChainHead, Receipt, ReceiptQuery, VerifyReport
from callgate.store._records import (
    Approval,
    ApprovalDraft,
    Claim,
    ClaimRequest,
    Consumption,
    Count,
    Grant,
    IdempotencyRecord,
    Pin,
    RunRecord,
    Settle,
    Settled,
)

__all__ = [
    "ApprovalStore",
    "CounterStore",
    "IdempotencyStore",
    "LabelStore",
    "PinStore",
    "ReceiptStore",
    "RunStore",
    "Store",
]


class IdempotencyStore(Protocol):
    """Keys of calls that must run at most once, each with a lease. Claims and finishes
    are written through `Store.claim` and `Store.settle`."""

    def reclaim(self, request: ClaimRequest) -> IdempotencyRecord:
        """Take over an `unknown` key of the same request (after reconciling) to retry or
        to record the outcome; only one caller wins, the others get `StoreConflict`."""
        ...

    def get(self, key: str) -> IdempotencyRecord | None: ...


class ReceiptStore(Protocol):
    """The append-only, hash-chained journal of routed calls (appended by `Store.settle`)."""

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

    def verify(self, anchor: ChainHead | str | None = None) -> VerifyReport:
        """Recompute the whole chain; name the first receipt that is edited, missing or
        moved. With `anchor` (a head published elsewhere, `ChainHead` or `"SEQ:HASH"` or
        the hash alone), also check that the chain still holds it."""
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
        decision: ApprovalDecision,
        *,
        edited_request_hash: str | None = None,
    ) -> Approval:
        """Record a decision on a pending approval, once. An `Edit` carries arguments that
        passed the gate's argument check, with their new request hash; a grant (with a run
        id) allows the tool for the rest of the run. Raises `RecordNotFound`, or
        `StoreConflict` when the approval is no longer pending (decided or expired)."""
        ...

    def decide_all(
        self, approval_ids: Sequence[str], decision: Approve | Decline
    ) -> tuple[Approval, ...]:
        """Record one approval or decline for every one of `approval_ids` in one
        transaction, or for none: one that is not pending raises as `decide` would, and
        every decision of the batch is rolled back."""
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


class LabelStore(Protocol):
    """The Rule of Two labels each run has taken in, shared by every process."""

    def of(self, run_id: str) -> dict[str, str]:
        """Label -> the tool that first brought it into the run."""
        ...

    def add(self, run_id: str, labels: Mapping[str, str]) -> None:
        """Record labels (label -> source); a label already recorded keeps its source."""
        ...

    def forget_idle(self, prefix: str, idle_since: float) -> list[str]:
        """End the runs under `prefix` that did nothing since `idle_since` (no receipt, no
        label): drop their labels and run grants; return the runs ended."""
        ...


class PinStore(Protocol):
    """Pinned tool fingerprints per source, with the review of a tool that is held back."""

    def upsert(self, pin: Pin) -> Pin:
        """Pin `pin.fingerprint` (state `pinned`), whatever was recorded before."""
        ...

    def save(self, pin: Pin, *, expected_version: int | None) -> Pin:
        """Create (`expected_version=None`) or replace the version you read, whole;
        `StoreConflict` when someone wrote in between."""
        ...

    def get(self, source: str, tool_name: str) -> Pin | None: ...

    def list(self, source: str | None = None) -> list[Pin]: ...


class CounterStore(Protocol):
    """Counters of rate limits and call budgets: fixed windows, shared by every process."""

    def take(self, counts: Sequence[Count]) -> int | None:
        """One unit from each counter, all or none: None when all had room, else the index
        of the first that was full (then nothing was taken)."""
        ...

    def used(self, key: str, slot: int) -> int: ...

    def purge(self, before: float | None = None) -> int:
        """Drop counters that expired before `before` (default: now)."""
        ...


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

    @property
    def labels(self) -> LabelStore: ...

    @property
    def counters(self) -> CounterStore: ...

    def claim(self, requests: Sequence[ClaimRequest]) -> list[Claim | StoreError]:
        """Claim each request's key for its owner, or report what holds it (see
        `Claim.status`); one call is a batch of one. A member whose claim could not be
        made gets that error as its entry, and nothing was claimed for it; the others'
        claims stand. A store that claims a batch in one transaction (SQLite) raises
        `StoreUnavailable` instead when it cannot, and then nothing was claimed."""
        ...

    def settle(self, requests: Sequence[Settle]) -> list[Settled | StoreError]:
        """Write each call's end in one transaction: its receipt, the finish of its claim
        and the labels it brought in; the outcome and its receipt exist together or not at
        all. A member whose finish is refused (`StoreConflict`) writes nothing and gets the
        error; anything else raises and nothing was written."""
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
