"""Turn validation errors into sentences a model can act on, with did-you-mean hints."""

from __future__ import annotations

import difflib
import itertools
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema_rs

from callgate._visible import visible
from callgate.schema._canonical import escape_lone_surrogates
from callgate.schema._pointer import display_path, resolve_local

__all__ = [
    "HINT_MAX_CANDIDATES",
    "HINT_MAX_CHARS",
    "MAX_REPORTED",
    "FieldError",
    "closest",
    "describe_errors",
    "hint_key",
    "json_type",
]

HINT_MAX_CANDIDATES = 1000
"""Did-you-mean compares a word with at most this many candidates (enum values, field
names); a longer list gets no hint, so one wrong value costs the same in any schema."""
HINT_MAX_CHARS = 100
"""Words and candidates longer than this are never compared for did-you-mean."""


@dataclass(frozen=True, kw_only=True, slots=True)
class FieldError:
    """One failing field: where, what was expected, what was received."""

    path: tuple[str | int, ...]
    """Location in the value; empty for the value itself."""
    kind: str
    """The JSON Schema keyword that failed (`required`, `maximum`, `additionalProperties`...),
    or what the value is not: `depth`, `integer`, `number`, `string`, `unicode`, `type`."""
    message: str
    """A model-facing sentence naming the field, the expectation and the received value."""
    root: str = "(arguments)"
    """How the value itself is named (`(arguments)`, `(result)`)."""

    @property
    def field(self) -> str:
        return display_path(self.path, self.root)


