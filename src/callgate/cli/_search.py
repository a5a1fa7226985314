"""`callgate search "query" --catalog CATALOG [-k 8]`: the tools a query finds, best first.

What is printed is what the index returns: the rank, and the scores it really computed
(BM25 of the tool's card for the whole query; cosine similarity with `--dense`). The
fused score the ranking is made from is a reciprocal-rank sum, meaningful only as an
order, so it is not shown as a score.

Exit codes: 0 something was found, 1 nothing matched, 2 the catalog or an option could
not be used (or an extra is missing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from callgate._errors import UserError
from callgate.cli._catalogs import load_catalogs, skipped_json
from callgate.cli._output import console, emit_json, note, print_table, status
from callgate.contract import Tool

__all__ = ["search_command"]


def search_command(
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What the tool should do.")],
    catalog: Annotated[
        str,
        typer.Option(
            "--catalog",
            "-c",
            metavar="CATALOG",
            help="A JSON / JSON Lines file or folder of tool declarations "
            "(any dialect, BFCL included), or module:attr.",
        ),
    ],
    k: Annotated[int, typer.Option("-k", min=1, help="How many tools to show.")] = 8,
    dense: Annotated[
        bool,
        typer.Option(
            "--dense", help="Also rank by a multilingual embedding (needs the 'dense' extra)."
        ),
    ] = False,
    cache: Annotated[
        Path | None,
        typer.Option(
            "--cache",
            metavar="FOLDER",
            help="Keep the index (and its embeddings) here; reused while the catalog stays "
            "the same.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON, not a table.")] = False,
) -> None:
    """Search a catalog: the best tools for QUERY, best first."""
    from callgate.retrieval import ToolIndex, USEEmbedder

    if cache is not None and cache.exists() and not cache.is_dir():
        raise UserError(f"--cache {str(cache)!r} is not a folder; name a folder for the index")
    loaded = load_catalogs([catalog])
    tools = _first_of_each_name([e.tool for e in loaded.entries if e.tool is not None])
    skipped = len(loaded.entries) - len(tools)
    if skipped:
        note(f"{skipped} declarations skipped (unreadable, or a name seen before)")
    with status(f"indexing {len(tools)} tools"):
        index = ToolIndex(tools, embedder=USEEmbedder() if dense else None, cache=cache)
        hits = index.search(query, k)
        if cache is not None:
            index.save()
    rows: list[dict[str, Any]] = [
        {
            "rank": rank,
            "name": h.tool.name,
            "bm25": h.lexical_score,
            "cosine": h.dense_score,
            "description": h.tool.description,
        }
        for rank, h in enumerate(hits, start=1)
    ]
    if as_json:
        emit_json(
            {"query": query, "tools": len(tools), "hits": rows, "skipped": skipped_json(loaded)}
        )
    else:
        _table(rows, query, len(tools), dense)
    raise typer.Exit(0 if hits else 1)


def _first_of_each_name(tools: list[Tool]) -> list[Tool]:
    first: dict[str, Tool] = {}
    for tool in tools:
        first.setdefault(tool.name, tool)
    return list(first.values())


def _table(rows: list[dict[str, Any]], query: str, size: int, dense: bool) -> None:
    out = console()
    if not rows:
        out.print(f"No tool among {size} matches {query!r}.")
        return
    table = Table(title=f"{query!r} in {size} tools", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("tool", overflow="fold")
    table.add_column("bm25", justify="right")
    if dense:
        table.add_column("cosine", justify="right")
    table.add_column("description", overflow="fold", max_width=60)
    for row in rows:
        cells = [str(row["rank"]), str(row["name"]), _number(row["bm25"], 2)]
        if dense:
            cells.append(_number(row["cosine"], 3))
        description = str(row["description"])
        if out.is_terminal and len(description) > 120:  # a pipe gets the whole text
            description = description[:119] + "…"
        cells.append(description)
        table.add_row(*cells)
    print_table(out, table)


def _number(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"
