"""The values every check produces: severities, rules, locations and findings."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Literal

from callgate._errors import UserError

__all__ = ["Finding", "LintRule", "Location", "RuleKind", "Severity"]

RuleKind = Literal["lint", "scan", "pin"]
"""`lint`: contract quality; `scan`: poisoning; `pin`: a tool changed since it was pinned."""


class Severity(IntEnum):
    """How much a finding matters; ordered, so `finding.severity >= Severity.MEDIUM` works."""

    INFO = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    CRITICAL = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str | Severity) -> Severity:
        """`"high"` -> `Severity.HIGH`; unknown names raise `UserError` listing the choices."""
        if isinstance(text, Severity):
            return text
        try:
            return cls[str(text).strip().upper()]
        except KeyError:
            choices = ", ".join(s.label for s in cls)
            raise UserError(f"unknown severity {text!r}; choose one of {choices}") from None


@dataclass(frozen=True, kw_only=True, slots=True)
class LintRule:
    """One entry of the rule table: the CLI's `--select`, the docs and SARIF read it."""

    id: str
    """Stable id (`N001`, `S002`); the first letter is the family."""
    name: str
    """Short kebab-case name (`name-snake-case`)."""
    kind: RuleKind
    severity: Severity
    """The severity most findings of this rule carry; a finding may raise or lower it."""
    summary: str
    """What the rule checks, in one sentence."""
    why: str
    """Why it matters to a model or to the host."""
    fix: str
    """The default fix hint; a finding may give a more specific one."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Location:
    """Where a finding is: which tool, and where inside its declaration."""

    tool: str
    """The tool name as declared (before namespace rewriting)."""
    pointer: str = ""
    """JSON pointer into the tool's declaration as written (`/inputSchema/properties/q`)."""
    source: str | None = None
    """File (or `module:attr`) the tool was read from."""
    source_pointer: str | None = None
    """JSON pointer of the declaration inside the source file, when it is JSON."""
    line: int | None = None
    """1-based line in the source file (JSON Lines files)."""
    group: str | None = None
    """Server or entry the tool belongs to, when the source has several."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Finding:
    """One problem found in one place."""

    rule: str
    """The id of the rule that found it."""
    severity: Severity
    message: str
    location: Location
    hint: str = ""
    """What to change."""
    evidence: str | None = None
    """The exact text span that triggered the finding, when there is one."""
    decoded: str | None = None
    """Hidden or encoded content, decoded (tag characters, base64, ...)."""
    why: str = ""
    """Why this matters; the rule's `why` unless the finding says more."""
    suppressed: bool = False
    """Matched an inline suppression; kept so reports can count it, never fails a run."""

    def with_location(self, location: Location) -> Finding:
        return replace(self, location=location)

    @property
    def tool(self) -> str:
        return self.location.tool
