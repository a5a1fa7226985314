"""`callgate approvals list|show|approve|deny`: decide held calls from a terminal.

A decision does not run the call: the host or the agent loop resumes it (`Gate.resume`,
`callgate resume RUN_ID`; a run on DBOS waiting for it reads it at its next poll, or at
once with `--wake-dbos`). Editing arguments needs the tool catalog, so it is done in
Python (`Gate.decide`) or at the prompt of `callgate chat` / `callgate resume`. The store
must already exist (`--store`, default ./callgate.db).
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import os
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from callgate._errors import UserError
from callgate._visible import visible
from callgate.cli._output import console, emit_json, print_table
from callgate.cli._store_option import StoreOpt, open_cli_store
from callgate.contract import Approve, Decline
from callgate.gate import Approvals
from callgate.store import Approval, Store

__all__ = ["group"]

group = typer.Typer(
    help="List and decide calls held for a human.", no_args_is_help=True, rich_markup_mode=None
)
IdArg = Annotated[str, typer.Argument(metavar="APPROVAL_ID", help="The approval's id.")]
IdsArg = Annotated[
    list[str],
    typer.Argument(
        metavar="APPROVAL_ID...",
        help="The approvals' ids (several decide a batch: all, or none if one is not pending).",
    ),
]

ByOpt = Annotated[
    str | None, typer.Option("--by", metavar="NAME", help="Who decides (default: $USER).")
]
NoteOpt = Annotated[
    str | None,
    typer.Option("--note", metavar="TEXT", help="Why; shown to the model on a decline."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
WakeOpt = Annotated[
    str | None,
    typer.Option(
        "--wake-dbos",
        metavar="URL",
        help="Then wake the DBOS workflow of the call's run at once (URL: DBOS's system "
        "database); without it the workflow sees the decision at its next poll.",
    ),
]


@group.command("list")
def list_(
    store: StoreOpt = None,
    all_: Annotated[
        bool, typer.Option("--all", help="Include decided and expired approvals.")
    ] = False,
    limit: Annotated[int, typer.Option(min=1, help="At most this many approvals.")] = 100,
    as_json: JsonOpt = False,
) -> None:
    """Pending approvals, oldest first."""
    with open_cli_store(store) as opened:
        found = Approvals(opened).list(pending_only=not all_, limit=limit)
    if as_json:
        emit_json([_plain(a) for a in found])
        return
    out = console()
    if not found:
        out.print("no approvals")
        return
    table = Table("state", "tool", "principal", "run", "reason", "expires")
    table.add_column("id", no_wrap=True)
    table.columns.insert(0, table.columns.pop())
    for column in table.columns:  # a narrow terminal folds a long host, never cuts it
        column.overflow = "fold"
    for a in found:
        cells = (a.id, a.state, a.tool_name, a.principal, a.run_id or "-", a.reason)
        table.add_row(*(escape(visible(cell)) for cell in cells), _when(a.expires_at))
    print_table(out, table)


@group.command()
def show(approval_id: IdArg, store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """One approval with its (redacted) arguments and decision."""
    with open_cli_store(store) as opened:
        approval = Approvals(opened).get(approval_id)
    data = _plain(approval)
    if as_json:
        emit_json(data)
        return
    for key, value in data.items():
        if key == "foreign_values":  # each whole on its own line, before the arguments
            if value:
                typer.echo(f"{key:>20}: " + f"\n{'':>22}".join(visible(v) for v in value))
        elif value is not None and value is not False:
            shown = json.dumps(value, ensure_ascii=False) if isinstance(value, dict) else value
            typer.echo(f"{key:>20}: {visible(str(shown))}")


@group.command()
def approve(
    approval_ids: IdsArg,
    store: StoreOpt = None,
    by: ByOpt = None,
    note: NoteOpt = None,
    grant: Annotated[
        bool, typer.Option("--grant", help="Also allow this tool for the rest of the run.")
    ] = False,
    wake_dbos: WakeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Approve held calls, each once (each runs when the host resumes it)."""
    decision = Approve(by=_who(by), note=note, grant=grant)
    for decided in _decide(store, approval_ids, lambda q, i: q.decide(i, decision)):
        extra = " and granted the tool for the rest of the run" if decided.grant else ""
        _said(decided, f"approved {decided.id} ({decided.tool_name}){extra}", wake_dbos, as_json)


