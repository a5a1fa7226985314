"""The values the store hands out: idempotency records, approvals, grants, runs and pins.

Receipts have their own module (`_receipt.py`). Times are Unix seconds taken from the
store's clock; JSON values are whatever `json` can encode.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from callgate.store._receipt import Receipt, ReceiptDraft

__all__ = [
    "Approval",
    "ApprovalDraft",
    "ApprovalState",
    "Claim",
    "ClaimRequest",
    "ClaimStatus",
    "Consumption",
    "ConsumptionStatus",
    "Count",
    "Finish",
    "FinishState",
    "Grant",
    "IdempotencyRecord",
    "IdempotencyState",
    "Pin",
    "PinState",
    "RunRecord",
    "Settle",
    "Settled",
]

IdempotencyState = Literal["started", "completed", "failed", "unknown"]
ClaimStatus = Literal["claimed", "replay", "in_progress", "unknown", "mismatch"]
FinishState = Literal["completed", "failed", "unknown"]
ApprovalState = Literal["pending", "approved", "denied", "expired", "used"]
PinState = Literal["pinned", "new", "changed", "rejected"]
ConsumptionStatus = Literal[
    "consumed", "not_found", "pending", "denied", "expired", "used", "mismatch"
]


@dataclass(frozen=True, kw_only=True, slots=True)
class IdempotencyRecord:
    """One idempotency key and where its call stands."""

    key: str
    request_hash: str
    """Hash of the request that first claimed the key; a reuse with another hash is refused."""
    state: IdempotencyState
    owner: str
    """Who holds (or last held) the lease: a process or worker id chosen by the caller."""
    lease_expires_at: float
    """After this time a `started` record whose owner went silent is taken as `unknown`."""
    outcome: Any = None
    """The stored outcome (a JSON value) of a `completed` or `failed` call, for duplicates."""
    attempts: int = 1
    """How many times the key was claimed: 1, plus one per `reclaim` after an `unknown`."""
    created_at: float
    updated_at: float


@dataclass(frozen=True, kw_only=True, slots=True)
class Claim:
    """What `begin` found: either the key is now yours, or what to do instead."""

    status: ClaimStatus
    """`claimed`: run the call, then `finish`. `replay`: return `record.outcome`, do not run.
    `in_progress`: another owner holds a live lease. `unknown`: an earlier attempt started and
    its owner went silent (or it timed out): reconcile before any retry. `mismatch`: the key
    was used for a different request (`record.request_hash`)."""
    record: IdempotencyRecord


@dataclass(frozen=True, kw_only=True, slots=True)
class ClaimRequest:
    """Claim `key` for `owner` for one call (`Store.claim`)."""

    key: str
    request_hash: str
    owner: str
    lease_seconds: float


@dataclass(frozen=True, kw_only=True, slots=True)
class Finish:
    """How the owner's attempt under `key` ended: `completed` or `failed` with the outcome to
    replay to duplicates, or `unknown` when it cannot tell whether the call took effect.

    Allowed to the current owner while the record is `started` or `unknown` (a late finish
    after a lost lease still records the truth); otherwise refused with `StoreConflict`."""

    key: str
    owner: str
    state: FinishState
    outcome: Any = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Settle:
    """Everything one routed call writes when it ends, in one transaction (`Store.settle`):
    its receipt, the finish of its claim (if it claimed a key), and the Rule of Two labels it
    brought into its run (label -> the tool that brought it; needs `receipt.run_id`)."""

    receipt: ReceiptDraft
    finish: Finish | None = None
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True, slots=True)
class Settled:
    """What `settle` wrote."""

    receipt: Receipt
    record: IdempotencyRecord | None = None
    """The finished idempotency record, when the call had claimed a key."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ApprovalDraft:
    """A held call, as the gate files it for a human decision."""

    request_hash: str
    """Binds the approval to the exact request (tool fingerprint, arguments, principal, run)."""
    tool_name: str
    arguments: Any
    principal: str
    tenant: str | None = None
    run_id: str | None = None
    call_id: str | None = None
    reason: str
    """Why the call is held, shown to the approver."""
    rule_id: str | None = None
    expires_at: float
    foreign_values: tuple[str, ...] = ()
    """The values no trusted source gave that the call carries, each shown whole to the
    approver; approving the call vouches for them in its run."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Approval:
    """An approval request and its decision."""

    id: str
    request_hash: str
    tool_name: str
    arguments: Any
    principal: str
    tenant: str | None = None
    run_id: str | None = None
    call_id: str | None = None
    reason: str
    rule_id: str | None = None
    created_at: float
    expires_at: float
    state: ApprovalState
    """The effective state: a pending or approved record past `expires_at` reads as `expired`."""
    decided_by: str | None = None
    decided_at: float | None = None
    note: str | None = None
    edited_arguments: Any = None
    """Arguments the approver changed; the gate validated them and hashed them again."""
    edited_request_hash: str | None = None
    grant: bool = False
    """The approver allowed this tool for the rest of the run (see `ApprovalStore.grant_for`)."""
    used_at: float | None = None
    foreign_values: tuple[str, ...] = ()
    """The values no trusted source gave that the call carries, each shown whole to the
    approver; approving the call vouches for them in its run."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Consumption:
    """What `consume` did: `consumed` (the approval is now `used`) or why it refused."""

    status: ConsumptionStatus
    approval: Approval | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Count:
    """One unit to take from a counter (`CounterStore.take`): counter `key` in its window
    `slot` holds at most `limit` units, and may be purged after `expires_at`."""

    key: str
    slot: int
    """The window's number (e.g. Unix time // window length); a new slot starts at zero."""
    limit: int
    expires_at: float


