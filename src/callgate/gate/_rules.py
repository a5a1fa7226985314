"""One declarative policy rule: what it matches, and what it decides."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from callgate._errors import UserError
from callgate.contract import Context, Effect, Tool
from callgate.gate._decision import Action, Decision
from callgate.schema import CompiledSchema, compile_schema

__all__ = ["ANNOTATION_KEYS", "PolicyRequest", "Rule"]

ANNOTATION_KEYS = frozenset({"read_only", "destructive", "idempotent", "open_world"})
"""The `ToolAnnotations` hints a rule can match on."""

_ACTIONS = ("allow", "deny", "ask")
_EFFECTS = frozenset(e.value for e in Effect)


@dataclass(frozen=True, kw_only=True, slots=True)
class PolicyRequest:
    """What rules and the policy hook see: the tool, its arguments, and who calls it."""

    tool: Tool
    arguments: Mapping[str, Any]
    """Validated arguments with defaults filled and server-side values injected."""
    context: Context


@dataclass(frozen=True, kw_only=True, slots=True)
class Rule:
    """Matches a call when every matcher given matches; an empty matcher matches anything.

    Build one with `Rule.allow(...)`, `Rule.deny(...)` or `Rule.ask(...)`.
    """

    id: str
    action: Action
    reason: str = ""
    tools: tuple[str, ...] = ()
    """Tool names or globs (`supplier_*`)."""
    namespaces: tuple[str, ...] = ()
    effects: frozenset[Effect] = frozenset()
    annotations: Mapping[str, bool] = field(default_factory=dict)
    """Hints that must hold, e.g. `{"open_world": True}`."""
    roles: frozenset[str] = frozenset()
    """The principal holds at least one of these roles."""
    lacks_roles: frozenset[str] = frozenset()
    """The principal holds none of these roles (for "missing permission" rules)."""
    principals: tuple[str, ...] = ()
    """Principal ids or globs."""
    tenants: tuple[str, ...] = ()
    arguments: Mapping[str, Any] | None = None
    """A JSON Schema fragment the arguments must satisfy, e.g.
    `{"properties": {"amount": {"exclusiveMinimum": 1000}}, "required": ["amount"]}`."""
    _names: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    _principals: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    _predicate: CompiledSchema | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.id:
            raise UserError("a policy rule needs an id")
        if self.action not in _ACTIONS:
            raise UserError(
                f"rule {self.id!r}: action must be allow, deny or ask, not {self.action!r}"
            )
        unknown = set(self.annotations) - ANNOTATION_KEYS
        if unknown:
            raise UserError(
                f"rule {self.id!r}: unknown annotation(s) {sorted(unknown)}; "
                f"use {sorted(ANNOTATION_KEYS)}"
            )
        set_ = object.__setattr__
        bad = sorted(str(e) for e in self.effects if e not in _EFFECTS)
        if bad:
            raise UserError(
                f"rule {self.id!r}: unknown effect(s) {bad}; use read, write or irreversible"
            )
        set_(self, "effects", frozenset(Effect(e) for e in self.effects))
        set_(self, "_names", _globs(self.tools))
        set_(self, "_principals", _globs(self.principals))
        set_(self, "_predicate", self._compile_predicate())

    @classmethod
    def allow(cls, id: str, reason: str = "", **matchers: Any) -> Rule:
        return cls(id=id, action="allow", reason=reason, **_normalized(matchers))

    @classmethod
    def deny(cls, id: str, reason: str = "", **matchers: Any) -> Rule:
        return cls(id=id, action="deny", reason=reason, **_normalized(matchers))

    @classmethod
    def ask(cls, id: str, reason: str = "", **matchers: Any) -> Rule:
        return cls(id=id, action="ask", reason=reason, **_normalized(matchers))

    def matches(self, request: PolicyRequest) -> bool:
        tool, ctx = request.tool, request.context
        return (
            (self._names is None or self._names.match(tool.name) is not None)
            and (not self.namespaces or tool.namespace in self.namespaces)
            and (not self.effects or tool.effect in self.effects)
            and all(getattr(tool.annotations, k) is v for k, v in self.annotations.items())
            and (not self.roles or not self.roles.isdisjoint(ctx.roles))
            and self.lacks_roles.isdisjoint(ctx.roles)
            and (self._principals is None or self._principals.match(ctx.principal) is not None)
            and (not self.tenants or ctx.tenant in self.tenants)
            and (self._predicate is None or self._predicate.is_valid(dict(request.arguments)))
        )

    def decision(self) -> Decision:
        reason = self.reason or f"{self.action} by rule {self.id}"
        return Decision(action=self.action, rule_id=self.id, reason=reason)

    def _compile_predicate(self) -> CompiledSchema | None:
        if self.arguments is None:
            return None
        try:
            return compile_schema(self.arguments)
        except UserError as exc:
            raise UserError(f"rule {self.id!r}: arguments predicate: {exc}") from exc


def _globs(patterns: Iterable[str]) -> re.Pattern[str] | None:
    patterns = tuple(patterns)
    if not patterns:
        return None
    return re.compile("|".join(fnmatch.translate(p) for p in patterns))


def _normalized(matchers: dict[str, Any]) -> dict[str, Any]:
    """Accept lists and single strings from Python callers and TOML alike."""
    out: dict[str, Any] = {}
    for key, value in matchers.items():
        if isinstance(value, str) and key not in ("reason",):
            value = (value,)
        if key in ("effects", "roles", "lacks_roles"):
            value = frozenset(value)
        elif key in ("tools", "namespaces", "principals", "tenants"):
            value = tuple(value)
        out[key] = value
    return out
