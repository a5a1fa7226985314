"""Readable terminal output with rich: findings grouped by tool, then a summary."""

from __future__ import annotations

from itertools import groupby

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from callgate.lint._diff import DiffReport
from callgate.lint._finding import Finding, Severity
from callgate.lint._report import Report

__all__ = ["render_diff", "render_report"]

_STYLE = {
    Severity.CRITICAL: "bold red",
    Severity.HIGH: "red",
    Severity.MEDIUM: "yellow",
    Severity.LOW: "cyan",
    Severity.INFO: "dim",
}
_KIND_STYLE = {"breaking": "red", "review": "yellow", "compatible": "green"}


def render_report(
    report: Report, console: Console, *, show_suppressed: bool = False, explain: bool = False
) -> None:
    """Findings grouped by tool (`source › server › tool`), then counts per severity."""
    shown = [f for f in report.findings if show_suppressed or not f.suppressed]

    def owner(f: Finding) -> tuple[str, str, str]:
        return (f.location.source or "", f.location.group or "", f.location.tool)

    for (source, group, tool), items in groupby(shown, key=owner):
        head = " › ".join(p for p in (source, group, tool) if p)
        console.print(Text(head, style="bold"))
        for finding in items:
            _finding(console, finding, explain)
    _summary(console, report)


def _finding(console: Console, finding: Finding, explain: bool) -> None:
    style = _STYLE[finding.severity]
    label = f"[{style}]{finding.severity.label:<6}[/] [bold]{finding.rule}[/]"
    where = escape(finding.location.pointer or "/")
    muted = " [dim](suppressed)[/]" if finding.suppressed else ""
    console.print(f"  {label} {escape(finding.message)} [dim]at {where}[/]{muted}")
    if finding.evidence:
        console.print(f"         [dim]evidence:[/] {escape(repr(finding.evidence))}")
    if finding.decoded:
        console.print(f"         [dim]decoded:[/]  {escape(repr(finding.decoded[:300]))}")
    if finding.hint:
        console.print(f"         [dim]fix:[/]      {escape(finding.hint)}")
    if explain and finding.why:
        console.print(f"         [dim]why:[/]      {escape(finding.why)}")


def _summary(console: Console, report: Report) -> None:
    counts = report.by_severity()
    parts = [f"[{_STYLE[Severity.parse(k)]}]{v} {k}[/]" for k, v in counts.items() if v]
    tools = len({(f.location.source, f.location.group, f.location.tool) for f in report.active})
    suppressed = len(report.findings) - len(report.active)
    tail = f", {suppressed} suppressed" if suppressed else ""
    if not parts:
        console.print(f"[green]{report.command}: no findings in {report.tools} tools[/]{tail}")
        return
    console.print(f"{report.command}: {', '.join(parts)} in {tools} of {report.tools} tools{tail}")


def render_diff(report: DiffReport, console: Console) -> None:
    for change in report.changes:
        style = _KIND_STYLE[change.kind]
        where = escape(change.pointer) if change.pointer else ""
        console.print(
            f"[{style}]{change.kind:<10}[/] [bold]{escape(change.tool)}[/]"
            f"[dim]{where}[/] {escape(change.code)}: {escape(change.message)}"
        )
    counts = {
        k: sum(c.kind == k for c in report.changes) for k in ("breaking", "review", "compatible")
    }
    summary = ", ".join(f"[{_KIND_STYLE[k]}]{v} {k}[/]" for k, v in counts.items())
    console.print(f"diff {escape(report.old)} -> {escape(report.new)}: {summary}")
