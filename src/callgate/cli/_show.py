"""Print a run's events as they happen (rich): text, calls, routes, results."""

from __future__ import annotations

import json

from rich.console import Console
from rich.markup import escape

from callgate.contract import Route
from callgate.loop import (
    CallProposed,
    CallRouted,
    Event,
    ResultReady,
    RunEnded,
    RunResult,
    StepFinished,
    TextStreamed,
)

__all__ = ["ROUTE_STYLE", "EventPrinter", "summary"]

ROUTE_STYLE = {
    Route.COMPLETED: "green",
    Route.VERIFIED: "bold green",
    Route.HELD: "yellow",
    Route.DECLINED: "magenta",
    Route.DENIED: "red",
    Route.INVALID: "red",
    Route.FAILED: "red",
    Route.TIMEOUT: "red",
    Route.UNKNOWN_OUTCOME: "bold red",
    Route.CONFLICT: "red",
}


class EventPrinter:
    """Keeps the little state needed to print a stream of events readably."""

    def __init__(self, console: Console, *, max_result: int = 160) -> None:
        self.console = console
        self.max_result = max_result
        self._in_text = False
        self._streamed = ""
        """The text streamed since the model last proposed calls: the answer, at the end."""

    def __call__(self, event: Event) -> None:
        if isinstance(event, TextStreamed):
            self.console.print(escape(event.text), end="", style="cyan", highlight=False)
            self._in_text = True
            self._streamed += event.text
            return
        if self._in_text:
            self.console.print()
            self._in_text = False
        if isinstance(event, CallProposed):
            self._streamed = ""
            self.console.print(
                f"  [dim]model proposes[/] {escape(event.name)} [dim]({escape(event.id)})[/]"
            )
        elif isinstance(event, CallRouted):
            style = ROUTE_STYLE.get(event.route, "white")
            args = event.call.arguments
            shown = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
            self.console.print(
                f"  [{style}]{event.route.value:>15}[/] "
                f"{escape(event.call.name)}({escape(str(shown))})"
            )
        elif isinstance(event, ResultReady):
            text = event.result.content.replace("\n", " ")
            if len(text) > self.max_result:
                text = text[: self.max_result] + "…"
            self.console.print(f"  {'':>15} [dim]→ {escape(text)}[/]")
        elif isinstance(event, StepFinished):
            self.console.print(f"  [dim]step {event.step} done, {event.calls} call(s)[/]")
        elif isinstance(event, RunEnded):
            answer = event.result.answer
            streamed = answer is not None and answer.strip() == self._streamed.strip()
            summary(self.console, event.result, answer_shown=streamed)
            self._streamed = ""


def summary(console: Console, result: RunResult, *, answer_shown: bool = False) -> None:
    """The end of a run: answer (unless it was streamed already, or what it waits for),
    steps, tokens, cost."""
    if result.answer and not answer_shown:
        console.print(f"[bold]answer:[/] {escape(result.answer)}")
    for pending in result.pending:
        console.print(
            f"[yellow]waiting for approval {pending.approval_id}[/]: "
            f"{escape(pending.call.name)} ({escape(pending.reason or '')})"
        )
    u = result.usage
    console.print(
        f"[dim]{result.status} after {result.steps} step(s), "
        f"{u.input_tokens}+{u.output_tokens} tokens, cost {result.cost:.4f}, "
        f"run {result.run_id}[/]"
    )
