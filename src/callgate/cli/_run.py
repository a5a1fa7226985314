"""`callgate run`, `callgate chat` and `callgate demo`: the agent loop from the terminal."""

from __future__ import annotations

import asyncio
import importlib
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.prompt import Prompt

from callgate._errors import CallgateError, UserError
from callgate.contract import Catalog, Tool, ToolCall, ToolResult
from callgate.dialects import Message
from callgate.gate import Gate
from callgate.loop import Agent, ApprovalDecision, Approve, Decline, Edit, Limits, RunResult
from callgate.models import SDKModel, model_from_spec
from callgate.store import open_store

__all__ = ["load_tools", "register"]

ToolsOpt = Annotated[
    str,
    typer.Option(
        "--tools",
        help="MODULE:ATTR naming a Catalog, a list of tools, or a function returning one.",
    ),
]
ModelOpt = Annotated[
    str,
    typer.Option(
        "--model",
        help="PROVIDER:MODEL, e.g. openai:gpt-4o-mini,"
        " anthropic:claude-sonnet-4-5, gemini:gemini-2.5-flash.",
    ),
]
BaseUrlOpt = Annotated[
    str | None,
    typer.Option("--base-url", help="An OpenAI-compatible server (vLLM, Ollama) or a proxy."),
]
StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        help="sqlite:///path: keep approvals, receipts and run state (enables the policy).",
    ),
]
StepsOpt = Annotated[int, typer.Option("--max-steps", help="Model turns before stopping.")]
SystemOpt = Annotated[str | None, typer.Option("--system", help="The system prompt.")]
TextModeOpt = Annotated[
    bool,
    typer.Option(
        "--text-mode", help="The model has no native tool calling: put the tools in the prompt."
    ),
]


def load_tools(spec: str) -> Catalog:
    """`module:attr` -> a Catalog (attr may be a Catalog, tools, or a callable making them)."""
    module_name, sep, attr = spec.partition(":")
    if not sep:
        raise UserError(f"--tools {spec!r}: expected MODULE:ATTR")
    target: Any = getattr(importlib.import_module(module_name), attr)
    if callable(target) and not isinstance(target, Tool | Catalog):
        target = target()
    if isinstance(target, Catalog):
        return target
    if isinstance(target, Tool):
        return Catalog([target])
    return Catalog(list(target))


def _model(spec: str, base_url: str | None, text_mode: bool) -> SDKModel:
    return model_from_spec(spec, base_url=base_url, stream=True, native_tools=not text_mode)


def _agent(
    tools: str,
    model: SDKModel,
    store: str | None,
    steps: int,
    system: str | None,
    approver: Any = None,
) -> Agent:
    opened = open_store(store) if store else None
    gate = Gate(load_tools(tools), store=opened)
    return Agent(
        model,
        gate=gate,
        store=opened,
        instructions=system,
        limits=Limits(steps=steps),
        approver=approver,
    )


async def _drive(agent: Agent, prompt: str | list[Message], console: Console) -> RunResult:
    from callgate.cli._show import EventPrinter

    printer = EventPrinter(console)
    result: RunResult | None = None
    async for event in agent.stream(prompt):
        printer(event)
        result = getattr(event, "result", result)
    assert result is not None
    return result


def _fail(console: Console, error: Exception) -> typer.Exit:
    console.print(f"[red]error:[/] {error}")
    return typer.Exit(1)


def run(
    prompt: Annotated[str, typer.Argument(help="What to ask the model.")],
    tools: ToolsOpt,
    model: ModelOpt,
    base_url: BaseUrlOpt = None,
    store: StoreOpt = None,
    max_steps: StepsOpt = 10,
    system: SystemOpt = None,
    text_mode: TextModeOpt = False,
) -> None:
    """Run one prompt through the loop; calls, routes and results are shown as they happen.
    A call held for approval pauses the run (decide with `callgate approvals`)."""
    console = Console()

    async def go() -> RunResult:
        async with _model(model, base_url, text_mode) as adapter:
            agent = _agent(tools, adapter, store, max_steps, system)
            try:
                return await _drive(agent, prompt, console)
            finally:
                agent.gate.close()

    try:
        result = asyncio.run(go())
    except CallgateError as exc:
        raise _fail(console, exc) from exc
    if result.status == "paused":
        console.print("the run is paused; its state is in the store")
        raise typer.Exit(3)


async def _ask_in_terminal(call: ToolCall, held: ToolResult) -> ApprovalDecision | None:
    """Approvals asked in the terminal: yes, no, edit (JSON arguments) or later."""

    def ask() -> ApprovalDecision | None:
        answer = Prompt.ask(
            f"[yellow]approve {call.name}({call.arguments})?[/] ({held.reason})",
            choices=["y", "n", "e", "later"],
            default="n",
        )
        if answer == "y":
            return Approve(by="terminal")
        if answer == "e":
            import json

            return Edit(arguments=json.loads(Prompt.ask("new arguments (JSON)")), by="terminal")
        if answer == "n":
            return Decline(by="terminal", note=Prompt.ask("reason", default="declined"))
        return None

    return await asyncio.to_thread(ask)


def chat(
    tools: ToolsOpt,
    model: ModelOpt,
    base_url: BaseUrlOpt = None,
    store: StoreOpt = None,
    max_steps: StepsOpt = 10,
    system: SystemOpt = None,
    text_mode: TextModeOpt = False,
) -> None:
    """Talk to a model through the gate; approvals are asked here. Empty line or Ctrl-D ends."""
    console = Console()

    async def go() -> None:
        async with _model(model, base_url, text_mode) as adapter:
            agent = _agent(tools, adapter, store, max_steps, system, _ask_in_terminal)
            history: list[Message] = []
            try:
                while line := await asyncio.to_thread(_read_line):
                    history.append(Message(role="user", text=line))
                    try:
                        result = await _drive(agent, history, console)
                    except CallgateError as exc:
                        console.print(f"[red]{exc}[/]")
                        continue
                    history = list(result.transcript)
            finally:
                agent.gate.close()

    try:
        asyncio.run(go())
    except CallgateError as exc:
        raise _fail(console, exc) from exc


def _read_line() -> str:
    try:
        return input("you> ").strip()
    except EOFError:
        return ""


def demo(
    model: Annotated[
        str | None,
        typer.Option("--model", help="Run the scenes against a real model instead of the script."),
    ] = None,
    base_url: BaseUrlOpt = None,
) -> None:
    """A narrated run of the scenarios: order lookup, weather, a supplier address change
    under approval. No API key and no network needed."""
    from callgate.cli._demo import run_demo

    console = Console()

    async def go() -> bool:
        if model is None:
            return await run_demo(console)
        async with model_from_spec(model, base_url=base_url, stream=True) as adapter:
            return await run_demo(console, adapter)

    try:
        ok = asyncio.run(go())
    except CallgateError as exc:
        raise _fail(console, exc) from exc
    if not ok:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command()(run)
    app.command()(chat)
    app.command()(demo)
