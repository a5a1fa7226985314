"""`lint`: contract-quality rules over every declaration of a catalog."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from callgate.lint._context import LintContext, ToolCheck
from callgate.lint._finding import Finding
from callgate.lint._load import CatalogSource, load_catalog
from callgate.lint._registry import RULES, selection
from callgate.lint._report import Report, finish
from callgate.lint._rules_catalog import check_catalog
from callgate.lint._rules_descriptions import check_descriptions
from callgate.lint._rules_names import check_names
from callgate.lint._rules_params import check_parameters
from callgate.lint._unreadable import unreadable_findings

__all__ = ["lint"]

_TOOL_CHECKS: tuple[ToolCheck, ...] = (check_names, check_descriptions, check_parameters)


def lint(
    source: CatalogSource,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
) -> Report:
    """Lint every tool of `source` (a path, `module:attr`, a `Catalog` or declarations).

    `select`/`ignore` take rule ids or prefixes. Inline suppressions (`_meta.callgate.ignore`,
    `x-callgate-ignore`, `Tool.metadata["callgate"]["ignore"]`) are honoured.
    """
    enabled = selection(select, ignore)
    catalog = load_catalog(source)
    entries = [e for e in catalog.entries if e.readable]
    names = frozenset(e.name for e in entries)
    # A model sees all servers' tools at once, but a BFCL entry's tools only together.
    sizes = Counter(str(e.group) for e in entries if e.server is None and e.group is not None)
    findings: list[Finding] = list(
        unreadable_findings(catalog.entries, catalog.problems, rule="C006")
    )
    for entry in entries:
        alone = entry.server is None and entry.group is not None
        ctx = LintContext(size=sizes[str(entry.group)] if alone else len(entries), names=names)
        for check in _TOOL_CHECKS:
            findings.extend(check(entry, ctx))
    findings.extend(check_catalog(entries))
    lint_only = [f for f in findings if RULES[f.rule].kind == "lint"]
    return finish(
        "lint",
        catalog.source,
        catalog.entries,
        lint_only,
        enabled=enabled,
        why={r.id: r.why for r in RULES.values()},
        honour=lambda _: True,
    )
