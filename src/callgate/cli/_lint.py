"""`callgate lint | scan | diff | pin`: catalog quality from the command line.

Exit codes: 0 clean, 1 findings at or above `--fail-on` (breaking changes for `diff`,
changed pins for `scan --pins`), 2 the catalog or an option could not be read.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from callgate._errors import UserError
from callgate.lint import (
    Report,
    Severity,
    diff_catalogs,
    lint,
    load_catalog,
    merge_catalogs,
    pin_catalog,
    render_diff,
    render_report,
    scan,
    to_sarif,
)

__all__ = ["register"]


class Format(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"


Catalogs = Annotated[
    list[str],
    typer.Argument(
        help="JSON/JSON Lines files or folders of tool declarations (any dialect), or module:attr."
    ),
]
Select = Annotated[
    list[str] | None,
    typer.Option("--select", help="Only these rule ids or prefixes (repeatable, comma-separated)."),
]
Ignore = Annotated[
    list[str] | None,
    typer.Option("--ignore", help="Skip these rule ids or prefixes (repeatable, comma-separated)."),
]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]
Output = Annotated[Path | None, typer.Option("--output", "-o", help="Write here, not stdout.")]
FailOn = Annotated[
    str,
    typer.Option(
        "--fail-on",
        help="Exit 1 on a finding of this severity or above "
        "(info, low, medium, high, critical, never).",
    ),
]


def register(app: typer.Typer) -> None:
    app.command("lint")(lint_command)
    app.command("scan")(scan_command)
    app.command("diff")(diff_command)
    app.command("pin")(pin_command)


def lint_command(
    catalogs: Catalogs,
    select: Select = None,
    ignore: Ignore = None,
    format: FormatOpt = Format.text,
    output: Output = None,
    fail_on: FailOn = "high",
    explain: Annotated[bool, typer.Option(help="Say why each rule matters.")] = False,
) -> None:
    """Lint tool contracts: names, descriptions, parameters, catalog (rules N, D, P, C)."""
    with _errors():
        report = lint(_load(catalogs), select=select, ignore=ignore)
    _emit(report, format, output, explain=explain)
    raise typer.Exit(_exit_code(report, fail_on))


def scan_command(
    catalogs: Catalogs,
    select: Select = None,
    ignore: Ignore = None,
    format: FormatOpt = Format.text,
    output: Output = None,
    fail_on: FailOn = "high",
    pins: Annotated[
        Path | None,
        typer.Option(
            "--pins",
            help="Lockfile from `callgate pin`: also report new, removed and changed tools.",
        ),
    ] = None,
    trust_inline: Annotated[
        bool, typer.Option(help="Honour suppressions written inside the declarations themselves.")
    ] = False,
    explain: Annotated[bool, typer.Option(help="Say why each rule matters.")] = False,
) -> None:
    """Scan every string a model reads for poisoning (rules S; with --pins, rules X)."""
    with _errors():
        report = scan(
            _load(catalogs), select=select, ignore=ignore, pins=pins, trust_inline=trust_inline
        )
    _emit(report, format, output, explain=explain)
    raise typer.Exit(_exit_code(report, fail_on))


def diff_command(
    old: Annotated[str, typer.Argument(help="The catalog as it was.")],
    new: Annotated[str, typer.Argument(help="The catalog as it is now.")],
    format: FormatOpt = Format.text,
    output: Output = None,
) -> None:
    """Breaking, review and compatible changes between two catalog versions."""
    with _errors():
        report = diff_catalogs(_load([old]), _load([new]))
    if format is Format.text:
        with _console(output) as console:
            render_diff(report, console)
    else:
        _write(report.to_dict(), output)
    raise typer.Exit(0 if report.ok else 1)


def pin_command(
    catalogs: Catalogs,
    output: Annotated[Path, typer.Option("--output", "-o", help="Lockfile path.")] = Path(
        "callgate.lock.json"
    ),
) -> None:
    """Write a lockfile of tool fingerprints (check it with `callgate scan --pins`)."""
    with _errors():
        lockfile = pin_catalog(_load(catalogs))
        lockfile.dump(output)
    typer.echo(f"pinned {len(lockfile.pins)} tools to {output}")


def _load(catalogs: list[str]) -> Any:
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # `module:attr` resolves from where the user stands
    loaded = [load_catalog(c) for c in catalogs]
    return loaded[0] if len(loaded) == 1 else merge_catalogs(loaded)


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except (UserError, ValueError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _exit_code(report: Report, fail_on: str) -> int:
    if fail_on.lower() == "never":
        return 0
    with _errors():
        level = Severity.parse(fail_on)
    return 1 if report.fails(level) else 0


def _emit(report: Report, format: Format, output: Path | None, *, explain: bool) -> None:
    if format is Format.text:
        with _console(output) as console:
            render_report(report, console, explain=explain)
    else:
        from callgate import __version__

        _write(
            report.to_dict() if format is Format.json else to_sarif(report, version=__version__),
            output,
        )


def _write(data: dict[str, Any], output: Path | None) -> None:
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


@contextmanager
def _console(output: Path | None) -> Iterator[Console]:
    if output is None:
        yield Console(highlight=False, soft_wrap=True)
        return
    with output.open("w", encoding="utf-8") as handle:
        yield Console(file=handle, highlight=False, soft_wrap=True, no_color=True, width=120)
