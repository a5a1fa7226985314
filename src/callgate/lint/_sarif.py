"""SARIF 2.1.0 output, for code-scanning dashboards."""

from __future__ import annotations

from typing import Any

from callgate.lint._finding import Finding, LintRule, Severity
from callgate.lint._registry import RULES
from callgate.lint._report import Report

__all__ = ["SARIF_SCHEMA", "to_sarif"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "note",
    Severity.INFO: "note",
}
# GitHub code scanning ranks security results by this 0-10 score.
_SCORE = {
    Severity.CRITICAL: "9.5",
    Severity.HIGH: "8.0",
    Severity.MEDIUM: "5.5",
    Severity.LOW: "3.0",
    Severity.INFO: "0.0",
}


def to_sarif(report: Report, *, version: str = "0") -> dict[str, Any]:
    """One run with the rules that fired (as `tool.driver.rules`) and one result each."""
    used = sorted({f.rule for f in report.findings})
    index = {rule: i for i, rule in enumerate(used)}
    driver = {"name": "callgate", "version": version, "rules": [_rule(RULES[r]) for r in used]}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "results": [_result(f, index[f.rule]) for f in report.findings],
                "properties": {"command": report.command, "tools": report.tools},
            }
        ],
    }


def _rule(rule: LintRule) -> dict[str, Any]:
    tags = ["security"] if rule.kind in ("scan", "pin") else ["maintainability"]
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": f"{rule.summary} {rule.why}"},
        "help": {"text": rule.fix},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"tags": tags, "security-severity": _SCORE[rule.severity]},
    }


def _result(finding: Finding, rule_index: int) -> dict[str, Any]:
    loc = finding.location
    qualified = "/".join(p for p in (loc.group, loc.tool) if p)
    location: dict[str, Any] = {
        "logicalLocations": [
            {
                "fullyQualifiedName": qualified + (loc.pointer or ""),
                "name": loc.tool,
                "kind": "member",
            }
        ]
    }
    if loc.source and not loc.source.startswith("<") and ":" not in loc.source.lstrip("/"):
        physical: dict[str, Any] = {"artifactLocation": {"uri": loc.source}}
        if loc.line is not None:
            physical["region"] = {"startLine": loc.line}
        location["physicalLocation"] = physical
    text = finding.message + (f" Fix: {finding.hint}" if finding.hint else "")
    result: dict[str, Any] = {
        "ruleId": finding.rule,
        "ruleIndex": rule_index,
        "level": _LEVEL[finding.severity],
        "message": {"text": text},
        "locations": [location],
        "partialFingerprints": {"callgate/v1": f"{finding.rule}:{qualified}:{loc.pointer}"},
        "properties": {
            "severity": finding.severity.label,
            "pointer": loc.pointer,
            "sourcePointer": loc.source_pointer,
        },
    }
    for key, value in (("evidence", finding.evidence), ("decoded", finding.decoded)):
        if value:
            result["properties"][key] = value
    if finding.suppressed:
        result["suppressions"] = [{"kind": "inSource"}]
    return result
