"""`callgate run`, `callgate chat` and `callgate resume`: the agent loop from the terminal.

A run that pauses for approval exits 3. With `--store` its state is saved there: decide
with `callgate approvals`, or at the prompt of `callgate resume RUN_ID`, which continues
it. Without a store nothing is saved, and the messages say so.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Coroutine
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.prompt import Prompt

from callgate._errors import CallgateError, UserError
from callgate._visible import visible
from callgate.cli._output import console, emit_json, note
from callgate.cli._show import EventPrinter
from callgate.cli._store_option import CreateOpt, StoreOpt, open_cli_store
from callgate.cli._user_code import import_attribute
from callgate.contract import Catalog, Tool, ToolCall, ToolResult
from callgate.dialects import Message
from callgate.gate import Gate, Policy
from callgate.loop import (
    Agent,
    ApprovalDecision,
    Approve,
    Decline,
    Edit,
    Event,
    HeldCall,
    Limits,
    RunError,
    RunResult,
)
from callgate.models import SDKModel, model_from_spec
from callgate.store import Store

__all__ = ["chat", "load_tools", "resume", "run"]

PAUSED = 3
"""The exit code of a run that waits for approval."""

T = TypeVar("T")

ToolsOpt = Annotated[
    str,
    typer.Option(
        "--tools",
        metavar="MODULE:ATTR",
        help="A Catalog, a list of tools, or a function returning one; the module is "
        "looked up from the current folder too.",
    ),
]
ModelOpt = Annotated[
    str,
    typer.Option(
        "--model",
        metavar="PROVIDER:MODEL",
        help="e.g. openai:gpt-4o-mini, anthropic:claude-sonnet-4-5, gemini:gemini-2.5-flash.",
    ),
]
BaseUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--base-url", metavar="URL", help="An OpenAI-compatible server (vLLM, Ollama) or a proxy."
    ),
]
PolicyOpt = Annotated[
    Path | None,
    typer.Option("--policy", metavar="FILE", help="A policy file (TOML) for the gate."),
]
StepsOpt = Annotated[int, typer.Option("--max-steps", min=1, help="Model turns before stopping.")]
SystemOpt = Annotated[
    str | None, typer.Option("--system", metavar="TEXT", help="The system prompt.")
]
TextModeOpt = Annotated[
    bool,
    typer.Option(
        "--text-mode", help="The model has no native tool calling: put the tools in the prompt."
    ),
]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print the outcome as JSON, not the events as they happen.")
]


@dataclass(frozen=True, kw_only=True, slots=True)
class Setup:
    """What a run needs besides its prompt, as given on the command line."""

    tools: str
    model: str
    base_url: str | None = None
    store: str | None = None
    create: bool = False
    policy: Path | None = None
    steps: int = 10
    system: str | None = None
    text_mode: bool = False

    def resume_command(self, run_id: str) -> str:
        return (
            f"callgate resume {run_id} --store {self.store} --tools {self.tools} "
            f"--model {self.model}" + (f" --base-url {self.base_url}" if self.base_url else "")
        )


def load_tools(spec: str) -> Catalog:
    """`module:attr` -> a Catalog (attr may be a Catalog, tools, or a callable making them)."""
    target = import_attribute(spec, option="--tools")
    if callable(target) and not isinstance(target, Tool | Catalog):
        try:
            target = target()
        except Exception as exc:  # the user's factory
            raise UserError(
                f"--tools {spec!r}: calling it raised {type(exc).__name__}: {exc}"
            ) from exc
    if isinstance(target, Catalog):
        return target
    if isinstance(target, Tool):
        return Catalog([target])
    if not isinstance(target, list | tuple) or not all(isinstance(t, Tool) for t in target):
        raise UserError(
            f"--tools {spec!r} is a {type(target).__name__}; expected a Catalog, a Tool, "
            "a list of tools, or a function returning one"
        )
    return Catalog(list(target))


@asynccontextmanager
async def _agent(setup: Setup, *, interactive: bool) -> AsyncIterator[Agent]:
    catalog = load_tools(setup.tools)
    policy = None if setup.policy is None else Policy.from_toml(setup.policy)
    async with AsyncExitStack() as stack:
        store: Store | None = None
        if setup.store is not None:
            store = stack.enter_context(
                open_cli_store(setup.store, create=setup.create, creatable=True)
            )
        model = await stack.enter_async_context(_model(setup))
        gate = stack.enter_context(Gate(catalog, store=store, policy=policy))
        yield Agent(
            model,
            gate=gate,
            store=store,
            instructions=setup.system,
            limits=Limits(steps=setup.steps),
            batch_approver=_ask_in_terminal if interactive else None,
        )


@asynccontextmanager
async def _model(setup: Setup) -> AsyncIterator[SDKModel]:
    """The model adapter; a missing SDK, key or server is a one-line error naming it."""
    async with AsyncExitStack() as stack:
        try:
            adapter = model_from_spec(
                setup.model, base_url=setup.base_url, stream=True, native_tools=not setup.text_mode
            )
            entered = await stack.enter_async_context(adapter)
        except CallgateError:
            raise
        except Exception as exc:  # the provider SDK's own complaint (no key, bad URL)
            raise UserError(f"model {setup.model!r} could not be started: {exc}") from exc
        yield entered


async def _drive(events: AsyncIterator[Event], out: Console | None) -> RunResult:
    printer = None if out is None else EventPrinter(out)
    result: RunResult | None = None
    async for event in events:
        if printer is not None:
            printer(event)
        result = getattr(event, "result", result)
    if result is None:  # pragma: no cover - every stream ends with RunEnded
        raise RuntimeError("the run ended without a result")
    return result


def _run(work: Coroutine[Any, Any, T], setup: Setup) -> T:
    """Run `work`; a run that stopped is one honest line and exit 1."""
    try:
        return asyncio.run(work)
    except RunError as exc:
        message = str(exc)
        if setup.store is None:
            message = message.split("; its state was saved")[0] + " (nothing was saved: no --store)"
        else:
            message += f"; to continue: {setup.resume_command(exc.run_id)}"
        typer.echo(f"error: {' '.join(message.split())}", err=True)
        raise typer.Exit(1) from None


def _finish(result: RunResult, setup: Setup, *, as_json: bool) -> None:
    if as_json:
        emit_json(_outcome(result, saved=setup.store is not None))
    if result.status == "paused":
        _note_paused(result, setup)
        raise typer.Exit(PAUSED)
    raise typer.Exit(1 if result.status == "refused" else 0)


def _note_paused(result: RunResult, setup: Setup) -> None:
    waiting = ", ".join(p.approval_id for p in result.pending)
    if setup.store is None:
        note(
            f"run {result.run_id} is paused for approval ({waiting}), but nothing was saved: "
            "without --store it cannot be resumed; run it again with --store URL"
        )
        return
    note(
        f"run {result.run_id} is paused for approval ({waiting}); its state is in "
        f"{setup.store}. Decide with `callgate approvals approve|deny ID --store "
        f"{setup.store}`, or at the prompt of: {setup.resume_command(result.run_id)}"
    )


def _outcome(result: RunResult, *, saved: bool) -> dict[str, Any]:
    return {
        "run_id": result.run_id,
        "status": result.status,
        "answer": result.answer,
        "saved": saved,
        "steps": result.steps,
        "usage": {"input_tokens": result.usage.input_tokens, "output": result.usage.output_tokens},
        "cost": result.cost,
        "calls": [
            {"id": r.call.id, "tool": r.call.name, "route": r.route.value, "step": r.step}
            for r in result.calls
        ],
        "pending": [
            {"approval_id": p.approval_id, "tool": p.call.name, "reason": p.reason}
            for p in result.pending
        ],
    }


def run(
    prompt: Annotated[str, typer.Argument(metavar="PROMPT", help="What to ask the model.")],
    tools: ToolsOpt,
    model: ModelOpt,
    base_url: BaseUrlOpt = None,
    store: StoreOpt = None,
    create: CreateOpt = False,
    policy: PolicyOpt = None,
    max_steps: StepsOpt = 10,
    system: SystemOpt = None,
    text_mode: TextModeOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Run one prompt through the loop; calls, routes and results are shown as they happen.
    A call held for approval pauses the run (exit 3): with --store, decide it with
    `callgate approvals` and continue with `callgate resume RUN_ID`."""
    setup = Setup(
        tools=tools,
        model=model,
        base_url=base_url,
        store=store,
        create=create,
        policy=policy,
        steps=max_steps,
        system=system,
        text_mode=text_mode,
    )

    async def go() -> RunResult:
        async with _agent(setup, interactive=False) as agent:
            return await _drive(agent.stream(prompt), None if as_json else console())

    _finish(_run(go(), setup), setup, as_json=as_json)


