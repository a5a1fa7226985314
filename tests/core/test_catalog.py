"""The catalog: names, duplicates, namespaces, deprecation, did-you-mean."""

from __future__ import annotations

import pytest

from callgate import Catalog, Tool, UnknownToolError, UserError, tool


def _tool(name: str, **options: object) -> Tool:
    return Tool(name=name, description=f"{name} tool.", input_schema={"type": "object"}, **options)  # type: ignore[arg-type]


def test_register_and_unregister() -> None:
    catalog = Catalog()
    catalog.register(_tool("get_order"))
    assert "get_order" in catalog and len(catalog) == 1
    assert catalog.unregister("get_order").name == "get_order"
    assert len(catalog) == 0


def test_duplicates_are_rejected() -> None:
    catalog = Catalog([_tool("get_order")])
    with pytest.raises(UserError, match="already registered"):
        catalog.add(_tool("get_order"))
    catalog.add(_tool("get_order", version="2"), replace=True)
    assert catalog.get("get_order").version == "2"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "must not be empty"),
        ("get weather", "' '"),
        ("x" * 65, "65 characters"),
        ("héllo", "'é'"),
    ],
)
def test_names_follow_the_strictest_rule(name: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        _tool(name)


def test_namespaces_as_prefixes_and_groups() -> None:
    catalog = Catalog(
        [
            _tool("notes_search", namespace="notes"),
            _tool("notes_create", namespace="notes"),
            _tool("get_order"),
        ]
    )
    assert [t.name for t in catalog.in_namespace("notes")] == ["notes_search", "notes_create"]
    assert catalog.get("notes.search").name == "notes_search"


def test_versions_and_deprecation() -> None:
    catalog = Catalog(
        [
            _tool("get_weather", deprecated=True, replacement="get_weather_v2"),
            _tool("get_weather_v2", version="2"),
        ]
    )
    replacement = catalog.replacement_for("get_weather")
    assert replacement is not None and replacement.name == "get_weather_v2"
    with pytest.raises(UserError, match="not deprecated"):
        _tool("x", replacement="y")


def test_missing_names_get_did_you_mean() -> None:
    catalog = Catalog([_tool("get_weather_forecast"), _tool("find_orders")])
    with pytest.raises(UnknownToolError) as info:
        catalog.get("get_wether_forecast")
    assert info.value.suggestions[0] == "get_weather_forecast"
    assert "did you mean 'get_weather_forecast'" in str(info.value)
    assert catalog.suggest("FindOrders")[0] == "find_orders"


def test_invalid_schema_fails_at_registration() -> None:
    with pytest.raises(UserError, match="invalid JSON Schema"):
        Catalog([Tool(name="t", description="d", input_schema={"type": "no-such-type"})])


def test_catalog_accepts_only_tools() -> None:
    def plain() -> None: ...

    with pytest.raises(UserError, match="@tool"):
        Catalog([plain])  # type: ignore[list-item]

    @tool(effect="read")
    def fine() -> None:
        """Fine."""

    assert Catalog([fine]).names == ["fine"]
