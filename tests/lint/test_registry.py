"""The rule table: ids, selection, docs generated from it, and the public surface."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import callgate.lint as lint_api
from callgate._errors import UserError
from callgate.lint import RULES, RuleKind, Severity, rules, rules_markdown, selection

ROOT = Path(__file__).resolve().parents[2]


def test_ids_are_unique_and_named_by_family() -> None:
    assert len({r.name for r in RULES.values()}) == len(RULES)
    for rule_id, rule in RULES.items():
        assert re.fullmatch(r"[NDPCSX]\d{3}", rule_id)
        assert rule.summary and rule.why and rule.fix
        assert (rule.kind == "lint") == (rule_id[0] in "NDPC")


def test_selection_by_id_prefix_and_ignore() -> None:
    enabled = selection(["S00", "N001"], ["S004"])
    assert enabled("S001") and enabled("N001")
    assert not enabled("S004") and not enabled("S011") and not enabled("N002")
    assert all(selection(None, None)(r) for r in RULES)
    assert selection(["s002, S003"])("S003")


def test_unknown_selector_is_an_error() -> None:
    with pytest.raises(UserError, match="unknown rule selector"):
        selection(["Z1"])


def test_severity_parsing() -> None:
    assert Severity.parse("High") is Severity.HIGH
    with pytest.raises(UserError, match="choose one of"):
        Severity.parse("severe")


def test_docs_tables_are_generated_from_the_registry() -> None:
    text = (ROOT / "docs" / "lint.md").read_text(encoding="utf-8")
    kinds: tuple[RuleKind, ...] = ("lint", "scan", "pin")
    for kind in kinds:
        block = re.search(rf"<!-- rules:{kind} -->\n(.*?)<!-- /rules:{kind} -->", text, re.S)
        assert block is not None and block.group(1) == rules_markdown(kind), kind
    assert {r.id for r in rules()} == set(RULES)


def test_public_api_is_sorted_and_complete() -> None:
    exported = lint_api.__all__

    def key(name: str) -> tuple[int, str]:
        return (0 if name.isupper() else 1 if name[:1].isupper() else 2), name

    assert exported == sorted(exported, key=key)
    public = {n for n in vars(lint_api) if not n.startswith("_")}
    modules = {n for n in public if type(getattr(lint_api, n)).__name__ == "module"}
    assert set(exported) == public - modules
