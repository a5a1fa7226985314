"""Declarations that cannot be read, as findings: C006 in lint, S017 in scan.

A part the walks could not read is text a model may still be sent, so the scan reports it
at high severity rather than passing over it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, LintRule, Severity

__all__ = ["RULES", "unreadable_findings"]

RULES = (
    LintRule(
        id="S017",
        name="declaration-unreadable",
        kind="scan",
        severity=Severity.HIGH,
        summary="A declaration, or part of it, cannot be read: not plain JSON (lone "
        "surrogates, NaN, integers of more than 4,300 digits), nested deeper than 256 "
        "levels, more than 100,000 values, or no tool declaration at all.",
        why="What the scan cannot read it cannot clear, and a host may still send it to the model.",
        fix="Write the declaration as plain JSON: UTF-8 text, finite numbers, shallow schemas.",
    ),
)
_HINT = {
    "C006": "write the declaration as plain JSON with a name and an object input schema",
    "S017": RULES[0].fix,
}


def unreadable_findings(
    entries: Iterable[ToolEntry], problems: Iterable[Finding], *, rule: str
) -> Iterator[Finding]:
    """One finding per reason an entry cannot be read, and the loader's problems (C006),
    under `rule` (`C006` for lint, `S017` for scan)."""
    for entry in entries:
        for pointer, reason in entry.unreadable:
            yield Finding(
                rule=rule,
                severity=Severity.HIGH,
                location=entry.location(pointer),
                message=f"cannot be read: {reason}",
                hint=_HINT[rule],
            )
    for problem in problems:
        yield problem if problem.rule == rule else replace(problem, rule=rule, hint=_HINT[rule])
