"""`callgate receipts list|show|verify`: read the hash-chained journal and check it.

These commands only read: the store must already exist (`--store`, default ./callgate.db).
"""

from __future__ import annotations

import dataclasses
import datetime
from typing import Annotated, Any

import typer
from rich.table import Table

from callgate.cli._output import console, emit_json, print_table
from callgate.cli._store_option import StoreOpt, open_cli_store
from callgate.contract import Route
from callgate.store import Receipt, ReceiptQuery

__all__ = ["group"]

group = typer.Typer(
    help="Read and verify the receipts of routed calls.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
_ROUTES = ", ".join(r.value for r in Route)


def _route(value: str | None) -> str | None:
    if value is not None and value not in {r.value for r in Route}:
        raise typer.BadParameter(f"{value!r} is not a route; one of {_ROUTES}")
    return value


@group.command("list")
def list_(
    store: StoreOpt = None,
    tool: Annotated[str | None, typer.Option(metavar="NAME", help="Only this tool.")] = None,
    run: Annotated[str | None, typer.Option(metavar="RUN_ID", help="Only this run.")] = None,
    route: Annotated[
        str | None,
        typer.Option(metavar="ROUTE", callback=_route, help=f"Only this route ({_ROUTES})."),
    ] = None,
    limit: Annotated[int, typer.Option(min=1, help="At most this many receipts.")] = 50,
    oldest_first: Annotated[
        bool, typer.Option("--oldest-first", help="Chain order from the start.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Receipts, newest first (or in chain order with --oldest-first)."""
    query = ReceiptQuery(tool_name=tool, run_id=run, route=Route(route) if route else None)
    with open_cli_store(store) as opened:
        found = opened.receipts.list(query, limit=limit, descending=not oldest_first)
    if as_json:
        emit_json([_plain(r) for r in found])
        return
    out = console()
    if not found:
        out.print("no receipts")
        return
    table = Table("seq", "recorded", "tool", "route", "rule", "principal", "approval", "key")
    for column in table.columns[:4]:
        column.no_wrap = True
    for r in found:
        table.add_row(
            str(r.seq),
            _when(r.recorded_at),
            r.tool_name,
            r.route.value + (" (replayed)" if r.replayed else ""),
            r.rule_id or "-",
            r.principal,
            r.approval_id or "-",
            r.idempotency_key or "-",
        )
    print_table(out, table)


@group.command()
def show(
    seq: Annotated[int, typer.Argument(metavar="SEQ", help="The receipt's number.")],
    store: StoreOpt = None,
) -> None:
    """One receipt with every field, as JSON (payloads only when they were stored)."""
    with open_cli_store(store) as opened:
        receipt = opened.receipts.get(seq)
    if receipt is None:
        typer.echo(f"error: no receipt #{seq} in this store", err=True)
        raise typer.Exit(1)
    emit_json(_plain(receipt))


AnchorOpt = Annotated[
    str | None,
    typer.Option(
        "--anchor",
        metavar="SEQ:HASH",
        help="A head published earlier (`callgate receipts head`); the chain must still hold it.",
    ),
]


@group.command()
def verify(store: StoreOpt = None, anchor: AnchorOpt = None, as_json: JsonOpt = False) -> None:
    """Recompute the chain; name the first receipt that was edited, deleted, moved or
    rewritten, and check it against an anchor kept elsewhere."""
    with open_cli_store(store) as opened:
        report = opened.receipts.verify(anchor=anchor)
        head = opened.receipts.head()
    if as_json:
        emit_json({**dataclasses.asdict(report), "head": dataclasses.asdict(head)})
    elif report.ok:
        held = " and holds the anchor" if report.anchored else ""
        typer.echo(
            f"ok: {report.checked} receipts, chain intact{held} (head {head.seq}:{head.hash})"
        )
    else:
        where = f" at receipt #{report.first_bad_seq}" if report.first_bad_seq else ""
        typer.echo(f"BROKEN{where}: {report.reason} ({report.checked} receipts checked)", err=True)
    raise typer.Exit(0 if report.ok else 1)


@group.command()
def head(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Print the chain's head as SEQ:HASH, to publish elsewhere and pass to
    `verify --anchor` later (a chain rewritten up to its head still fails there)."""
    with open_cli_store(store) as opened:
        last = opened.receipts.head()
    if as_json:
        emit_json(dataclasses.asdict(last))
    else:
        typer.echo(f"{last.seq}:{last.hash}")


def _when(ts: float) -> str:
    return datetime.datetime.fromtimestamp(ts, tz=datetime.UTC).strftime("%Y-%m-%d %H:%M:%SZ")


def _plain(receipt: Receipt) -> dict[str, Any]:
    data = dataclasses.asdict(receipt)
    data["route"] = receipt.route.value
    return data
