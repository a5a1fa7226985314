"""A declaration from outside that tries to switch the scanner off for itself."""

from __future__ import annotations

from collections.abc import Iterator

from callgate.lint._entry import ToolEntry, matches_rule
from callgate.lint._finding import Finding, LintRule, Severity

__all__ = ["RULES", "check_self_suppression"]

RULES = (
    LintRule(
        id="S015",
        name="self-suppression",
        kind="scan",
        severity=Severity.MEDIUM,
        summary="An untrusted declaration carries inline suppressions of poisoning rules.",
        why="Suppressions in a server's own metadata are ignored by the scan (a poisoned "
        "server would silence it); asking for them is itself a signal.",
        fix="Suppress findings for third-party tools in your own configuration "
        "(`--ignore`), not in the tool's metadata.",
    ),
)


def check_self_suppression(entry: ToolEntry) -> Iterator[Finding]:
    if entry.trusted:
        return
    wanted = [*entry.suppress, *(s for _, ids in entry.node_suppress for s in ids)]
    silenced = [s for s in wanted if matches_rule("S001", s) or s.upper().startswith("S")]
    if silenced:
        yield Finding(
            rule="S015",
            severity=Severity.MEDIUM,
            location=entry.location(),
            message=f"declaration asks to suppress poisoning rules {', '.join(silenced)}; ignored",
            hint=RULES[0].fix,
        )
