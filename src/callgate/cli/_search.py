"""`callgate search "query" --catalog CATALOG [-k 8]`: the tools a query finds, with scores.

Exit codes: 0 something was found, 1 nothing matched, 2 the catalog or an option could
not be read (or an extra is missing).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from callgate._errors import UserError
from callgate.contract import Tool

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    app.command("search")(search_command)


def search_command(
    query: Annotated[str, typer.Argument(help="What the tool should do, in words.")],
    catalog: Annotated[
        str,
        typer.Option(
            "--catalog",
            "-c",
            help="A JSON / JSON Lines file or folder of tool declarations "
            "(any dialect, BFCL included), or module:attr.",
        ),
    ],
    k: Annotated[int, typer.Option("-k", min=1, help="How many tools to show.")] = 8,
    dense: Annotated[
        bool,
        typer.Option("--dense", help="Also rank by embeddings (needs the 'embeddings' extra)."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON, not a table.")] = False,
) -> None:
    """Search a catalog: the best tools for QUERY, best first, with their scores."""
    from callgate.retrieval import MiniLMEmbedder, ToolIndex

    try:
        tools, skipped = _load(catalog)
        index = ToolIndex(tools, embedder=MiniLMEmbedder() if dense else None)
        hits = index.search(query, k)
    except (UserError, ValueError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if skipped:
        typer.echo(
            f"note: {skipped} declarations skipped (invalid, or a name seen before)", err=True
        )
    rows: list[dict[str, Any]] = [
        {
            "rank": i,
            "name": h.tool.name,
            "score": round(h.score, 4),
            "bm25": None if h.lexical_score is None else round(h.lexical_score, 3),
            "cosine": None if h.dense_score is None else round(h.dense_score, 3),
            "description": h.tool.description,
        }
        for i, h in enumerate(hits, start=1)
    ]
    if as_json:
        typer.echo(
            json.dumps(
                {"query": query, "tools": len(tools), "hits": rows}, ensure_ascii=False, indent=2
            )
        )
    else:
        _table(rows, query, len(tools), dense)
    raise typer.Exit(0 if hits else 1)


def _load(spec: str) -> tuple[list[Tool], int]:
    """Tools of the catalog, the first of each name; and how many declarations were skipped."""
    from callgate.lint import load_catalog

    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # `module:attr` resolves from where the user stands
    entries = list(load_catalog(spec))
    tools: dict[str, Tool] = {}
    for entry in entries:
        if entry.tool is not None:
            tools.setdefault(entry.tool.name, entry.tool)
    return list(tools.values()), len(entries) - len(tools)


def _table(rows: list[dict[str, Any]], query: str, size: int, dense: bool) -> None:
    console = Console(highlight=False)
    if not rows:
        console.print(f"No tool among {size} matches {query!r}.")
        return
    table = Table(title=f"{query!r} in {size} tools", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("tool", overflow="fold")
    table.add_column("score", justify="right")
    table.add_column("bm25", justify="right")
    if dense:
        table.add_column("cosine", justify="right")
    table.add_column("description", overflow="fold", max_width=60)
    for row in rows:
        cells = [
            str(row["rank"]),
            str(row["name"]),
            f"{row['score']:.4f}",
            "" if row["bm25"] is None else f"{row['bm25']:.2f}",
        ]
        if dense:
            cells.append("" if row["cosine"] is None else f"{row['cosine']:.3f}")
        description = str(row["description"])
        cells.append(description if len(description) <= 120 else description[:119] + "…")
        table.add_row(*cells)
    console.print(table)
