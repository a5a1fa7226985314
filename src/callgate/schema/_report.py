"""Turn validation errors into sentences a model can act on, with did-you-mean hints."""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema_rs

from callgate.schema._pointer import display_path, resolve_local

__all__ = ["FieldError", "closest", "describe_errors"]


@dataclass(frozen=True, kw_only=True, slots=True)
class FieldError:
    """One failing field: where, what was expected, what was received."""

    path: tuple[str | int, ...]
    """Location in the arguments; empty for the arguments object itself."""
    kind: str
    """The JSON Schema keyword that failed (`required`, `maximum`, `additionalProperties`...)."""
    message: str
    """A model-facing sentence naming the field, the expectation and the received value."""

    @property
    def field(self) -> str:
        return display_path(self.path)


def closest(word: str, candidates: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The candidate a model most likely meant: same letters ignoring case and `_`/`-`,
    then one containing the other, then the nearest by edit similarity."""
    pool = [c for c in candidates if isinstance(c, str)]
    norm = _normalise(word)
    for cand in pool:
        if _normalise(cand) == norm:
            return cand
    contained = [c for c in pool if len(_normalise(c)) >= 3 and _normalise(c) in norm]
    contained += [c for c in pool if len(norm) >= 3 and norm in _normalise(c)]
    if contained:
        return max(contained, key=lambda c: len(c))
    found = difflib.get_close_matches(norm, {_normalise(c): c for c in pool}, n=1, cutoff=cutoff)
    return {_normalise(c): c for c in pool}[found[0]] if found else None


def _normalise(word: str) -> str:
    return word.lower().replace("_", "").replace("-", "").replace(" ", "")


def describe_errors(
    errors: Iterable[jsonschema_rs.ValidationError],
    schema: Mapping[str, Any] | bool,
) -> list[FieldError]:
    """One `FieldError` per failure, in a stable order, without repeats."""
    out: dict[tuple[tuple[str | int, ...], str], FieldError] = {}
    for error in errors:
        for item in _describe(error, schema):
            out.setdefault((item.path, item.message), item)
    return sorted(out.values(), key=lambda e: (len(e.path) > 0, [str(p) for p in e.path]))


def _describe(
    error: jsonschema_rs.ValidationError, schema: Mapping[str, Any] | bool
) -> list[FieldError]:
    kind = type(error.kind).__name__
    path = tuple(error.instance_path)
    info = error.kind.as_dict()
    if kind == "Required":
        prop = str(info.get("property", "")).strip('"')
        where = (*path, prop)
        return [
            FieldError(path=where, kind="required", message=f"'{display_path(where)}' is required")
        ]
    if kind == "AdditionalProperties":
        return _unknown_fields(path, info.get("unexpected", []), error.instance, schema)
    message = _sentence(kind, info, display_path(path), error)
    return [FieldError(path=path, kind=_keyword(kind), message=message)]


def _unknown_fields(
    path: tuple[str | int, ...],
    names: Sequence[str],
    instance: Any,
    schema: Mapping[str, Any] | bool,
) -> list[FieldError]:
    declared = _declared_properties(schema, path)
    present = set(instance) if isinstance(instance, Mapping) else set()
    free = [d for d in declared if d not in present] or list(declared)
    out = []
    for name in names:
        where = display_path((*path, name))
        guess = closest(name, free)
        hint = (
            f"; did you mean '{guess}'?"
            if guess
            else (f"; allowed fields: {', '.join(declared)}" if declared else "")
        )
        out.append(
            FieldError(
                path=(*path, name),
                kind="additionalProperties",
                message=f"unknown field '{where}'{hint}",
            )
        )
    return out


def _declared_properties(schema: Mapping[str, Any] | bool, path: Sequence[str | int]) -> list[str]:
    if not isinstance(schema, Mapping):
        return []
    node: Mapping[str, Any] = resolve_local(schema, schema)
    for part in path:
        key = "items" if isinstance(part, int) else None
        nxt = node.get(key) if key else (node.get("properties") or {}).get(part)
        if not isinstance(nxt, Mapping):
            return []
        node = resolve_local(schema, nxt)
    props = node.get("properties")
    return list(props) if isinstance(props, Mapping) else []


_BOUNDS = {
    "Maximum": "<=",
    "Minimum": ">=",
    "ExclusiveMaximum": "<",
    "ExclusiveMinimum": ">",
}


def _sentence(
    kind: str, info: Mapping[str, Any], where: str, error: jsonschema_rs.ValidationError
) -> str:
    got = _show(error.instance)
    if kind in _BOUNDS:
        return f"'{where}' must be {_BOUNDS[kind]} {info.get('limit')} (got {got})"
    if kind == "Type":
        types = " or ".join(info.get("types", [])) or "another type"
        return f"'{where}' must be of type {types} (got {_type_name(error.instance)} {got})"
    if kind == "Enum":
        options = list(info.get("options", []))
        shown = ", ".join(_show(o) for o in options[:20])
        guess = closest(str(error.instance), [o for o in options if isinstance(o, str)])
        hint = f"; did you mean {_show(guess)}?" if guess is not None else ""
        return f"'{where}' must be one of {shown} (got {got}){hint}"
    if kind == "Format":
        return f"'{where}' must be a valid {info.get('format')} (got {got})"
    if kind == "Constant":
        return f"'{where}' must be {_show(info.get('expected_value'))} (got {got})"
    return f"'{where}': {error.message}"


def _keyword(kind: str) -> str:
    return kind[0].lower() + kind[1:]


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def _show(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."
