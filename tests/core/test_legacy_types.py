"""`normalize_types` rewrites what the plain walk rewrites: the leaf shortcut and the dict
fast path change how fast a schema is read, never what comes out or what is reported."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from callgate.schema import normalize_types
from callgate.schema._legacy import _CHILD_MANY, _CHILD_MAPS, _CHILD_ONE, _fix_type


def _plain(node: Mapping[str, Any], where: str, notes: list[str]) -> dict[str, Any]:
    """Every child key of every node looked at, every value tested against `Mapping`."""
    out = dict(node)
    if "type" in out:
        _fix_type(out, where, notes)
    if "optional" in out and isinstance(out["optional"], bool):
        notes.append(f"{where or '/'}: dropped non-standard 'optional'")
        del out["optional"]
    for key in _CHILD_MAPS:
        if isinstance(out.get(key), Mapping):
            out[key] = {
                k: _plain(v, f"{where}/{key}/{k}", notes) if isinstance(v, Mapping) else v
                for k, v in out[key].items()
            }
    for key in _CHILD_ONE:
        if isinstance(out.get(key), Mapping):
            out[key] = _plain(out[key], f"{where}/{key}", notes)
    for key in _CHILD_MANY:
        if isinstance(out.get(key), list):
            out[key] = [
                _plain(v, f"{where}/{key}/{i}", notes) if isinstance(v, Mapping) else v
                for i, v in enumerate(out[key])
            ]
    return out


_TYPES = st.sampled_from(
    ["dict", "float", "String", "OBJECT", "any", "", "tuple", "int", "object", "null", "x"]
)
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=4), _TYPES)
_CHILD_KEYS = st.sampled_from([*_CHILD_MAPS, *_CHILD_ONE, *_CHILD_MANY, "description"])


def _node(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A node of a few child keywords (a schema, a map of them, a list of them, or a
    scalar where a schema belongs), often a `type` to rewrite and an `optional` flag, and
    now and then a mapping that is not a dict."""

    def made(keyed: dict[str, Any], kind: Any, optional: Any, proxy: bool) -> Mapping[str, Any]:
        node = dict(keyed)
        if kind is not None:
            node["type"] = kind
        if optional is not None:
            node["optional"] = optional
        return MappingProxyType(node) if proxy else node

    value = st.one_of(
        children,
        st.lists(children, max_size=3),
        st.dictionaries(st.text(max_size=3), children, max_size=3),
    )
    return st.builds(
        made,
        st.dictionaries(_CHILD_KEYS, value, max_size=3),
        st.one_of(st.none(), _TYPES, st.lists(_TYPES, max_size=3), st.integers()),
        st.one_of(st.none(), st.booleans(), st.text(max_size=2)),
        st.booleans(),
    )


_SCHEMAS = st.recursive(_SCALARS, _node, max_leaves=30).filter(lambda s: isinstance(s, Mapping))


@settings(max_examples=500, deadline=None)
@given(_SCHEMAS)
def test_normalize_types_rewrites_and_reports_what_the_plain_walk_does(
    schema: Mapping[str, Any],
) -> None:
    notes: list[str] = []
    assert normalize_types(schema) == (_plain(schema, "", notes), notes)


def test_a_rewrite_deep_under_a_leafless_level_is_still_made() -> None:
    schema = {"properties": {"a": {"items": {"type": "dict", "optional": True}}}}
    out, notes = normalize_types(schema)
    assert out == {"properties": {"a": {"items": {"type": "object"}}}}
    assert notes == [
        "/properties/a/items: type 'dict' -> 'object'",
        "/properties/a/items: dropped non-standard 'optional'",
    ]