def closest(word: str, candidates: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The candidate a model most likely meant: same letters ignoring case and `_`/`-`,
    then one containing the other, then the nearest by edit similarity.

    Bounded: no hint for a word over `HINT_MAX_CHARS` or more than `HINT_MAX_CANDIDATES`
    candidates (only the first that many are ever read).
    """
    if not isinstance(word, str) or len(word) > HINT_MAX_CHARS:
        return None
    taken = list(itertools.islice(candidates, HINT_MAX_CANDIDATES + 1))
    if len(taken) > HINT_MAX_CANDIDATES:
        return None
    pool = {
        hint_key(c): c for c in reversed(taken) if isinstance(c, str) and len(c) <= HINT_MAX_CHARS
    }
    norm = hint_key(word)
    if norm in pool:
        return pool[norm]
    contained = [c for k, c in pool.items() if len(k) >= 3 and k in norm]
    contained += [c for k, c in pool.items() if len(norm) >= 3 and norm in k]
    if contained:
        return max(contained, key=lambda c: len(c))
    found = difflib.get_close_matches(norm, pool, n=1, cutoff=cutoff)
    return pool[found[0]] if found else None


def hint_key(word: str) -> str:
    """The form did-you-mean compares words in: lower case, without `_`, `-` or spaces."""
    return word.lower().replace("_", "").replace("-", "").replace(" ", "")


_NO_INSTANCE: Any = object()


def describe_errors(
    errors: Iterable[jsonschema_rs.ValidationError],
    schema: Mapping[str, Any] | bool,
    *,
    instance: Any = _NO_INSTANCE,
    root: str = "(arguments)",
) -> list[FieldError]:
    """One `FieldError` per failure, in a stable order, without repeats.

    Pass the validated `instance` so received values are shown as they were sent:
    jsonschema-rs reports NaN and Infinity as null. `root` names the value itself. At
    most `MAX_REPORTED` failures are described; the rest are counted in a last
    `FieldError` of kind `more`, so a payload of 4,000 unknown fields gets a short answer.
    """
    out: dict[tuple[tuple[str | int, ...], str], FieldError] = {}
    skipped = 0
    for error in errors:
        if len(out) >= MAX_REPORTED:
            skipped += _count(error)
            continue
        path = tuple(error.instance_path)
        received = _at(instance, path) if instance is not _NO_INSTANCE else _NO_INSTANCE
        for item in _describe(error, path, received, schema, root):
            if len(out) < MAX_REPORTED:
                out.setdefault((item.path, item.message), item)
            else:
                skipped += 1
    found = sorted(out.values(), key=lambda e: (len(e.path) > 0, [str(p) for p in e.path]))
    if skipped:
        more = f"and {skipped} more problems like these; fix these first"
        found.append(FieldError(path=(), kind="more", message=more, root=root))
    return found


MAX_REPORTED = 20
"""Failures described per value; a model fixes the first ones before it reads the rest."""


def _count(error: jsonschema_rs.ValidationError) -> int:
    if type(error.kind).__name__ == "AdditionalProperties":
        return len(error.kind.as_dict().get("unexpected", [])) or 1
    return 1


def _at(instance: Any, path: Sequence[str | int]) -> Any:
    for part in path:
        try:
            instance = instance[part]
        except (KeyError, IndexError, TypeError):
            return _NO_INSTANCE
    return instance


def _describe(
    error: jsonschema_rs.ValidationError,
    path: tuple[str | int, ...],
    received: Any,
    schema: Mapping[str, Any] | bool,
    root: str,
) -> list[FieldError]:
    kind = type(error.kind).__name__
    info = error.kind.as_dict()
    if received is _NO_INSTANCE:
        received = error.instance
    if kind == "Required":
        prop = str(info.get("property", "")).strip('"')
        where = (*path, prop)
        message = f"'{display_path(where, root)}' is required"
        return [FieldError(path=where, kind="required", message=message, root=root)]
    if kind == "AdditionalProperties":
        names = info.get("unexpected", [])
        return _unknown_fields(path, names, received, schema, root)
    if isinstance(received, float) and not math.isfinite(received):
        what = _preview(received, 60, 0)
        message = f"'{display_path(path, root)}' is {what}, which JSON does not allow"
        return [FieldError(path=path, kind="number", message=message, root=root)]
    message = _sentence(kind, info, display_path(path, root), received, error)
    return [FieldError(path=path, kind=_keyword(kind), message=message, root=root)]


def _unknown_fields(
    path: tuple[str | int, ...],
    names: Sequence[str],
    instance: Any,
    schema: Mapping[str, Any] | bool,
    root: str,
) -> list[FieldError]:
    declared = _declared_properties(schema, path)
    present = set(instance) if isinstance(instance, Mapping) else set()
    free = [d for d in declared if d not in present] or list(declared)
    out = []
    for i, name in enumerate(names):
        where = display_path((*path, name), root)
        # Beyond what is reported the hint is never read: it is not computed either.
        guess = closest(name, free) if i < MAX_REPORTED else None
        hint = (
            f"; did you mean '{guess}'?"
            if guess
            else (f"; allowed fields: {_listed(declared)}" if declared else "")
        )
        out.append(
            FieldError(
                path=(*path, name),
                kind="additionalProperties",
                message=f"unknown field '{where}'{hint}",
                root=root,
            )
        )
    return out


def _listed(names: Sequence[str], shown: int = 20) -> str:
    more = f", ... ({len(names)} in all)" if len(names) > shown else ""
    return ", ".join(display_path((n,)) for n in names[:shown]) + more


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
    kind: str,
    info: Mapping[str, Any],
    where: str,
    received: Any,
    error: jsonschema_rs.ValidationError,
) -> str:
    got = _show(received)
    if kind in _BOUNDS:
        return f"'{where}' must be {_BOUNDS[kind]} {_show(info.get('limit'))} (got {got})"
    if kind == "Type":
        types = " or ".join(info.get("types", [])) or "another type"
        return f"'{where}' must be of type {types} (got {json_type(received)} {got})"
    if kind == "Enum":
        return _enum_sentence(where, info.get("options", []), received)
    if kind == "Format":
        return f"'{where}' must be a valid {info.get('format')} (got {got})"
    if kind == "Constant":
        return f"'{where}' must be {_show(info.get('expected_value'))} (got {got})"
    return f"'{where}': {_cut(escape_lone_surrogates(error.message), 200)}"


def _enum_sentence(where: str, options: Sequence[Any], received: Any) -> str:
    shown = ", ".join(_show(o) for o in options[:20])
    if len(options) > 20:
        shown += f", ... ({len(options)} values)"
    guess = closest(received, options) if isinstance(received, str) else None
    hint = f"; did you mean {_show(guess)}?" if guess is not None else ""
    return f"'{where}' must be one of {shown} (got {_show(received)}){hint}"


def _keyword(kind: str) -> str:
    return kind[0].lower() + kind[1:]


def json_type(value: Any) -> str:
    """The JSON Schema type name of a parsed JSON value (`integer` for an int, `null` for
    None)."""
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
    """A short JSON preview of a received value: bounded work whatever its size."""
    # JSON quoting keeps lone surrogates, U+2028, bidi and zero-width marks as they are.
    return _cut(visible(_preview(value, limit, depth=3)), limit)


def _preview(value: Any, limit: int, depth: int) -> str:
    if isinstance(value, str):
        return json.dumps(value[: limit + 1], ensure_ascii=False)
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        digits = int(value.bit_length() * 0.30103) + 1
        return str(value) if digits < 1000 else f"(an integer of about {digits} digits)"
    if isinstance(value, float):
        return json.dumps(
            value
        )  # NaN, Infinity, -Infinity: how JSON readers that take them write them
    if isinstance(value, Mapping | list | tuple):
        if depth == 0:
            return "{...}" if isinstance(value, Mapping) else "[...]"
        return _preview_container(value, limit, depth)
    return _cut(str(type(value).__name__), limit)


def _preview_container(value: Mapping[Any, Any] | Sequence[Any], limit: int, depth: int) -> str:
    parts: list[str] = []
    size = 0
    pairs = value.items() if isinstance(value, Mapping) else ((None, v) for v in value)
    for key, item in pairs:
        if size > limit:
            parts.append("...")
            break
        text = _preview(item, limit, depth - 1)
        if key is not None:
            text = f"{_preview(str(key), limit, 0)}: {text}"
        parts.append(text)
        size += len(text) + 2
    body = ", ".join(parts)
    return "{" + body + "}" if isinstance(value, Mapping) else "[" + body + "]"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
