"""The `callgate` command: an explicit list of commands, each imported only when it runs.

`callgate --help` reads the list below and imports no command module; `callgate lint`
imports the lint command and what it needs, nothing else. Every error a command raises
ends here as one line on stderr (`_errors.report`), never as a traceback unless asked for.
"""

from __future__ import annotations

import atexit
import gc
import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

if TYPE_CHECKING:  # typer's own click, whose types its group methods take
    from typer._click import Context, HelpFormatter

__all__ = ["COMMANDS", "EXIT_CODES", "CommandSpec", "app", "run"]

EXIT_CODES = (
    ("0", "ok"),
    ("1", "findings at or above --fail-on, a failed check, or a run that failed"),
    ("2", "usage or input error: a file, folder, URL or option that cannot be used"),
    ("3", "a run paused for approval (decide it, then `callgate resume RUN_ID`)"),
)
"""The exit codes of every command, as `callgate --help` lists them."""


@dataclass(frozen=True, kw_only=True, slots=True)
class CommandSpec:
    """One command: where it lives and the line `callgate --help` shows for it."""

    name: str
    target: str
    """`module:attribute`, a `typer.Typer` (a group) or a command function."""
    help: str
    collected: bool = True
    """False for a command that builds what lives to its end and next to no reference
    cycles (a 1,000-tool scan leaves about 600 objects of garbage): the cyclic collector
    stays off while it runs, as it is while the command starts."""


COMMANDS = (
    CommandSpec(
        name="demo",
        target="callgate.cli._demo:demo",
        help="A narrated run of every route of a call: no API key, no network.",
    ),
    CommandSpec(
        name="lint",
        target="callgate.cli._lint:lint_command",
        help="Lint tool contracts: names, descriptions, parameters, catalog.",
        collected=False,
    ),
    CommandSpec(
        name="scan",
        target="callgate.cli._lint:scan_command",
        help="Scan every string a model reads for poisoning.",
        collected=False,
    ),
    CommandSpec(
        name="diff",
        target="callgate.cli._lint:diff_command",
        help="Breaking, review and compatible changes between two catalogs.",
    ),
    CommandSpec(
        name="pin",
        target="callgate.cli._lint:pin_command",
        help="Write a lockfile of tool fingerprints.",
    ),
    CommandSpec(
        name="search",
        target="callgate.cli._search:search_command",
        help="The tools of a catalog that fit a query, best first.",
    ),
    CommandSpec(
        name="run",
        target="callgate.cli._run:run",
        help="Run one prompt through the agent loop and the gate.",
    ),
    CommandSpec(
        name="chat",
        target="callgate.cli._run:chat",
        help="Talk to a model through the gate; approvals are asked here.",
    ),
    CommandSpec(
        name="resume",
        target="callgate.cli._run:resume",
        help="Continue a paused run from the store.",
    ),
    CommandSpec(
        name="approvals",
        target="callgate.cli._approvals:group",
        help="List and decide calls held for a human.",
    ),
    CommandSpec(
        name="receipts",
        target="callgate.cli._receipts:group",
        help="Read and verify the receipts of routed calls.",
    ),
    CommandSpec(
        name="serve",
        target="callgate.cli._serve:serve",
        help="An MCP gateway: your MCP servers and tools behind the gate.",
    ),
    CommandSpec(
        name="ui",
        target="callgate.cli._ui:ui",
        help="The approvals inbox and receipts journal in a browser.",
    ),
    CommandSpec(
        name="pins",
        target="callgate.cli._pins:group",
        help="Review pinned and quarantined upstream MCP tools.",
    ),
    CommandSpec(
        name="version", target="callgate.cli._app:version", help="Print the installed version."
    ),
)
_BY_NAME = {spec.name: spec for spec in COMMANDS}


class _Commands(TyperGroup):
    """Resolves a command from `COMMANDS` when it is invoked, and reports its errors."""

    def list_commands(self, ctx: Context) -> list[str]:
        return [spec.name for spec in COMMANDS]

    def get_command(self, ctx: Context, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in _BY_NAME:
            command = load_command(_BY_NAME[cmd_name])
            self.commands[cmd_name] = command
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(spec.name, spec.help) for spec in COMMANDS])

    def format_epilog(self, ctx: Context, formatter: HelpFormatter) -> None:
        with formatter.section("Exit codes"):
            formatter.write_dl(list(EXIT_CODES))

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise
        except Exception as exc:
            from callgate.cli._errors import report

            if ctx.params.get("debug"):
                raise
            raise typer.Exit(report(exc)) from None


def load_command(spec: CommandSpec) -> Any:
    """The click command of `spec`: its module is imported now, not before."""
    module_name, _, attribute = spec.target.partition(":")
    target = getattr(importlib.import_module(module_name), attribute)
    # What a command imports lives as long as the process: moved out of the collector's
    # generations, it is not walked again by every collection the command's work sets off
    # (a 1,000-tool scan spent about 0.17 s in collections, 0.04 s once frozen).
    gc.freeze()
    if spec.collected:
        gc.enable()
    if not isinstance(target, typer.Typer):
        single = typer.Typer(rich_markup_mode=None, add_completion=False)
        single.command(spec.name)(target)
        target = single
    command = typer.main.get_command(target)
    command.name = spec.name
    return command


app = typer.Typer(
    name="callgate",
    help="Validate, authorize, approve, execute once, verify and record tool calls.",
    cls=_Commands,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def _root(
    debug: Annotated[
        bool,
        typer.Option(
            "--debug",
            envvar="CALLGATE_DEBUG",
            help="Show the traceback of an error (also CALLGATE_DEBUG=1).",
        ),
    ] = False,
) -> None:
    """callgate: the host side of tool calling."""


def version() -> None:
    """Print the installed version."""
    from callgate import __version__

    typer.echo(__version__)


def run() -> None:
    """The command line (`callgate.cli.main`)."""
    # Starting a command (resolving it, importing its module and what typer needs to read
    # its options) builds only what lives to the process's end: the collector is off
    # until the command is loaded (`load_command`), and for a command that builds little
    # garbage (`CommandSpec.collected`) after that too. A command that collects allocates
    # in bursts that live to its end: collecting the youngest objects every 10,000
    # allocations rather than every 700 spares it most of its collections.
    gc.disable()
    gc.set_threshold(10_000, 10, 10)
    try:
        app()
    finally:
        # The process ends soon: its last collections would walk every object the command
        # left (a 1,000-tool scan's caches, about 0.2 s), only for the OS to free the
        # memory anyway. Frozen at exit (the first atexit handler to run, being the last
        # registered), they are skipped, while an in-process caller of `main()` keeps a
        # collectable heap until then.
        atexit.unregister(gc.freeze)  # once, however often main() runs in a process
        atexit.register(gc.freeze)
