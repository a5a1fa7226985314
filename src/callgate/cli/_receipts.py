"""`callgate receipts list|show|verify`: read the hash-chained journal and check it."""

from __future__ import annotations

import dataclasses
import datetime
import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from callgate.cli._store_option import StoreOpt, open_cli_store
from callgate.contract import Route
from callgate.store import Receipt, ReceiptQuery

__all__ = ["register"]

group = typer.Typer(help="Read and verify the receipts of routed calls.", no_args_is_help=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


def register(app: typer.Typer) -> None:
    app.add_typer(group, name="receipts")


@group.command("list")
def list_(
    store: StoreOpt = None,
    tool: Annotated[str | None, typer.Option(help="Only this tool.")] = None,
    run: Annotated[str | None, typer.Option(help="Only this run id.")] = None,
    route: Annotated[str | None, typer.Option(help="Only this route.")] = None,
    limit: int = 50,
    newest_first: bool = True,
    as_json: JsonOpt = False,
) -> None:
    """Receipts in chain order (newest first by default)."""
    query = ReceiptQuery(tool_name=tool, run_id=run, route=Route(route) if route else None)
    with open_cli_store(store) as opened:
        found = opened.receipts.list(query, limit=limit, descending=newest_first)
    if as_json:
        typer.echo(json.dumps([_plain(r) for r in found], ensure_ascii=False, indent=2))
        return
    table = Table("seq", "recorded", "tool", "route", "rule", "principal", "approval", "key")
    for column in table.columns[:4]:
        column.no_wrap = True
    for r in found:
        route_text = r.route.value + (" (replayed)" if r.replayed else "")
        table.add_row(
            str(r.seq),
            _when(r.recorded_at),
            r.tool_name,
            route_text,
            r.rule_id or "-",
            r.principal,
            r.approval_id or "-",
            r.idempotency_key or "-",
        )
    Console().print(table if found else "no receipts")


@group.command()
def show(seq: int, store: StoreOpt = None) -> None:
    """One receipt with every field (payloads only when they were stored)."""
    with open_cli_store(store) as opened:
        receipt = opened.receipts.get(seq)
    if receipt is None:
        typer.echo(f"error: no receipt #{seq}", err=True)
        raise typer.Exit(1)
    typer.echo(json.dumps(_plain(receipt), ensure_ascii=False, indent=2))


@group.command()
def verify(store: StoreOpt = None) -> None:
    """Recompute the chain; name the first receipt that was edited, deleted or moved."""
    with open_cli_store(store) as opened:
        report = opened.receipts.verify()
        head = opened.receipts.head()
    if report.ok:
        typer.echo(
            f"ok: {report.checked} receipts, chain intact (head #{head.seq} {head.hash[:16]})"
        )
        return
    typer.echo(
        f"BROKEN at receipt #{report.first_bad_seq}: {report.reason} "
        f"({report.checked} receipts checked)",
        err=True,
    )
    raise typer.Exit(1)


def _when(ts: float) -> str:
    return datetime.datetime.fromtimestamp(ts, tz=datetime.UTC).strftime("%Y-%m-%d %H:%M:%SZ")


def _plain(receipt: Receipt) -> dict[str, Any]:
    data = dataclasses.asdict(receipt)
    data["route"] = receipt.route.value
    return data