@dataclass(frozen=True, kw_only=True, slots=True)
class Grant:
    """A tool allowed for the rest of one run by an approver."""

    run_id: str
    tool_name: str
    approval_id: str
    granted_by: str
    granted_at: float


@dataclass(frozen=True, kw_only=True, slots=True)
class RunRecord:
    """The saved state of one agent run, for pause and resume."""

    run_id: str
    version: int
    """Increases by one with every save; a save names the version it read (optimistic lock)."""
    status: str
    """Free text chosen by the loop (`running`, `paused`, `done`, ...); runs can be listed by it."""
    state_format: int
    """The version of the state's own layout, so a newer loop can migrate an older blob."""
    state: Any
    created_at: float
    updated_at: float


@dataclass(frozen=True, kw_only=True, slots=True)
class Pin:
    """A tool from one source: the fingerprint it is pinned to and, while a sighting differs
    from it, what was seen instead and why it is held back. A tool is offered only in state
    `pinned` with the fingerprint seen now."""

    source: str
    """Where the tool comes from: `local`, `mcp:SERVER` for an upstream server, a catalog."""
    tool_name: str
    fingerprint: str | None
    """The approved fingerprint; None while nothing was ever approved."""
    state: PinState = "pinned"
    """`pinned`: the approved contract is the one seen. `new`: first seen and held (a scan
    finding); `changed`: seen with another fingerprint; `rejected`: a person said no to
    `observed` (a later change is assessed again)."""
    pinned: Any = None
    """The approved contract (a JSON value the pinning code defines), to show a diff."""
    observed_fingerprint: str | None = None
    observed: Any = None
    """The contract seen last while it differs from the approved one."""
    reasons: tuple[str, ...] = ()
    """Why it is held back (empty when pinned)."""
    details: tuple[str, ...] = ()
    """Readable lines of the change: text added, schema changes, annotation flips."""
    findings: tuple[Any, ...] = ()
    """Scan findings on the observed contract (JSON values)."""
    tool_version: str | None = None
    pinned_by: str | None = None
    pinned_at: float | None = None
    """When `fingerprint` was approved (set by the store on `upsert`)."""
    decided_by: str | None = None
    """Who made the last decision (a person, or `first-sight`, `settings`, ...)."""
    updated_at: float = 0.0
    version: int = 0
    """Increases by one with every write; `PinStore.save` names the version it read."""

    @property
    def held(self) -> bool:
        """Held back: not offered until a person decides (or the tool changes back)."""
        return self.state != "pinned"
