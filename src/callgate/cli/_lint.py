"""`callgate lint | scan | diff | pin`: catalog quality from the command line.

Exit codes: 0 clean, 1 findings at or above `--fail-on` (breaking changes for `diff`,
changed pins for `scan --pins`), 2 a catalog, lockfile or option could not be used.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Console

from callgate._errors import UserError
from callgate.cli._catalogs import load_catalogs, skipped_json
from callgate.cli._output import console, emit_json, status, write_file
from callgate.lint import (
    LoadedCatalog,
    Lockfile,
    Report,
    Severity,
    diff_catalogs,
    lint,
    pin_catalog,
    render_diff,
    render_report,
    scan,
    to_sarif,
)

__all__ = ["diff_command", "lint_command", "pin_command", "scan_command"]

T = TypeVar("T")


class Format(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"


def _severity(value: str) -> str:
    if value.lower() != "never":
        try:
            Severity.parse(value)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
    return value


Catalogs = Annotated[
    list[str],
    typer.Argument(
        metavar="CATALOG",
        help="JSON / JSON Lines files or folders (read at any depth) of tool declarations "
        "in any dialect, or module:attr.",
    ),
]
Select = Annotated[
    list[str] | None,
    typer.Option(
        "--select",
        metavar="RULES",
        help="Only these rule ids or prefixes (repeatable, comma-separated).",
    ),
]
Ignore = Annotated[
    list[str] | None,
    typer.Option(
        "--ignore",
        metavar="RULES",
        help="Skip these rule ids or prefixes (repeatable, comma-separated).",
    ),
]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Same as --format json.")]
Output = Annotated[
    Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write here, not stdout.")
]
FailOn = Annotated[
    str,
    typer.Option(
        "--fail-on",
        metavar="SEVERITY",
        callback=_severity,
        help="Exit 1 on a finding of this severity or above "
        "(info, low, medium, high, critical, never).",
    ),
]
Explain = Annotated[bool, typer.Option("--explain", help="Say why each rule matters.")]


def lint_command(
    catalogs: Catalogs,
    select: Select = None,
    ignore: Ignore = None,
    format: FormatOpt = Format.text,
    as_json: JsonOpt = False,
    output: Output = None,
    fail_on: FailOn = "high",
    explain: Explain = False,
) -> None:
    """Lint tool contracts: names, descriptions, parameters, catalog (rules N, D, P, C)."""
    catalog = load_catalogs(catalogs)
    with status(f"linting {len(catalog)} tools"):
        report = _checked(lambda: lint(catalog, select=select, ignore=ignore))
    _emit(report, catalog, _format(format, as_json), output, explain=explain)
    raise typer.Exit(_exit_code(report, fail_on))


def scan_command(
    catalogs: Catalogs,
    select: Select = None,
    ignore: Ignore = None,
    format: FormatOpt = Format.text,
    as_json: JsonOpt = False,
    output: Output = None,
    fail_on: FailOn = "high",
    pins: Annotated[
        Path | None,
        typer.Option(
            "--pins",
            metavar="LOCKFILE",
            help="Lockfile from `callgate pin`: also report new, removed and changed tools.",
        ),
    ] = None,
    trust_inline: Annotated[
        bool,
        typer.Option("--trust-inline", help="Honour suppressions written inside the declarations."),
    ] = False,
    explain: Explain = False,
) -> None:
    """Scan every string a model reads for poisoning (rules S; with --pins, rules X)."""
    lockfile = None if pins is None else Lockfile.load(pins)
    catalog = load_catalogs(catalogs)
    with status(f"scanning {len(catalog)} tools"):
        report = _checked(
            lambda: scan(
                catalog, select=select, ignore=ignore, pins=lockfile, trust_inline=trust_inline
            )
        )
    _emit(report, catalog, _format(format, as_json), output, explain=explain)
    raise typer.Exit(_exit_code(report, fail_on))


def diff_command(
    old: Annotated[str, typer.Argument(metavar="OLD", help="The catalog as it was.")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The catalog as it is now.")],
    format: Annotated[
        Format, typer.Option("--format", "-f", help="Output format (text or json).")
    ] = Format.text,
    as_json: JsonOpt = False,
    output: Output = None,
) -> None:
    """Breaking, review and compatible changes between two catalog versions."""
    chosen = _format(format, as_json)
    if chosen is Format.sarif:
        raise typer.BadParameter("diff writes text or json", param_hint="--format")
    before, after = load_catalogs([old]), load_catalogs([new])
    report = diff_catalogs(before, after)
    if chosen is Format.text:
        with _console(output) as out:
            render_diff(report, out)
    else:
        emit_json({**report.to_dict(), "skipped": skipped_json(before, after)}, output)
    raise typer.Exit(0 if report.ok else 1)


def pin_command(
    catalogs: Catalogs,
    output: Annotated[
        Path, typer.Option("--output", "-o", metavar="FILE", help="Lockfile path.")
    ] = Path("callgate.lock.json"),
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Write a lockfile of tool fingerprints (check it with `callgate scan --pins`)."""
    catalog = load_catalogs(catalogs)
    lockfile = pin_catalog(catalog)
    text = json.dumps(lockfile.to_dict(), indent=2, sort_keys=True, ensure_ascii=False)
    write_file(output, text + "\n")
    if as_json:
        pinned = {"pinned": len(lockfile.pins), "lockfile": str(output)}
        emit_json({**pinned, "skipped": skipped_json(catalog)})
    else:
        typer.echo(f"pinned {len(lockfile.pins)} tools to {output}")


def _checked(work: Callable[[], T]) -> T:
    """The lint engine says a selector or option is wrong with `ValueError`."""
    try:
        return work()
    except ValueError as exc:
        raise UserError(str(exc)) from exc


def _format(format: Format, as_json: bool) -> Format:
    if as_json and format not in (Format.text, Format.json):
        raise typer.BadParameter("--json and --format sarif exclude each other")
    return Format.json if as_json else format


def _exit_code(report: Report, fail_on: str) -> int:
    if fail_on.lower() == "never":
        return 0
    return 1 if report.fails(Severity.parse(fail_on)) else 0


def _emit(
    report: Report, catalog: LoadedCatalog, format: Format, output: Path | None, *, explain: bool
) -> None:
    if format is Format.text:
        with _console(output) as out:
            render_report(report, out, explain=explain)
    elif format is Format.json:
        emit_json({**report.to_dict(), "skipped": skipped_json(catalog)}, output)
    else:
        from callgate import __version__

        emit_json(to_sarif(report, version=__version__), output)


@contextmanager
def _console(output: Path | None) -> Iterator[Console]:
    if output is None:
        yield console()
        return
    buffer = io.StringIO()
    yield Console(file=buffer, highlight=False, soft_wrap=True, no_color=True, width=120)
    write_file(output, buffer.getvalue())
