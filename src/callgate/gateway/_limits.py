"""Rate limits and call budgets per principal (or tenant), counted in the database.

    [[gateway.limits]]
    id = "per-minute"              # the rule id a refused call is recorded under: limit:ID
    calls = 60                     # at most this many calls ...
    per = "1m"                     # ... per window: seconds, or "30s", "1m", "1h", "1d"
    scope = "principal"            # count per principal (default) or per tenant
    tools = ["gitlab_*"]           # optional: only calls to these tools (names or globs)
    effects = ["write", "irreversible"]   # optional: only calls with these effects
    principals = ["bot-*"]         # optional: only these principals (ids or globs)

A budget is the same with a long window (`calls = 5000, per = "1d"`). Windows are fixed
and aligned to Unix time (a minute limit counts from :00 to :59), so every gateway process
on one database counts the same window; within one window the database never lets more
than `calls` through, whatever the number of processes. (As with any fixed window, a
client can spend one window's calls at its end and the next one's at the start.)

The limits are a policy hook: they are checked when the policy decides, after the call was
validated and after the rules (a call a rule denies costs nothing); a call over a limit is
`denied` with rule id `limit:ID`, the reason says when to try again, and it has a receipt
like every other route. A counter that cannot be read denies the call (fail closed).
"""

from __future__ import annotations

import datetime
import fnmatch
import inspect
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal
from urllib.parse import quote

import pydantic

from callgate._errors import UserError
from callgate.contract import Context, Effect, Tool
from callgate.gate import Decision, Policy, PolicyRequest
from callgate.store import AsyncStore, Count

__all__ = ["LIMIT_RULE_PREFIX", "CallLimits", "Limit", "parse_limits", "with_limits"]

LIMIT_RULE_PREFIX = "limit:"
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_PER = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
MAX_WINDOW = 366 * 86400


def _seconds(value: Any) -> Any:
    """`per` as seconds: a number, or text such as "30s", "1m", "1h", "1d"."""
    if isinstance(value, str):
        found = _PER.match(value)
        if found is None:
            raise ValueError('write a number of seconds or e.g. "30s", "1m", "1h", "1d"')
        return float(found.group(1)) * _UNITS[found.group(2) or "s"]
    return value


Window = Annotated[
    float,
    pydantic.BeforeValidator(_seconds),
    pydantic.Field(ge=1, le=MAX_WINDOW, allow_inf_nan=False),
]


@dataclass(frozen=True, kw_only=True, slots=True)
class Limit:
    """At most `calls` calls per fixed window of `per` seconds, for each principal (or
    tenant) it applies to (format in this module's docstring)."""

    __pydantic_config__: ClassVar = pydantic.ConfigDict(extra="forbid")

    id: str
    calls: Annotated[int, pydantic.Field(ge=1, le=10**12)]
    per: Window
    scope: Literal["principal", "tenant"] = "principal"
    tools: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = ()
    principals: tuple[str, ...] = ()

    @property
    def rule_id(self) -> str:
        return f"{LIMIT_RULE_PREFIX}{self.id}"

    def applies(self, tool: Tool, context: Context) -> bool:
        if self.tools and not any(fnmatch.fnmatchcase(tool.name, p) for p in self.tools):
            return False
        if self.effects and tool.effect not in self.effects:
            return False
        return not self.principals or any(
            fnmatch.fnmatchcase(context.principal, p) for p in self.principals
        )

    def slot(self, now: float) -> int:
        return math.floor(now / self.per)

    def ends(self, now: float) -> float:
        """When the window that holds `now` ends."""
        return (self.slot(now) + 1) * self.per

    def who(self, context: Context) -> str:
        if self.scope == "tenant":
            return f"tenant {context.tenant or '-'}"
        return f"principal {context.principal}"

    def count(self, context: Context, now: float) -> Count:
        who = (context.tenant or "-") if self.scope == "tenant" else context.principal
        # The window length is part of the key: a limit whose `per` changed starts afresh
        # rather than reading another length's slot numbers.
        key = f"gateway-limit/{quote(self.id)}/{self.per:g}/{self.scope}/{quote(who, safe='')}"
        return Count(key=key, slot=self.slot(now), limit=self.calls, expires_at=self.ends(now))

    def describe(self) -> str:
        return f"{self.calls} calls per {_span(self.per)}"


_LIMITS = pydantic.TypeAdapter(tuple[Limit, ...])


def parse_limits(raw: Any) -> tuple[Limit, ...]:
    """`[[gateway.limits]]` tables; `UserError` naming the first problem."""
    if not isinstance(raw, list):
        raise UserError("gateway.limits must be an array of tables ([[gateway.limits]])")
    try:
        limits = _LIMITS.validate_python(raw)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UserError(f"gateway.limits[{where}]: {first['msg']}") from None
    ids = [limit.id for limit in limits]
    for limit in limits:
        if not _ID.match(limit.id):
            raise UserError(
                f"gateway.limits: id {limit.id[:70]!r} must be 1 to 64 of A-Z a-z 0-9 _ . : -"
            )
        if ids.count(limit.id) > 1:
            raise UserError(f"gateway.limits: the id {limit.id!r} is used twice")
    return limits


class CallLimits:
    """The limits as a policy hook over one store (see the module docstring)."""

    def __init__(
        self, limits: Sequence[Limit], store: AsyncStore, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.limits = tuple(limits)
        self.store = store
        self.clock = clock

    def __bool__(self) -> bool:
        return bool(self.limits)

    async def __call__(self, request: PolicyRequest) -> Decision | None:
        """None when the call is within every limit that applies (it was counted), else
        the denial of the first limit it is over (then it was counted nowhere)."""
        applying = [limit for limit in self.limits if limit.applies(request.tool, request.context)]
        if not applying:
            return None
        now = self.clock()
        counts = [limit.count(request.context, now) for limit in applying]
        full = await self.store.run(self.store.store.counters.take, counts)
        if full is None:
            return None
        limit = applying[full]
        return Decision.deny(_reason(limit, request.context, now), rule_id=limit.rule_id)

    def retry_after(self, rule_id: str | None) -> float | None:
        """Seconds until the window of the limit `rule_id` names ends (None: no such limit)."""
        now = self.clock()
        for limit in self.limits:
            if limit.rule_id == rule_id:
                return max(0.0, limit.ends(now) - now)
        return None


def with_limits(policy: Policy, limits: CallLimits) -> Policy:
    """`policy` with the limits checked after its own hook (a call the hook denies is not
    counted); the same rules, default and version, so receipts name the same policy."""
    if not limits:
        return policy
    inner = policy.hook

    async def hook(request: PolicyRequest) -> Decision | None:
        decided = inner(request) if inner is not None else None
        if inspect.isawaitable(decided):
            decided = await decided
        if decided is not None and decided.action == "deny":
            return decided
        return await limits(request) or decided

    return Policy(policy.rules, default=policy.default, hook=hook, version=policy.version)


def _reason(limit: Limit, context: Context, now: float) -> str:
    ends = limit.ends(now)
    at = datetime.datetime.fromtimestamp(ends, tz=datetime.UTC).strftime("%H:%M:%SZ")
    wait = max(1, math.ceil(ends - now))
    return (
        f"the limit of {limit.describe()} for {limit.who(context)} is reached; "
        f"it can be called again in {wait} s (at {at})"
    )


def _span(seconds: float) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds == size:
            return unit
        if seconds % size == 0:
            return f"{seconds / size:g} {unit}s"
    return f"{seconds:g} s"
