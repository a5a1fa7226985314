"""The rule table: one place that `--select`/`--ignore`, the docs and SARIF read."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from callgate._errors import UserError
from callgate.lint import (
    _pins,
    _rules_catalog,
    _rules_descriptions,
    _rules_names,
    _rules_params,
    _scan_actions,
    _scan_directives,
    _scan_encoded,
    _scan_files,
    _scan_links,
    _scan_markup,
    _scan_overlap,
    _scan_shadow,
    _scan_suppress,
    _scan_unicode,
    _unreadable,
)
from callgate.lint._entry import matches_rule
from callgate.lint._finding import LintRule, RuleKind

__all__ = ["RULES", "rules", "rules_markdown", "selection"]

RULES: Mapping[str, LintRule] = {
    rule.id: rule
    for rule in sorted(
        (
            *_rules_names.RULES,
            *_rules_descriptions.RULES,
            *_rules_params.RULES,
            *_rules_catalog.RULES,
            *_scan_markup.RULES,
            *_scan_directives.RULES,
            *_scan_files.RULES,
            *_scan_links.RULES,
            *_scan_unicode.RULES,
            *_scan_encoded.RULES,
            *_scan_shadow.RULES,
            *_scan_actions.RULES,
            *_scan_overlap.RULES,
            *_scan_suppress.RULES,
            *_unreadable.RULES,
            *_pins.RULES,
        ),
        key=lambda r: ("NDPCSX".index(r.id[0]), r.id),
    )
}
"""Every rule by id: N names, D descriptions, P parameters, C catalog (lint); S poisoning
scan; X pins."""


def rules(kind: RuleKind | None = None) -> tuple[LintRule, ...]:
    """The rules of one kind (`lint`, `scan`, `pin`), or all, in table order."""
    return tuple(r for r in RULES.values() if kind is None or r.kind == kind)


def selection(
    select: Iterable[str] | None = None, ignore: Iterable[str] | None = None
) -> Callable[[str], bool]:
    """A predicate over rule ids: selected (all when `select` is empty) and not ignored.

    Selectors are ids or prefixes (`S`, `P00`), comma- or space-separated; an unknown
    selector is an error so that a typo does not silently disable a rule.
    """
    chosen = _split(select)
    dropped = _split(ignore)
    for selector in (*chosen, *dropped):
        if selector.upper() not in ("*", "ALL") and not any(
            matches_rule(r, selector) for r in RULES
        ):
            raise UserError(
                f"unknown rule selector {selector!r}; rule ids look like "
                f"{', '.join(list(RULES)[:3])}, ..."
            )

    def enabled(rule: str) -> bool:
        if chosen and not any(matches_rule(rule, s) for s in chosen):
            return False
        return not any(matches_rule(rule, s) for s in dropped)

    return enabled


def _split(values: Iterable[str] | None) -> list[str]:
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for value in values or ():
        if not isinstance(value, str):
            raise UserError(f"rule selectors are strings, got {type(value).__name__}")
        out += [v for v in value.replace(",", " ").split() if v]
    return out


def rules_markdown(kind: RuleKind | None = None) -> str:
    """The rule table as Markdown (the docs embed it)."""
    lines = ["| id | name | severity | checks | fix |", "|---|---|---|---|---|"]
    for rule in rules(kind):
        cells = (rule.id, f"`{rule.name}`", rule.severity.label, rule.summary, rule.fix)
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"
