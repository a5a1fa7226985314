"""Bring parsed arguments back to the tool's own schema, reporting every change.

Two sources of mismatch are undone here: nulls that strict mode made the model send for
optional properties, and values of the wrong JSON type where the intent is unambiguous
("3" for an integer; Gemini's 3.0 for an integer; a string enum value Gemini's OpenAPI
form sent for an integer or boolean enum). The types a subschema accepts are read through
`$ref`, `allOf`, `anyOf`, `oneOf` and type lists. Anything else is left for the host's
validation to report.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Literal

from callgate.dialects._text_values import NO_VALUE, json_value, source_value
from callgate.schema import json_type, resolve_local

__all__ = ["Coercion", "coerce_arguments", "drop_strict_nulls"]

Coercion = Literal["gemini", "text"]
"""`gemini`: integral floats for integers, and strings that spell a value of a non-string
enum (Gemini's OpenAPI form sends every enum as strings); `text`: also strings for
scalars and source text for arrays and objects (text mode)."""

_INT = re.compile(r"^-?\d+$")
_NUM = re.compile(r"^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
_TYPES = frozenset({"string", "integer", "number", "boolean", "array", "object", "null"})
_MAX_TEXT = 64 * 1024
"""Longest string read as a number or a structure (a 5,000-digit "number" is not one)."""
_MAX_WALK = 64
"""Deepest nesting walked (arguments are limited to 32 before they get here)."""


def drop_strict_nulls(
    args: dict[str, Any], schema: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """Remove nulls the original schema does not allow for optional properties, at any
    depth (inside arrays and `allOf` too)."""
    notes: list[str] = []
    return _drop(args, schema, schema, "", notes, 0), notes


def _drop(
    value: dict[str, Any],
    node: Mapping[str, Any],
    root: Mapping[str, Any],
    where: str,
    notes: list[str],
    depth: int,
) -> dict[str, Any]:
    props, required = _object_shape(node, root)
    if not props or depth > _MAX_WALK:
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        sub = props.get(key)
        sub = resolve_local(root, sub) if isinstance(sub, Mapping) else None
        if item is None and key not in required and sub is not None and not allows_null(sub, root):
            notes.append(f"dropped null for optional '{where}{key}', read as left out")
            continue
        if sub is not None:
            item = _drop_in(item, sub, root, f"{where}{key}", notes, depth + 1)
        out[key] = item
    return out


def _drop_in(
    item: Any,
    node: Mapping[str, Any],
    root: Mapping[str, Any],
    where: str,
    notes: list[str],
    depth: int,
) -> Any:
    if isinstance(item, dict):
        return _drop(item, node, root, f"{where}.", notes, depth)
    items = node.get("items")
    if isinstance(item, list) and isinstance(items, Mapping):
        items = resolve_local(root, items)
        return [_drop_in(v, items, root, f"{where}[{i}]", notes, depth) for i, v in enumerate(item)]
    return item


def _object_shape(
    node: Mapping[str, Any], root: Mapping[str, Any], depth: int = 0
) -> tuple[dict[str, Any], set[str]]:
    """Properties and required names of an object schema, `allOf` branches merged."""
    node = resolve_local(root, node)
    props = dict(node["properties"]) if isinstance(node.get("properties"), Mapping) else {}
    required = set(node.get("required") or ()) if isinstance(node.get("required"), list) else set()
    for branch in node.get("allOf") or () if depth < 8 else ():
        if isinstance(branch, Mapping):
            more, needed = _object_shape(branch, root, depth + 1)
            props = {**more, **props}
            required |= needed
    return props, required


def allows_null(node: Mapping[str, Any], root: Mapping[str, Any], depth: int = 0) -> bool:
    """True when `null` is a valid instance of `node` as far as its types say."""
    node = resolve_local(root, node)
    if depth > 8:
        return True
    if any(not allows_null(b, root, depth + 1) for b in _branches(node, "allOf")):
        return False
    if "const" in node:
        return node["const"] is None
    if isinstance(node.get("enum"), list):
        return None in node["enum"]
    kind = node.get("type")
    if kind is not None and not (kind == "null" or (isinstance(kind, list) and "null" in kind)):
        return False
    unions = _branches(node, "anyOf") + _branches(node, "oneOf")
    return not unions or any(allows_null(b, root, depth + 1) for b in unions)


def coerce_arguments(
    args: dict[str, Any], schema: Mapping[str, Any], kind: Coercion
) -> tuple[dict[str, Any], list[str]]:
    """Convert values whose schema names one type and whose meaning is unambiguous."""
    walk = _Walk(root=schema, kind=kind)
    value = walk.value(args, schema, "", 0)
    return (value if isinstance(value, dict) else args), walk.notes


class _Walk:
    """One coercion of one call's arguments.

    What a subschema accepts is read once per subschema and call: every item of a list
    shares its item schema, and an enum of hundreds of options would otherwise be read
    again for each of thousands of items.
    """

    def __init__(self, *, root: Mapping[str, Any], kind: Coercion) -> None:
        self.root = root
        self.kind = kind
        self.notes: list[str] = []
        self._types: dict[int, tuple[Mapping[str, Any], Any]] = {}
        self._enums: dict[int, tuple[Mapping[str, Any], Any]] = {}

    def value(self, value: Any, node: Mapping[str, Any], where: str, depth: int) -> Any:
        node = resolve_local(self.root, node)
        if depth > _MAX_WALK:
            return value
        value = self._convert(value, node, where)
        if isinstance(value, dict):
            props, _ = _object_shape(node, self.root)
            return {
                k: self.value(v, props[k], f"{where}{k}.", depth + 1)
                if isinstance(props.get(k), Mapping)
                else v
                for k, v in value.items()
            }
        items = node.get("items")
        if isinstance(value, list) and isinstance(items, Mapping):
            return [self.value(v, items, f"{where}{i}.", depth + 1) for i, v in enumerate(value)]
        return value

    def _convert(self, value: Any, node: Mapping[str, Any], where: str) -> Any:
        accepted = self._accepted(node)
        text = self.kind == "text"
        new: Any = NO_VALUE
        if text and accepted - {"null"} == {"string"} and _plain_number(value):
            # {"value": 25} where only text is accepted: the text the number is written as.
            new = str(value)
        elif isinstance(value, float) and value.is_integer():
            if "integer" in accepted and "number" not in accepted:
                new = int(value)
        elif isinstance(value, str):
            new = self._enum_value(value, node)
            if new is NO_VALUE and text:
                items = node.get("items")
                kinds = self._accepted(items) if isinstance(items, Mapping) else _TYPES
                new = _from_text(value, accepted, kinds)
        elif text and _single(value) and "array" not in accepted:
            # ["Paris"] where one string is wanted: the list is only the model's wrapping.
            new = value[0] if json_type(value[0]) in accepted else NO_VALUE
        if new is NO_VALUE or (new == value and type(new) is type(value)):
            return value
        label = "/".join(sorted(accepted - {"null"})) or "enum"
        self.notes.append(
            f"coerced '{where.rstrip('.') or '(arguments)'}' {value!r} -> {new!r} ({label})"
        )
        return new

    def _accepted(self, node: Mapping[str, Any]) -> frozenset[str]:
        types: frozenset[str] = self._once(self._types, node, accepted_types)
        return types

    def _enum_value(self, value: str, node: Mapping[str, Any]) -> Any:
        """The one non-string enum value `value` spells (`"2"` for 2, `"true"` for True)."""
        known = self._once(self._enums, node, lambda n, root: _spellings(_enum_options(n, root)))
        if known is None:
            return NO_VALUE
        strings, spelt = known
        # a string that is itself an option stays as it is
        return NO_VALUE if value in strings else spelt.get(value.strip(), NO_VALUE)

    def _once(
        self,
        table: dict[int, tuple[Mapping[str, Any], Any]],
        node: Mapping[str, Any],
        read: Callable[[Mapping[str, Any], Mapping[str, Any]], Any],
    ) -> Any:
        """What `read` makes of `node`, read once per call; keyed by id(), with the node kept
        beside it so that its id is not reused."""
        known = table.get(id(node))
        if known is None or known[0] is not node:
            known = table[id(node)] = (node, read(node, self.root))
        return known[1]


def _plain_number(value: Any) -> bool:
    """An int, or a float whose shortest form has no exponent (so its text is the model's)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, int):
        return -_HUGE < value < _HUGE  # no text for a number past 400 digits
    return math.isfinite(value) and "e" not in repr(value)


_HUGE = 10**400


def _single(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 1 and not isinstance(value[0], list | dict)


def _spellings(options: list[Any]) -> tuple[frozenset[str], dict[str, Any]] | None:
    """The string options, and the non-string ones by the JSON text that spells each (a
    text two options share spells neither); None when every option is a string."""
    if all(isinstance(o, str) for o in options):
        return None
    spelt = [(json.dumps(o), o) for o in options if not isinstance(o, str)]
    texts = Counter(t for t, _ in spelt)
    strings = frozenset(o for o in options if isinstance(o, str))
    return strings, {t: o for t, o in spelt if texts[t] == 1}


def _enum_options(node: Mapping[str, Any], root: Mapping[str, Any]) -> list[Any]:
    node = resolve_local(root, node)
    if "const" in node:
        return [node["const"]]
    if isinstance(node.get("enum"), list):
        return list(node["enum"])
    out: list[Any] = []
    for branch in _branches(node, "anyOf") + _branches(node, "oneOf") + _branches(node, "allOf"):
        out += _enum_options(branch, root)
    return out


def _from_text(value: str, accepted: frozenset[str], items: frozenset[str]) -> Any:
    """The value a string spells for the one non-string type the schema accepts (`items`:
    the types an array's items accept)."""
    text = value.strip()
    if len(text) > _MAX_TEXT:
        return NO_VALUE
    if accepted == frozenset({"string"}) or accepted == frozenset({"string", "null"}):
        return _unquoted(text)
    targets = accepted - {"null"}
    if "number" in targets:
        targets -= {"integer"}
    if "string" in accepted or len(targets) != 1:
        return NO_VALUE
    (declared,) = targets
    if declared in ("integer", "number") and len(text) > 400:
        return NO_VALUE  # past 4,300 digits Python cannot even print it; a float is infinite
    if declared == "integer" and _INT.match(text):
        return int(text)
    if declared == "number" and _NUM.match(text):
        number = float(text)
        return int(text) if _INT.match(text) else number
    if declared == "boolean":
        bare = _unquoted(text)
        bare = text if bare is NO_VALUE else bare
        return bare.lower() == "true" if bare.lower() in ("true", "false") else NO_VALUE
    if declared in ("array", "object") and text[:1] in "[{":
        try:
            parsed = json_value(text)
        except (ValueError, RecursionError):
            parsed = None
        if isinstance(parsed, list if declared == "array" else dict):
            return parsed
    return source_value(text, declared, [], items=items)


def _unquoted(text: str) -> Any:
    """`'urgent'` inside a string: a JavaScript or Python string literal written as text."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" and text[0] not in text[1:-1]:
        return text[1:-1]
    return NO_VALUE


def accepted_types(
    node: Mapping[str, Any], root: Mapping[str, Any], depth: int = 0
) -> frozenset[str]:
    """The JSON types `node` admits; every type when it does not say."""
    node = resolve_local(root, node)
    if depth > 8:
        return _TYPES
    found = _TYPES
    kind = node.get("type")
    if isinstance(kind, str):
        found = frozenset({kind}) & _TYPES
    elif isinstance(kind, list):
        found = frozenset(k for k in kind if isinstance(k, str)) & _TYPES
    options = _enum_options({k: v for k, v in node.items() if k in ("enum", "const")}, root)
    if options:
        found &= frozenset(json_type(o) for o in options) | (
            {"number"} if any(json_type(o) == "integer" for o in options) else set()
        )
    for branch in _branches(node, "allOf"):
        found &= accepted_types(branch, root, depth + 1)
    unions = _branches(node, "anyOf") + _branches(node, "oneOf")
    if unions:
        found &= frozenset().union(*(accepted_types(b, root, depth + 1) for b in unions))
    return found | {"integer"} if "number" in found else found


def _branches(node: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    value = node.get(key)
    return [b for b in value if isinstance(b, Mapping)] if isinstance(value, list) else []
