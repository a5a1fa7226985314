"""Where a command's output goes: a terminal, a pipe or a file.

Output to a pipe or a file is never cut to a width: text is not wrapped and a table is
as wide as its widest row. Progress is shown on a terminal only, on stderr, and leaves no
trace. Files are written whole or not at all.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from callgate._errors import UserError

if TYPE_CHECKING:
    from callgate.lint._load import FileProgress

__all__ = ["console", "emit_json", "note", "print_table", "progress", "status", "write_file"]


def console(*, stderr: bool = False) -> Console:
    """A console on stdout (or stderr) that wraps nothing unless it is a terminal."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(file=stream, highlight=False, soft_wrap=not stream.isatty())


def print_table(out: Console, table: Table) -> None:
    """A table at the terminal's width, or at its own full width anywhere else."""
    if not out.is_terminal:
        unbounded = out.options.update(max_width=1_000_000)
        out.width = max(Measurement.get(out, unbounded, table).maximum, 20)
    out.print(table)


def emit_json(data: Any, output: Path | None = None) -> None:
    text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_file(output, text)


def note(message: str) -> None:
    """A remark on stderr that is not an error (what was skipped, where a state went)."""
    typer.echo(f"note: {' '.join(message.split())}", err=True)


def write_file(path: Path, text: str) -> None:
    """Write `text` to `path` atomically (a temporary file renamed over it). A symlink is
    followed, so the link stays and its target is written; a path that is not a regular
    file (`/dev/stdout`, a FIFO, `/dev/null`) is written in place, since renaming over it
    would replace the device with a file."""
    path = path.resolve() if path.is_symlink() else path
    if path.is_dir():
        raise UserError(f"cannot write {str(path)!r}: it is a folder; name a file")
    if path.exists() and not path.is_file():
        _write_in_place(path, text)
        return
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UserError(f"cannot write {str(path)!r}: the folder {str(parent)!r} does not exist")
    try:
        handle, temporary = tempfile.mkstemp(dir=parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise UserError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from exc


def _write_in_place(path: Path, text: str) -> None:
    try:
        with path.open("w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise UserError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from exc


@contextmanager
def progress(what: str) -> Iterator[FileProgress | None]:
    """A transient progress bar on a terminal's stderr, told (item, number, total);
    None when stderr is not a terminal, so that nothing is drawn into a log."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    bar = Progress(
        TextColumn(f"{what} [dim]{{task.fields[item]}}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=console(stderr=True),
        transient=True,
    )
    task = bar.add_task(what, total=None, item="")

    def advance(item: str, number: int, total: int) -> None:
        bar.update(task, completed=number - 1, total=total, item=os.path.basename(item))

    with bar:
        yield advance


@contextmanager
def status(text: str) -> Iterator[None]:
    """A spinner on a terminal's stderr while a long step runs; nothing elsewhere."""
    if not sys.stderr.isatty():
        yield
        return
    with console(stderr=True).status(text):
        yield