@group.command()
def deny(
    approval_ids: IdsArg,
    store: StoreOpt = None,
    by: ByOpt = None,
    note: NoteOpt = None,
    wake_dbos: WakeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Decline held calls: the model is told not to retry and to ask the user."""
    decision = Decline(by=_who(by), note=note)
    for decided in _decide(store, approval_ids, lambda q, i: q.decide(i, decision)):
        _said(decided, f"declined {decided.id} ({decided.tool_name})", wake_dbos, as_json)


def _decide(
    url: str | None, ids: list[str], action: Callable[[Approvals, str], Approval]
) -> list[Approval]:
    """`action` on each of `ids`, once every one of them is found pending (a batch is
    decided whole or not at all: a typo does not leave half of it decided)."""
    opened: Store
    with open_cli_store(url) as opened:
        queue = Approvals(opened)
        unique = list(dict.fromkeys(ids))
        waiting = [a for a in (queue.get(i) for i in unique) if a.state != "pending"]
        if waiting and len(unique) > 1:
            listed = ", ".join(f"{a.id} is {a.state}" for a in waiting)
            raise UserError(f"nothing was decided: {visible(listed)}")
        return [action(queue, i) for i in unique]


def _said(decided: Approval, text: str, wake_dbos: str | None, as_json: bool) -> None:
    """Report a decision, once its DBOS workflow (if asked) is woken."""
    woken = None if wake_dbos is None else _wake(wake_dbos, decided)
    if as_json:
        emit_json(_plain(decided) | ({} if woken is None else {"woken": woken}))
        return
    if woken is not None:
        text += f"; woke {woken} workflow(s) of run {decided.run_id}"
    typer.echo(text)


def _wake(system_database: str, decided: Approval) -> int:
    if decided.run_id is None:
        raise UserError(f"{decided.id} was decided, but it belongs to no run: no workflow to wake")
    from callgate.durable import notify_approval  # DBOS only when asked for

    # DBOS logs its failures to the console; here the one line below says it instead.
    log = logging.getLogger("dbos")
    was, log.disabled = log.disabled, True
    try:
        return asyncio.run(
            notify_approval(decided.run_id, decided.id, system_database_url=system_database)
        )
    except Exception as exc:  # DBOS's database is not ours: any failure is one line
        # A database error's own words, without the SQL statement SQLAlchemy wraps it in.
        cause = getattr(exc, "orig", None) or exc
        why = str(cause) if isinstance(cause, UserError) else f"{type(cause).__name__}: {cause}"
        raise UserError(
            f"{decided.id} was decided, but its workflow was not woken ({why}); it sees the "
            "decision at its next poll"
        ) from exc
    finally:
        log.disabled = was


def _who(by: str | None) -> str:
    return by or os.environ.get("USER") or "cli"


def _when(ts: float | None) -> str:
    if ts is None:
        return "-"
    return datetime.datetime.fromtimestamp(ts, tz=datetime.UTC).strftime("%Y-%m-%d %H:%M:%SZ")


def _plain(a: Approval) -> dict[str, Any]:
    return {
        "id": a.id,
        "state": a.state,
        "tool": a.tool_name,
        "reason": a.reason,
        "foreign_values": list(a.foreign_values),
        "arguments": a.arguments,
        "principal": a.principal,
        "tenant": a.tenant,
        "run_id": a.run_id,
        "call_id": a.call_id,
        "rule_id": a.rule_id,
        "created": _when(a.created_at),
        "expires": _when(a.expires_at),
        "decided_by": a.decided_by,
        "decided": _when(a.decided_at) if a.decided_at else None,
        "note": a.note,
        "edited_arguments": a.edited_arguments,
        "grant": a.grant,
        "request_hash": a.request_hash,
    }
