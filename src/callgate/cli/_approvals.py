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
import time
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
from callgate.store import Approval, Store, StoreError

__all__ = ["group"]

group = typer.Typer(
    help="List and decide calls held for a human.", no_args_is_help=True, rich_markup_mode=None
)
IdArg = Annotated[str, typer.Argument(metavar="APPROVAL_ID", help="The approval's id.")]
IdsArg = Annotated[
    list[str],
    typer.Argument(
        metavar="APPROVAL_ID...",
        help="The approvals' ids (several decide a batch: none is decided unless every one "
        "passes the checks first).",
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
    decided = _decide(store, approval_ids, decision, grant=grant)
    lines = []
    for a in decided:
        extra = " and granted the tool for the rest of the run" if a.grant else ""
        lines.append(f"approved {a.id} ({a.tool_name}){extra}")
    _said(decided, lines, wake_dbos, as_json)


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
    decided = _decide(store, approval_ids, decision, grant=False)
    lines = [f"declined {a.id} ({a.tool_name})" for a in decided]
    _said(decided, lines, wake_dbos, as_json)


def _decide(
    url: str | None, ids: list[str], decision: Approve | Decline, *, grant: bool
) -> list[Approval]:
    """`decision` on every one of `ids` in one transaction, or on none: a typo, or an
    approval another process decided meanwhile, leaves no half of a batch decided. Every
    id is checked first, so a refusal names every id that would be refused."""
    opened: Store
    with open_cli_store(url) as opened:
        queue = Approvals(opened)
        unique = list(dict.fromkeys(ids))
        if len(unique) == 1:
            return [queue.decide(unique[0], decision)]
        found = [(i, opened.approvals.get(i)) for i in unique]
        refused = [why for why in (_refusal(i, a, grant) for i, a in found) if why]
        if refused:
            raise UserError(f"nothing was decided: {visible(', '.join(refused))}")
        try:
            return list(queue.decide_all(unique, decision))
        except (UserError, StoreError) as exc:
            raise UserError(f"nothing was decided: {visible(str(exc))}") from exc


def _refusal(approval_id: str, approval: Approval | None, grant: bool) -> str | None:
    """Why a decision on `approval` would be refused, or None."""
    if approval is None:
        return f"there is no approval {approval_id}"
    if approval.state != "pending":
        return f"{approval.id} is {approval.state}"
    if approval.expires_at is not None and approval.expires_at <= time.time():
        return f"{approval.id} is expired"
    if grant and approval.run_id is None:
        return f"{approval.id} belongs to no run (a grant needs one)"
    return None


def _said(decided: list[Approval], lines: list[str], wake_dbos: str | None, as_json: bool) -> None:
    """Report the decisions, once their DBOS workflows (if asked) are woken."""
    woken = [None if wake_dbos is None else _wake(wake_dbos, a) for a in decided]
    if as_json:
        emit_json(
            [
                _plain(a) | ({} if n is None else {"woken": n})
                for a, n in zip(decided, woken, strict=True)
            ]
        )
        return
    for a, text, n in zip(decided, lines, woken, strict=True):
        if n is not None:
            text += f"; woke {n} workflow(s) of run {a.run_id}"
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