def chat(
    tools: ToolsOpt,
    model: ModelOpt,
    base_url: BaseUrlOpt = None,
    store: StoreOpt = None,
    create: CreateOpt = False,
    policy: PolicyOpt = None,
    max_steps: StepsOpt = 10,
    system: SystemOpt = None,
    text_mode: TextModeOpt = False,
) -> None:
    """Talk to a model through the gate; approvals are asked here. Empty line or Ctrl-D ends."""
    setup = Setup(
        tools=tools,
        model=model,
        base_url=base_url,
        store=store,
        create=create,
        policy=policy,
        steps=max_steps,
        system=system,
        text_mode=text_mode,
    )
    out = console()

    async def go() -> None:
        async with _agent(setup, interactive=True) as agent:
            history: list[Message] = []
            while line := await asyncio.to_thread(_read_line):
                history.append(Message(role="user", text=line))
                try:
                    result = await _drive(agent.stream(history), out)
                except RunError as exc:
                    out.print(f"[red]{escape(str(exc))}[/]")
                    continue
                if result.status == "paused":
                    _note_paused(result, setup)
                history = list(result.transcript)

    _run(go(), setup)


def resume(
    run_id: Annotated[str, typer.Argument(metavar="RUN_ID", help="The paused run.")],
    tools: ToolsOpt,
    model: ModelOpt,
    store: StoreOpt = None,
    base_url: BaseUrlOpt = None,
    policy: PolicyOpt = None,
    max_steps: StepsOpt = 10,
    text_mode: TextModeOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Continue a paused run from the store: approvals still open are asked here (with
    --json, only decisions already in the store count), then the run goes on."""
    from callgate.cli._store_option import DEFAULT_STORE

    setup = Setup(
        tools=tools,
        model=model,
        base_url=base_url,
        store=store or DEFAULT_STORE,
        policy=policy,
        steps=max_steps,
        text_mode=text_mode,
    )

    with open_cli_store(setup.store) as opened:  # before a model is started for nothing
        _check_resumable(opened, run_id)

    async def go() -> RunResult:
        async with _agent(setup, interactive=not as_json) as agent:
            return await _drive(agent.resume_stream(run_id), None if as_json else console())

    _finish(_run(go(), setup), setup, as_json=as_json)


def _check_resumable(store: Store, run_id: str) -> None:
    record = store.runs.load(run_id)
    if record is None:
        raise UserError(f"no saved run {run_id!r} in this store (check the id and --store)")
    if record.state.get("status") == "finished":
        raise UserError(f"run {run_id!r} has finished; there is nothing to resume")


async def _ask_in_terminal(held: tuple[HeldCall, ...]) -> dict[str, ApprovalDecision]:
    """The held calls of one model step, asked in the terminal: one call as yes, no, edit
    (JSON arguments) or later; several listed together first, each with its reason (every
    value to check), then decided all at once or each in turn."""
    return await asyncio.to_thread(_ask_batch, held)


def _ask_batch(held: tuple[HeldCall, ...]) -> dict[str, ApprovalDecision]:
    if len(held) > 1:
        out = console()
        out.print(f"[yellow]{len(held)} calls of this step wait for approval:[/]")
        for number, h in enumerate(held, 1):
            out.print(f"  {number}. {_question(h.call, h.held)}")
        try:
            answer = Prompt.ask("approve", choices=["all", "none", "each", "later"], default="each")
        except EOFError:  # nobody at the terminal: the calls stay held
            return {}
        if answer == "later":
            return {}
        if answer == "all":
            return {h.call.id: Approve(by="terminal") for h in held}
        if answer == "none":
            note = _reason()
            if note is None:
                return {}
            return {h.call.id: Decline(by="terminal", note=note) for h in held}
    asked = ((h.call.id, _ask(h.call, h.held)) for h in held)
    return {call_id: decision for call_id, decision in asked if decision is not None}


def _question(call: ToolCall, held: ToolResult) -> str:
    name, shown, reason = _parts(call, held)
    return f"{name}({shown}) ({reason})"


def _parts(call: ToolCall, held: ToolResult) -> tuple[str, str, str]:
    """The call's name, arguments and reason, escaped for the terminal."""
    shown = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
    name, arguments, reason = (escape(visible(t)) for t in (call.name, shown, held.reason or ""))
    return name, arguments, reason


def _ask(call: ToolCall, held: ToolResult) -> ApprovalDecision | None:
    name, shown, reason = _parts(call, held)
    question = f"[yellow]approve {name}({shown})?[/] ({reason})"
    while True:
        try:
            answer = Prompt.ask(question, choices=["y", "n", "e", "later"], default="n")
        except EOFError:  # nobody at the terminal: the call stays held
            return None
        if answer == "y":
            return Approve(by="terminal")
        if answer == "n":
            note = _reason()
            return None if note is None else Decline(by="terminal", note=note)
        if answer == "later":
            return None
        edited = _ask_arguments()
        if edited is not None:
            return Edit(arguments=edited, by="terminal")


def _reason() -> str | None:
    """Why the person declines; None when the input ends first (the calls stay held)."""
    try:
        return Prompt.ask("reason", default="declined")
    except EOFError:
        return None


def _ask_arguments() -> dict[str, Any] | None:
    """Edited arguments as a JSON object; asked again until they are one (empty: back)."""
    while True:
        text = Prompt.ask("new arguments (a JSON object; empty to go back)", default="")
        if not text.strip():
            return None
        try:
            value = json.loads(text)
        except (ValueError, RecursionError) as exc:
            console().print(f"[red]not JSON ({escape(str(exc))}); try again[/]")
            continue
        if isinstance(value, dict):
            return value
        console().print('[red]the arguments must be a JSON object, e.g. {"amount": 5}[/]')


def _read_line() -> str:
    try:
        return input("you> ").strip()
    except EOFError:
        return ""
