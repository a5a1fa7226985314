"""A lint or scan run's result: findings, counts, and whether it fails a CI threshold."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, Location, Severity
from callgate.lint._text import printable

__all__ = ["Report", "finish"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Report:
    """Findings of one `lint` or `scan` run, sorted by source, tool and place."""

    command: Literal["lint", "scan"]
    source: str
    tools: int
    """Number of tool declarations read."""
    findings: tuple[Finding, ...]
    """All findings, suppressed ones included (flagged `suppressed`)."""

    @property
    def active(self) -> tuple[Finding, ...]:
        """Findings not covered by an inline suppression."""
        return tuple(f for f in self.findings if not f.suppressed)

    def at_least(self, severity: Severity | str) -> tuple[Finding, ...]:
        level = Severity.parse(severity)
        return tuple(f for f in self.active if f.severity >= level)

    def fails(self, fail_on: Severity | str) -> bool:
        """True when any active finding is at or above `fail_on` (the CI exit code)."""
        return bool(self.at_least(fail_on))

    def by_rule(self) -> dict[str, int]:
        return dict(sorted(Counter(f.rule for f in self.active).items()))

    def by_severity(self) -> dict[str, int]:
        counts = Counter(f.severity for f in self.active)
        return {s.label: counts.get(s, 0) for s in sorted(Severity, reverse=True)}

    def tools_with(self, severity: Severity | str) -> set[tuple[str | None, str | None, str]]:
        """(source, group, tool) of every tool with an active finding at or above."""
        return {
            (f.location.source, f.location.group, f.location.tool) for f in self.at_least(severity)
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "source": self.source,
            "tools": self.tools,
            "summary": {
                "by_severity": self.by_severity(),
                "by_rule": self.by_rule(),
                "suppressed": len(self.findings) - len(self.active),
            },
            "findings": [_finding_dict(f) for f in self.findings],
        }


def _finding_dict(f: Finding) -> dict[str, Any]:
    loc = f.location
    out: dict[str, Any] = {
        "rule": f.rule,
        "severity": f.severity.label,
        "message": f.message,
        "tool": loc.tool,
        "pointer": loc.pointer,
        "hint": f.hint,
    }
    for key, value in (
        ("group", loc.group),
        ("source", loc.source),
        ("source_pointer", loc.source_pointer),
        ("line", loc.line),
        ("evidence", f.evidence),
        ("decoded", f.decoded),
        ("why", f.why or None),
    ):
        if value is not None:
            out[key] = value
    if f.suppressed:
        out["suppressed"] = True
    return out


def finish(
    command: Literal["lint", "scan"],
    source: str,
    entries: Iterable[ToolEntry],
    findings: Iterable[Finding],
    *,
    enabled: Callable[[str], bool],
    why: Mapping[str, str],
    honour: Callable[[ToolEntry], bool],
) -> Report:
    """Filter by selection, apply inline suppressions, drop repeats, fill `why`, sort;
    every text made encodable (a hostile declaration may hold lone surrogates)."""
    listed = list(entries)
    owners = {(e.source, e.group, e.name): e for e in reversed(listed)}
    position = {
        (_maybe(e.source), _maybe(e.group), e.name): i for i, e in reversed(list(enumerate(listed)))
    }
    kept: dict[tuple[Any, ...], Finding] = {}
    for finding in findings:
        if not enabled(finding.rule):
            continue
        loc = finding.location
        owner = owners.get((loc.source, loc.group, loc.tool))
        if owner is not None and honour(owner) and owner.suppressed(finding.rule, loc.pointer):
            finding = replace(finding, suppressed=True)
        if not finding.why:
            finding = _with_why(finding, why.get(finding.rule, ""))
        finding = _encodable(finding)
        loc = finding.location
        key = (loc.source, loc.source_pointer, loc.group, loc.tool, loc.pointer, finding.rule)
        if key not in kept or kept[key].severity < finding.severity:
            kept[key] = finding

    def order(f: Finding) -> tuple[Any, ...]:
        loc = f.location
        return (
            position.get((loc.source, loc.group, loc.tool), len(listed)),
            loc.tool,
            -f.severity,
            loc.pointer,
            f.rule,
        )

    ordered = sorted(kept.values(), key=order)
    return Report(
        command=command, source=printable(source), tools=len(listed), findings=tuple(ordered)
    )


def _with_why(f: Finding, why: str) -> Finding:
    # one constructor call: `replace` costs several times more, once per finding
    return Finding(
        rule=f.rule,
        severity=f.severity,
        message=f.message,
        location=f.location,
        hint=f.hint,
        evidence=f.evidence,
        decoded=f.decoded,
        why=why,
        suppressed=f.suppressed,
    )


def _encodable(finding: Finding) -> Finding:
    loc = finding.location
    texts = (
        finding.message,
        finding.hint,
        finding.why,
        finding.evidence,
        finding.decoded,
        loc.tool,
        loc.pointer,
        loc.source,
        loc.source_pointer,
        loc.group,
    )
    if all(t is None or t.isascii() for t in texts):
        return finding  # the common case
    location = Location(
        tool=printable(loc.tool),
        pointer=printable(loc.pointer),
        source=_maybe(loc.source),
        source_pointer=_maybe(loc.source_pointer),
        line=loc.line,
        group=_maybe(loc.group),
    )
    return replace(
        finding,
        message=printable(finding.message),
        location=location,
        hint=printable(finding.hint),
        evidence=_maybe(finding.evidence),
        decoded=_maybe(finding.decoded),
        why=printable(finding.why),
    )


def _maybe(text: str | None) -> str | None:
    return None if text is None else printable(text)
