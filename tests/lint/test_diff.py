"""Breaking, compatible and review changes between two catalog versions."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from callgate.lint import diff_catalogs

BASE: dict[str, Any] = {
    "name": "search_notes",
    "description": "Search notes by keyword.",
    "inputSchema": {
        "type": "object",
        "required": ["query"],
        "properties": {
            "query": {"type": "string", "description": "Words.", "maxLength": 200},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 20},
            "sort": {"type": "string", "enum": ["new", "old", "relevance"]},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
    },
    "outputSchema": {"type": "object", "properties": {"notes": {"type": "array"}}},
}


def changed(edit: Any) -> dict[str, Any]:
    new = copy.deepcopy(BASE)
    edit(new)
    return new


def props(t: dict[str, Any]) -> dict[str, Any]:
    return t["inputSchema"]["properties"]  # type: ignore[no-any-return]


def codes(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(c.kind, c.code) for c in diff_catalogs(old, new).changes}


CASES = [
    ("tool removed", [], ("breaking", "tool-removed")),
    (
        "type changed",
        changed(lambda t: props(t)["limit"].update(type="number")),
        ("breaking", "type-changed"),
    ),
    (
        "type widened",
        changed(lambda t: props(t)["limit"].update(type=["integer", "string"])),
        ("breaking", "type-changed"),
    ),
    (
        "new required",
        changed(
            lambda t: (
                props(t).update(owner={"type": "string"}),
                t["inputSchema"]["required"].append("owner"),
            )
        ),
        ("breaking", "param-required-added"),
    ),
    (
        "now required",
        changed(lambda t: t["inputSchema"]["required"].append("limit")),
        ("breaking", "param-now-required"),
    ),
    ("param removed", changed(lambda t: props(t).pop("tags")), ("breaking", "param-removed")),
    (
        "enum narrowed",
        changed(lambda t: props(t)["sort"].update(enum=["new", "old"])),
        ("breaking", "enum-narrowed"),
    ),
    (
        "maximum lowered",
        changed(lambda t: props(t)["limit"].update(maximum=10)),
        ("breaking", "constraint-tightened"),
    ),
    (
        "pattern added",
        changed(lambda t: props(t)["query"].update(pattern="^[a-z]+$")),
        ("breaking", "constraint-tightened"),
    ),
    (
        "closed",
        changed(lambda t: t["inputSchema"].update(additionalProperties=False)),
        ("breaking", "constraint-tightened"),
    ),
    (
        "items type",
        changed(lambda t: props(t)["tags"]["items"].update(type="integer")),
        ("breaking", "type-changed"),
    ),
    (
        "output changed",
        changed(lambda t: t["outputSchema"].update(required=["notes"])),
        ("breaking", "output-schema-changed"),
    ),
    (
        "optional with default",
        changed(lambda t: props(t).update(page={"type": "integer", "default": 1})),
        ("compatible", "param-optional-added"),
    ),
    (
        "enum widened",
        changed(lambda t: props(t)["sort"]["enum"].append("title")),
        ("compatible", "enum-widened"),
    ),
    (
        "maximum raised",
        changed(lambda t: props(t)["limit"].update(maximum=100)),
        ("compatible", "constraint-loosened"),
    ),
    (
        "description",
        changed(lambda t: t.update(description="Find notes.")),
        ("review", "description-changed"),
    ),
    (
        "default",
        changed(lambda t: props(t)["limit"].update(default=10)),
        ("review", "default-changed"),
    ),
]


@pytest.mark.parametrize(("label", "new", "expected"), CASES, ids=[c[0] for c in CASES])
def test_change_is_classified(label: str, new: Any, expected: tuple[str, str]) -> None:
    found = codes([BASE], [new] if new else [])
    assert expected in found
    if expected[0] != "breaking":
        assert not any(kind == "breaking" for kind, _ in found)


def test_identical_catalogs_have_no_changes() -> None:
    report = diff_catalogs([BASE], [copy.deepcopy(BASE)])
    assert report.changes == ()
    assert report.ok


def test_rename_without_deprecation_is_breaking() -> None:
    renamed = changed(lambda t: t.update(name="notes_search"))
    assert ("breaking", "tool-renamed") in codes([BASE], [renamed])


def test_deprecation_window_makes_removal_compatible() -> None:
    deprecated = changed(lambda t: t.update(deprecated=True, replacement="notes_search"))
    successor = changed(lambda t: t.update(name="notes_search"))
    step1 = codes([BASE], [deprecated, successor])
    assert ("compatible", "tool-deprecated") in step1
    assert not any(kind == "breaking" for kind, _ in step1)
    step2 = codes([deprecated, successor], [successor])
    assert step2 == {("compatible", "tool-removed-after-deprecation")}


def test_report_serialises_with_counts() -> None:
    data = diff_catalogs([BASE], []).to_dict()
    assert data["summary"] == {"breaking": 1, "compatible": 0, "review": 0}
    assert data["changes"][0]["code"] == "tool-removed"
