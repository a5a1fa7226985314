"""`callgate demo`: the scenarios of this field, through the real loop, gate and store.

The model is played by a scripted fake OpenAI server over HTTP (no key, no network), so
every step a real deployment takes is taken: the official client, the wire format, the
gate's policy, approvals, exactly-once writes, read-back and receipts in SQLite. With a
real model (`--model`) the same scenes run on the same tools; the script is not used.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from callgate.cli._demo_tools import (
    SUPPLIER_POLICY,
    OrderBook,
    SupplierRegistry,
    WeatherService,
    order_tools,
    supplier_tools,
    weather_tools,
)
from callgate.cli._output import console
from callgate.cli._show import EventPrinter
from callgate.contract import Context, Route
from callgate.gate import Gate, Policy
from callgate.loop import Agent, ApprovalDecision, Approve, Decline, RunResult
from callgate.models import (
    FakeOpenAIChatServer,
    Model,
    OpenAIChatModel,
    Turn,
    TurnSource,
    model_from_spec,
)
from callgate.store import Store, open_store

__all__ = ["demo", "run_demo"]


TOOL_TIMEOUT = 1.0
"""Seconds a supplier tool may take in the demo (the stalled commit takes longer)."""
STALL_SECONDS = 1.5
CLERK = Context(principal="ann", tenant="acme")
ADMIN = Context(principal="bo", tenant="acme", roles=frozenset({"supplier_admin"}))
Decide = Callable[[str], ApprovalDecision]


@dataclass(frozen=True, kw_only=True, slots=True)
class Scene:
    title: str
    story: str
    prompt: str
    context: Context
    turns: Sequence[TurnSource]
    decide: Decide | None = None
    """How the second person answers the approval this scene asks for."""
    routes: tuple[str, ...] = field(default=())
    """What a newcomer should see in this scene (checked against the scripted run)."""
    prepare: Callable[[SupplierRegistry], None] | None = None
    """Sets the backend up for the scene (a fault to run into)."""


def _result_field(key: str) -> Callable[[Any], str]:
    """The value of `key` in the latest tool result the client sent (an id the script
    cannot know in advance, like a draft id)."""

    def read(body: Any) -> str:
        for message in reversed(body.get("messages", [])):
            if message.get("role") == "tool":
                try:
                    return str(json.loads(message["content"]).get(key, ""))
                except (ValueError, AttributeError):
                    continue
        return ""

    return read


def _commit_latest_draft(text: str | None = None) -> TurnSource:
    draft_id = _result_field("draft_id")
    return lambda body: Turn.call(
        ("supplier_commit_change", {"draft_id": draft_id(body)}), text=text
    )


def scenes(old_draft: Callable[[], str]) -> list[Scene]:
    lookup = Turn.call(("supplier_lookup", {"supplier_id": "S-1"}))
    draft = Turn.call(
        (
            "supplier_draft_change",
            {"supplier_id": "S-1", "new_address": "Hamngatan 5, 211 22 Malmö"},
        )
    )
    return [
        Scene(
            title="Order lookup",
            story="A support agent asks about a customer's orders. One call has a wrong "
            "field name and is sent back with the fix; another asks for an order of "
            "another company, which does not exist for this tenant.",
            prompt="Which orders does ann@example.com have? And what about order O-2001?",
            context=CLERK,
            routes=("completed", "invalid", "failed"),
            turns=[
                Turn.call(
                    ("find_orders", {"customer": "ann@example.com"}),
                    ("get_order", {"id": "O-1001"}),
                ),
                Turn.call(
                    ("get_order", {"order_id": "O-1001"}), ("get_order", {"order_id": "O-2001"})
                ),
                Turn.say(
                    "Ann has one order, O-1001 (shipped, 129.50). O-2001 is not an "
                    "order of your organisation."
                ),
            ],
        ),
        Scene(
            title="Weather",
            story="Open-world data: a forecast, one out of range, and an upstream that "
            "hangs past the tool's deadline (a read: nothing changed, safe to retry).",
            prompt="Weather in Malmö for the next 3 days, for 10 days, and in Reykjavík?",
            context=CLERK,
            routes=("completed", "failed", "timeout"),
            turns=[
                Turn.call(
                    ("get_weather_forecast", {"city": "Malmö", "days": 3}),
                    ("get_weather_forecast", {"city": "Malmö", "days": 10}),
                    ("get_weather_forecast", {"city": "Reykjavík", "days": 3}),
                ),
                Turn.say(
                    "Malmö: sunny, then light rain, 14-16 °C; forecasts go 7 days "
                    "ahead. The Reykjavík service did not answer in time."
                ),
            ],
        ),
        Scene(
            title="Supplier address change, by a clerk",
            story="Reading and drafting are allowed; committing needs the supplier_admin "
            "role, which the policy checks before anything runs.",
            prompt="Change supplier S-1's address to Hamngatan 5, 211 22 Malmö.",
            context=CLERK,
            routes=("completed", "completed", "denied"),
            turns=[
                lookup,
                draft,
                _commit_latest_draft(),
                Turn.say("I drafted the change, but committing it needs a supplier administrator."),
            ],
        ),
        Scene(
            title="Supplier address change, by an admin, approved",
            story="The commit is held for a second person. The run pauses with its state "
            "saved; once approved it resumes, the write runs once and is read back.",
            prompt="Change supplier S-1's address to Hamngatan 5, 211 22 Malmö.",
            context=ADMIN,
            decide=lambda _: Approve(by="cy"),
            routes=("completed", "completed", "held", "verified"),
            turns=[
                lookup,
                draft,
                _commit_latest_draft("Committing; this needs approval."),
                Turn.say("Done: S-1 now lives at Hamngatan 5, 211 22 Malmö."),
            ],
        ),
        Scene(
            title="Another change, declined",
            story="The second person declines; the model is told not to retry.",
            prompt="Move S-1 to Lilla Torg 1, Malmö.",
            context=ADMIN,
            decide=lambda _: Decline(by="cy", note="the supplier has not confirmed it"),
            routes=("completed", "held", "declined"),
            turns=[
                Turn.call(
                    (
                        "supplier_draft_change",
                        {"supplier_id": "S-1", "new_address": "Lilla Torg 1, Malmö"},
                    )
                ),
                _commit_latest_draft(),
                Turn.say("The change was declined: the supplier has not confirmed it."),
            ],
        ),
        Scene(
            title="A stale draft",
            story="Committing the first draft again: the record changed since it was "
            "drafted, so the registry refuses it instead of overwriting.",
            prompt="Commit the first draft again.",
            context=ADMIN,
            decide=lambda _: Approve(by="cy"),
            routes=("held", "conflict"),
            turns=[
                lambda body: Turn.call(("supplier_commit_change", {"draft_id": old_draft()})),
                Turn.say("That draft is out of date; the record changed since."),
            ],
        ),
        Scene(
            title="The registry stalls",
            story="The approved commit is applied, but the registry answers too late. A "
            "write that may have happened is never blindly retried: its outcome is "
            "unknown until the reconcile hook checks it by idempotency key.",
            prompt="Move S-1 to Södra Förstadsgatan 2, Malmö.",
            context=ADMIN,
            decide=lambda _: Approve(by="cy"),
            prepare=_stall,
            routes=("completed", "held", "unknown_outcome"),
            turns=[
                Turn.call(
                    (
                        "supplier_draft_change",
                        {"supplier_id": "S-1", "new_address": "Södra Förstadsgatan 2, Malmö"},
                    )
                ),
                _commit_latest_draft(),
                Turn.say(
                    "The registry did not confirm in time; I will not resend it. "
                    "Its status is checked before anything else happens."
                ),
            ],
        ),
    ]


def _stall(registry: SupplierRegistry) -> None:
    registry.faults.stall = "after"
    registry.faults.stall_seconds = STALL_SECONDS


class Demo:
    """The backends, store, gate and model of one demo, and the scenes run on them."""

    def __init__(self, console: Console, workdir: Path, model: Model | None) -> None:
        self.console = console
        self.registry = SupplierRegistry.sample()
        weather = WeatherService(slow={"Reykjavík": 1.5})  # hangs past TOOL_TIMEOUT
        tools = [
            *order_tools(OrderBook.sample()),
            *weather_tools(weather, timeout=TOOL_TIMEOUT),
            *supplier_tools(self.registry, timeout=TOOL_TIMEOUT),
        ]
        self.store: Store = open_store(f"sqlite:///{workdir / 'callgate.db'}")
        self.gate = Gate(tools, store=self.store, policy=Policy.loads(SUPPLIER_POLICY))
        self.real = model
        self.first_draft = ""
        self.seen: set[str] = set()

    def close(self) -> None:
        self.gate.close()
        self.store.close()

    async def run(self) -> bool:
        ok = True
        for number, scene in enumerate(scenes(lambda: self.first_draft), 1):
            ok = await self._scene(number, scene) and ok
        self.console.rule("[bold]what happened")
        self.console.print(f"routes seen: {', '.join(sorted(self.seen))}")
        self.console.print(
            f"supplier record writes: {self.registry.writes} (each approved "
            "commit ran exactly once; the stale one changed nothing)"
        )
        receipts = self.store.receipts.verify()
        self.console.print(f"receipts: {receipts}")
        return ok

    async def _scene(self, number: int, scene: Scene) -> bool:
        self.console.rule(f"[bold]{number}. {escape(scene.title)}")
        self.console.print(f"[dim]{escape(scene.story)}[/]")
        self.console.print(f"[bold]user ({scene.context.principal}):[/] {escape(scene.prompt)}")
        if scene.prepare is not None:
            scene.prepare(self.registry)
        if self.real is not None:
            return await self._play(self.real, scene)
        with FakeOpenAIChatServer(scene.turns, model="scripted-demo") as server:
            async with OpenAIChatModel(
                "scripted-demo", base_url=server.base_url, stream=True
            ) as model:
                return await self._play(model, scene)

    async def _play(self, model: Model, scene: Scene) -> bool:
        printer = EventPrinter(self.console)
        agent = Agent(model, gate=self.gate, store=self.store, context=scene.context)
        result: RunResult | None = None
        async for event in agent.stream(scene.prompt, context=scene.context):
            printer(event)
            result = getattr(event, "result", result)
        assert result is not None
        while result.status == "paused" and scene.decide is not None:
            decisions = {p.approval_id: scene.decide(p.approval_id) for p in result.pending}
            for pending in result.pending:
                decision = decisions[pending.approval_id]
                self.console.print(
                    f"[yellow]second person:[/] {type(decision).__name__.lower()}"
                    f" {pending.call.name} ({pending.approval_id})"
                )
            async for event in agent.resume_stream(result.run_id, decisions):
                printer(event)
                result = getattr(event, "result", result)
        return self._check(scene, result)

    def _check(self, scene: Scene, result: RunResult) -> bool:
        routes = tuple(r.route.value for r in result.calls)
        self.seen.update(routes)
        for record in result.calls:
            made = record.result.structured
            if (
                record.call.name == "supplier_draft_change"
                and record.route is Route.COMPLETED
                and not self.first_draft
                and isinstance(made, dict)
            ):
                self.first_draft = str(made.get("draft_id", ""))
        if self.real is not None or not scene.routes:
            return True
        shown = tuple(r for r in routes if r in scene.routes)
        if set(shown) != set(scene.routes):
            self.console.print(f"[red]expected routes {scene.routes}, saw {routes}[/]")
            return False
        return result.status == "finished"


async def run_demo(console: Console, model: Model | None = None) -> bool:
    """Run every scene; True when each showed what it should."""
    with tempfile.TemporaryDirectory(prefix="callgate-demo-") as tmp:
        demo = Demo(console, Path(tmp), model)
        try:
            return await demo.run()
        finally:
            demo.close()


def demo(
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            metavar="PROVIDER:MODEL",
            help="Run the scenes against a real model instead of the script.",
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", metavar="URL", help="An OpenAI-compatible server."),
    ] = None,
) -> None:
    """A narrated run of the scenarios: order lookup, weather, a supplier address change
    under approval. No API key and no network needed."""
    out = console()

    async def go() -> bool:
        if model is None:
            return await run_demo(out)
        async with model_from_spec(model, base_url=base_url, stream=True) as adapter:
            return await run_demo(out, adapter)

    if not asyncio.run(go()):
        raise typer.Exit(1)
