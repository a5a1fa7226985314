"""The declarative policy: rules from TOML or Python, deny wins, a hook for the rest.

    version = "2026-11"            # optional; a content hash is used when absent
    default = "effect"             # or "deny": refuse whatever no rule allows

    [[rules]]
    id = "big-payments"
    action = "deny"                # allow | deny | ask
    reason = "payments above 1000 go through the finance desk"
    tools = ["payments_*"]         # names or globs
    arguments = { properties = { amount = { exclusiveMinimum = 1000 } }, required = ["amount"] }

Other matchers: `namespaces`, `effects`, `annotations` (`{ open_world = true }`), `roles`,
`lacks_roles`, `principals`, `tenants`. Every matcher given must match; among the rules
that match, a `deny` beats an `ask`, which beats an `allow`. With no matching rule the
`effect` default allows reads and asks for writes and irreversible calls.
"""

from __future__ import annotations

import inspect
import tomllib
from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from callgate._errors import UserError
from callgate._files import read_config
from callgate.contract import Effect
from callgate.gate._decision import Decision
from callgate.gate._rules import PolicyRequest, Rule
from callgate.schema import content_hash

__all__ = ["DefaultMode", "Policy", "PolicyHook"]

DefaultMode = Literal["effect", "deny"]

PolicyHook = Callable[[PolicyRequest], "Decision | Awaitable[Decision | None] | None"]
"""Decides what no rule can express; returns a `Decision`, or None to have no opinion.

Its decision joins those of the matching rules, so a hook's `deny` wins like a rule's.
"""

_RULE_KEYS = frozenset(
    {
        "id",
        "action",
        "reason",
        "tools",
        "namespaces",
        "effects",
        "annotations",
        "roles",
        "lacks_roles",
        "principals",
        "tenants",
        "arguments",
    }
)


class Policy:
    """Ordered rules, a default mode and an optional hook; `version` goes into receipts."""

    def __init__(
        self,
        rules: Iterable[Rule] = (),
        *,
        default: DefaultMode = "effect",
        hook: PolicyHook | None = None,
        version: str | None = None,
    ) -> None:
        if default not in ("effect", "deny"):
            raise UserError(f"policy default must be 'effect' or 'deny', not {default!r}")
        self.rules = tuple(rules)
        ids = [r.id for r in self.rules]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise UserError(f"policy rule ids must be unique: {', '.join(duplicates)}")
        self.default: DefaultMode = default
        self.hook = hook
        self.version = (
            version
            or content_hash({"default": default, "rules": [_describe(r) for r in self.rules]})[:16]
        )

    @classmethod
    def from_toml(cls, path: str | Path, *, hook: PolicyHook | None = None) -> Policy:
        """Load a policy file (format in this module's docstring), a regular file of at
        most `MAX_CONFIG_BYTES`."""
        label = f"policy {str(path)!r}"
        try:
            data = tomllib.loads(read_config(path, label))
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"cannot read {label}: {exc}") from exc
        return cls.from_dict(data, hook=hook)

    @classmethod
    def loads(cls, text: str, *, hook: PolicyHook | None = None) -> Policy:
        """A policy from TOML text."""
        try:
            return cls.from_dict(tomllib.loads(text), hook=hook)
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"invalid policy TOML: {exc}") from exc

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, hook: PolicyHook | None = None) -> Policy:
        unknown = set(data) - {"version", "default", "rules"}
        if unknown:
            raise UserError(f"policy: unknown key(s) {sorted(unknown)}")
        rules = [_rule(i, raw) for i, raw in enumerate(data.get("rules", []))]
        version = data.get("version")
        return cls(
            rules,
            default=data.get("default", "effect"),
            hook=hook,
            version=str(version) if version is not None else None,
        )

    async def decide(self, request: PolicyRequest) -> Decision:
        """The decision for one call: deny wins over ask, ask over allow."""
        best: Decision | None = None
        for rule in self.rules:
            if rule.matches(request):
                best = rule.decision() if best is None else best.joined(rule.decision())
                if best.action == "deny":
                    return best
        if self.hook is not None:
            hooked = self.hook(request)
            if inspect.isawaitable(hooked):
                hooked = await hooked
            if hooked is not None:
                best = hooked if best is None else best.joined(hooked)
        return best or self._default(request)

    def _default(self, request: PolicyRequest) -> Decision:
        effect = request.tool.effect
        if self.default == "deny":
            return Decision.deny(
                "no rule allows this call (deny-by-default policy)", rule_id="default:deny"
            )
        if effect is Effect.READ:
            return Decision.allow("reads are allowed by default", rule_id="default:read")
        return Decision.ask(
            f"{effect.value} calls need approval by default", rule_id=f"default:{effect.value}"
        )


def _rule(index: int, raw: Any) -> Rule:
    if not isinstance(raw, Mapping):
        raise UserError(f"policy rule #{index + 1} must be a table")
    unknown = set(raw) - _RULE_KEYS
    where = f"policy rule {raw.get('id', f'#{index + 1}')!r}"
    if unknown:
        raise UserError(
            f"{where}: unknown key(s) {sorted(unknown)}; known keys: {sorted(_RULE_KEYS)}"
        )
    if "id" not in raw or "action" not in raw:
        raise UserError(f"{where}: 'id' and 'action' are required")
    matchers = {k: v for k, v in raw.items() if k not in ("id", "action", "reason")}
    try:
        factory = {"allow": Rule.allow, "deny": Rule.deny, "ask": Rule.ask}[raw["action"]]
    except (KeyError, TypeError):
        raise UserError(f"{where}: action must be allow, deny or ask") from None
    try:
        return factory(str(raw["id"]), str(raw.get("reason", "")), **matchers)
    except TypeError as exc:  # a matcher of the wrong shape (a number where a list belongs)
        raise UserError(f"{where}: {exc}") from exc


def _describe(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "action": rule.action,
        "reason": rule.reason,
        "tools": rule.tools,
        "namespaces": rule.namespaces,
        "effects": sorted(rule.effects),
        "annotations": dict(rule.annotations),
        "roles": sorted(rule.roles),
        "lacks_roles": sorted(rule.lacks_roles),
        "principals": rule.principals,
        "tenants": rule.tenants,
        "arguments": rule.arguments,
    }
