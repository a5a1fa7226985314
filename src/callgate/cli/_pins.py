"""`callgate pins list|show|approve|reject`: review the upstream tools the gateway pinned or
quarantined. A running gateway sees a decision within seconds and tells its clients."""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from callgate._errors import UserError
from callgate.cli._store_option import StoreOpt, open_cli_store

if TYPE_CHECKING:
    from callgate.store import Pin

__all__ = ["group"]

group = typer.Typer(
    help="Review pinned and quarantined upstream MCP tools.",
    no_args_is_help=True,
    rich_markup_mode=None,
    add_completion=False,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
ByOpt = Annotated[str | None, typer.Option("--by", help="Who decides (default: $USER).")]
ToolArg = Annotated[str, typer.Argument(help="SERVER/TOOL, as `callgate pins list` shows it.")]


@group.command("list")
def list_(
    store: StoreOpt = None,
    quarantined: Annotated[
        bool, typer.Option("--quarantined", help="Only tools waiting for a decision.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Every upstream tool the gateway has seen, with its state."""
    from callgate.mcp import PinBook

    with open_cli_store(store) as opened:
        reviews = PinBook(opened).reviews()
    if quarantined:
        reviews = [r for r in reviews if r.held]
    if as_json:
        typer.echo(json.dumps([_json(r) for r in reviews], ensure_ascii=False, indent=2))
        return
    if not reviews:
        typer.echo("no pinned tools")
        return
    for r in reviews:
        fingerprint = (r.observed_fingerprint if r.held else r.fingerprint) or ""
        why = f"  {r.reasons[0]}" if r.reasons else ""
        typer.echo(f"{r.state:<9} {_name(r)}  {fingerprint[:12]}{why}")


@group.command()
def show(tool: ToolArg, store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """One tool: why it is held, the diff against the pinned contract, scan findings."""
    from callgate.mcp import PinBook

    server, name = _split(tool)
    with open_cli_store(store) as opened:
        review = PinBook(opened).review(server, name)
    if review is None:
        _fail(f"no pin of {tool} (see `callgate pins list`)")
    if as_json:
        typer.echo(json.dumps(_json(review), ensure_ascii=False, indent=2))
        return
    typer.echo(f"{_name(review)}: {review.state}")
    for label, fingerprint in (
        ("pinned", review.fingerprint),
        ("observed", review.observed_fingerprint),
    ):
        if fingerprint:
            typer.echo(f"  {label} fingerprint: {fingerprint}")
    typer.echo(f"  updated: {_when(review.updated_at)}  decided by: {review.decided_by or '-'}")
    for reason in review.reasons:
        typer.echo(f"  reason: {reason}")
    for line in review.details:
        typer.echo(f"  change: {line}")
    for finding in review.findings:
        typer.echo(f"  finding: {_finding(finding)}")
    observed = review.observed if isinstance(review.observed, dict) else {}
    if review.held and observed:
        contract = observed.get("contract", {})
        typer.echo("  observed description:")
        typer.echo("    " + str(contract.get("description", "")).replace("\n", "\n    "))


@group.command()
def approve(
    tool: ToolArg,
    store: StoreOpt = None,
    by: ByOpt = None,
    fingerprint: Annotated[
        str | None,
        typer.Option(
            "--fingerprint", help="Approve only if the observed fingerprint starts with this."
        ),
    ] = None,
) -> None:
    """Pin the observed contract of a quarantined tool: the gateway offers it again."""
    from callgate._errors import UserError
    from callgate.mcp import PinBook

    server, name = _split(tool)
    with open_cli_store(store) as opened:
        try:
            pin = PinBook(opened).approve(server, name, by=_who(by), fingerprint=fingerprint)
        except UserError as exc:
            _fail(str(exc))
    typer.echo(f"approved {tool} (fingerprint {(pin.fingerprint or '')[:12]})")


@group.command()
def reject(tool: ToolArg, store: StoreOpt = None, by: ByOpt = None) -> None:
    """Keep a quarantined tool out until it changes again."""
    from callgate._errors import UserError
    from callgate.mcp import PinBook

    server, name = _split(tool)
    with open_cli_store(store) as opened:
        try:
            PinBook(opened).reject(server, name, by=_who(by))
        except UserError as exc:
            _fail(str(exc))
    typer.echo(f"rejected {tool}")


def _name(pin: Pin) -> str:
    return f"{pin.source.removeprefix('mcp:')}/{pin.tool_name}"


def _json(pin: Pin) -> dict[str, Any]:
    server, _, tool = _name(pin).partition("/")
    return {"server": server, "tool": tool, **dataclasses.asdict(pin)}


def _split(tool: str) -> tuple[str, str]:
    server, sep, name = tool.partition("/")
    if not sep or not server or not name:
        _fail(f"{tool!r}: write SERVER/TOOL")
    return server, name


def _finding(finding: Any) -> str:
    where = f" at {finding.get('where')}" if finding.get("where") else ""
    return f"{finding.get('rule')} {finding.get('severity')}{where}: {finding.get('message')}"


def _who(by: str | None) -> str:
    return by or os.environ.get("USER") or "cli"


def _when(ts: float) -> str:
    if not ts:
        return "-"
    return datetime.datetime.fromtimestamp(ts, tz=datetime.UTC).strftime("%Y-%m-%d %H:%M:%SZ")


def _fail(message: str) -> NoReturn:
    """An input error: one line, exit 2 (`cli/_errors.py`)."""
    raise UserError(message)
