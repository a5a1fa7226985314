"""What a model proposes (`ToolCall`), who it runs for (`Context`), and what comes back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from callgate._fast import fast_init
from callgate.contract._kinds import Route

__all__ = ["CallContext", "Context", "Timings", "ToolCall", "ToolResult"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCall:
    """One call proposed by a model, in the canonical shape every dialect converts to."""

    id: str
    """The call id the result must carry back (synthesised where a provider gives none)."""
    name: str
    """The tool name as the model wrote it (aliases are resolved by the dialect)."""
    arguments: str | Mapping[str, Any] | None = None
    """Raw JSON text as the model produced it, or an already parsed object."""
    provider_id: str | None = None
    """The provider's own id when `id` had to be rewritten for another dialect."""
    provider_state: Mapping[str, Any] | None = None
    """Opaque provider data that must be echoed to the same provider (thought signatures)."""
    repairs: tuple[str, ...] = ()
    """Repairs made while extracting this call from text (reported, never silent)."""
    synthetic_id: bool = False
    """True when the provider sent no id and `id` was made up by callgate.

    Such an id is never echoed to the provider (Gemini rejects ids it did not issue).
    """


@dataclass(frozen=True, kw_only=True, slots=True)
class Context:
    """Who a call runs for. Server-side parameters are filled from here, never from the model."""

    principal: str = "anonymous"
    """The user or agent id on whose behalf the call runs."""
    tenant: str | None = None
    roles: frozenset[str] = frozenset()
    scopes: frozenset[str] = frozenset()
    run_id: str | None = None
    """The agent run this call belongs to; idempotency keys derive from it."""
    attributes: Mapping[str, Any] = field(default_factory=dict)
    """Further values a tool may declare as server-side parameters."""


@fast_init
@dataclass(frozen=True, kw_only=True, slots=True)
class CallContext:
    """Passed to an executor that declares a parameter annotated with this type."""

    call_id: str
    tool_name: str
    context: Context
    idempotency_key: str | None = None
    """Forward this to the target system so it can drop duplicates on its side too."""
    attempt: int = 1


@fast_init
@dataclass(frozen=True, kw_only=True, slots=True)
class Timings:
    """Where the time of one call went, in milliseconds."""

    started_at: float
    """Unix time when the gate received the call."""
    total_ms: float
    execute_ms: float = 0.0


@fast_init
@dataclass(frozen=True, kw_only=True, slots=True)
class ToolResult:
    """The outcome of one call: a route, and what the model is told."""

    call_id: str
    name: str
    route: Route
    content: str
    """The model-facing text: the tool's output, or what happened and what to do next."""
    structured: Any = None
    """The JSON value the tool returned, when it returned structured data."""
    is_error: bool = False
    timings: Timings | None = None
    replayed: bool = False
    """True when this outcome was stored earlier and returned without running the tool."""
    reference: str | None = None
    """Id of the logged details of a masked failure."""
    reason: str | None = None
    """Why the gate routed the call this way (rule, approval, limit), for people and logs."""
    rule_id: str | None = None
    approval_id: str | None = None
    idempotency_key: str | None = None
    findings: tuple[str, ...] = ()
    """What the scan of an untrusted tool's text found: `"S002 high at 120-161"` (rule,
    severity, characters of the tool's text), as recorded in the receipt."""
