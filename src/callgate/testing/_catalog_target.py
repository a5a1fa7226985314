"""A `FixtureTarget` read off a catalog: the calls come from the tools' own examples.

What the kit needs and a catalog does not say is taken the simplest honest way: a change is
a run of a write or irreversible executor that returned (each such executor is wrapped to
count them), the unprivileged principal is the given one without its roles and scopes, the
open-world and private reads are example calls of tools labelled `untrusted_output` and
`private_data`. What cannot be read off (another tenant's object, the target system's fault
switches) is left out, and those fixtures are skipped with the reason; describe them in a
`FixtureTarget` of your own (a `callgate_target` fixture) to run them.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from typing import Any

from callgate._errors import UserError
from callgate.contract import Catalog, Context, Effect, Tool, ToolCall
from callgate.gate import Gate, Policy
from callgate.testing._fixtures import FixtureTarget

__all__ = ["catalog_target"]


class _Counter:
    def __init__(self) -> None:
        self.runs = 0

    def wrap(self, tool: Tool) -> Tool:
        executor = tool.executor
        if executor is None or tool.effect is Effect.READ or tool.run_in == "process":
            return tool
        if tool.is_async:

            @functools.wraps(executor)
            async def counted_async(*args: Any, **kwargs: Any) -> Any:
                value = await executor(*args, **kwargs)
                self.runs += 1
                return value

            return dataclasses.replace(tool, executor=counted_async)

        @functools.wraps(executor)
        def counted(*args: Any, **kwargs: Any) -> Any:
            value = executor(*args, **kwargs)
            self.runs += 1
            return value

        return dataclasses.replace(tool, executor=counted)


def catalog_target(
    tools: Catalog | Iterable[Tool],
    *,
    policy: Policy | None = None,
    context: Context | None = None,
) -> FixtureTarget:
    """Describe `tools` for the fixture kit from their examples (see the module's notes).

    `policy` is the one your gate runs (`Policy()` when none: reads allowed, writes asked);
    `context` a principal allowed to make the write. Raises `UserError` when no write tool
    with an example exists: the kit is about what a write may and may not do.
    """
    counter = _Counter()
    counted = [counter.wrap(t) for t in tools]
    # A worker process's executor cannot be counted from here.
    writes = [t for t in counted if t.effect is not Effect.READ and t.run_in != "process"]
    write = _example(writes, lambda t: t.effect is Effect.WRITE) or _example(writes, _any)
    if write is None:
        raise UserError(
            "the catalog has no write or irreversible tool with an example to run (and count): "
            "add examples=[{...}] to one, or describe the target in a `callgate_target` fixture"
        )
    read = _example(counted, lambda t: t.effect is Effect.READ) or write
    untrusted = _example(counted, lambda t: t.effect is Effect.READ and _untrusted(t))
    private = _example(counted, lambda t: "private_data" in t.labels)
    ctx = dataclasses.replace(context or Context(principal="callgate-kit"), run_id="callgate-kit")
    unprivileged = None
    if ctx.roles or ctx.scopes:
        unprivileged = dataclasses.replace(
            ctx, principal=f"{ctx.principal}-unprivileged", roles=frozenset(), scopes=frozenset()
        )
    chosen = policy or Policy()
    write_call = write.call

    async def make_write(gate: Gate, context: Context) -> ToolCall:
        return write_call

    return FixtureTarget(
        gate=lambda: Gate(counted, policy=chosen),
        context=ctx,
        read=read.call,
        write=make_write,
        changes=lambda: counter.runs,
        unprivileged=unprivileged,
        untrusted=untrusted.call if untrusted is not None else None,
        private=private.call if private is not None else None,
    )


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class _Example:
    tool: Tool
    call: ToolCall


def _example(tools: list[Tool], wanted: Callable[[Tool], bool]) -> _Example | None:
    for tool in tools:
        if wanted(tool) and tool.examples:
            arguments = dict(tool.examples[0])
            call = ToolCall(id=f"kit-{tool.name}", name=tool.name, arguments=arguments)
            return _Example(tool=tool, call=call)
    return None


def _untrusted(tool: Tool) -> bool:
    return "untrusted_output" in tool.labels


def _any(tool: Tool) -> bool:
    return True
