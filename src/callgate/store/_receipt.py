"""Receipt values: what the gate records for every routed call, and what `verify` reports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from callgate.contract import Route

__all__ = ["ChainHead", "Receipt", "ReceiptDraft", "ReceiptQuery", "VerifyReport"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ReceiptDraft:
    """The fields of one receipt that the caller supplies; the store adds the chain."""

    request_hash: str
    tool_name: str
    tool_fingerprint: str | None = None
    principal: str
    tenant: str | None = None
    run_id: str | None = None
    call_id: str | None = None
    route: Route
    rule_id: str | None = None
    """The policy rule that decided the call."""
    approval_id: str | None = None
    idempotency_key: str | None = None
    argument_hash: str | None = None
    result_hash: str | None = None
    replayed: bool = False
    started_at: float
    """Unix time when the gate received the call."""
    duration_ms: float = 0.0
    execute_ms: float = 0.0
    policy_version: str | None = None
    schema_version: str | None = None
    """The tool's schema (contract) version at the time of the call."""
    source: str | None = None
    """Where the tool comes from: an upstream MCP server's name; None for the host's own."""
    batch_id: str | None = None
    """The batch (one model turn) the call came in; a run reads as its batches."""
    findings: tuple[str, ...] = ()
    """What the scan of an untrusted result found (rule ids with where), if anything."""
    arguments: Any = None
    """Raw arguments, stored only when configured and already redacted by the caller.
    The chain covers their hash, so `prune_payloads` can drop them without breaking it."""
    result: Any = None
    """Raw result, like `arguments`."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Receipt(ReceiptDraft):
    """A recorded receipt: the caller's fields plus its place in the hash chain."""

    seq: int
    """Position in the chain, assigned by the database: 1, 2, 3, ... without gaps."""
    prev_hash: str
    hash: str
    recorded_at: float
    payload_hash: str | None = None
    """Hash of the raw `arguments` and `result` as stored (None when none were stored)."""
    chain_version: int = 1
    """The layout its hash was computed with (`callgate.store.HASHED_FIELDS`)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ReceiptQuery:
    """Filters for `ReceiptStore.list`; unset fields match everything."""

    tool_name: str | None = None
    principal: str | None = None
    tenant: str | None = None
    run_id: str | None = None
    route: Route | None = None
    idempotency_key: str | None = None
    approval_id: str | None = None
    since: float | None = None
    """Recorded at or after this time."""
    until: float | None = None
    """Recorded before this time."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ChainHead:
    """The last link of the chain: publish it elsewhere to make the whole journal tamper-evident."""

    seq: int
    hash: str


@dataclass(frozen=True, kw_only=True, slots=True)
class VerifyReport:
    """The result of checking the whole chain (and, when given, an anchor kept elsewhere)."""

    ok: bool
    checked: int
    """How many receipts were read."""
    first_bad_seq: int | None = None
    """The first position where the chain breaks (an edited, missing or moved receipt)."""
    reason: str | None = None
    head: ChainHead | None = None
    """The chain's last link as verified (publish it to anchor later checks)."""
    anchored: bool = False
    """True when an anchor was given and the chain still holds it."""
