"""Breaking and compatible changes between two versions of a catalog.

A change is breaking when a call that was valid before may now fail or mean something
else: a tool removed or renamed without a deprecation window, a parameter removed or
newly required, a type changed (widening too: old callers and cached examples assume the
old type), an enum narrowed, a constraint tightened, the output schema changed. New
optional parameters and loosened constraints are compatible. Description, default and
annotation changes are "review": they change the pin and what the model does.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from callgate._errors import UserError
from callgate.lint._entry import ToolEntry
from callgate.lint._load import CatalogSource, LoadedCatalog, load_catalog
from callgate.lint._text import printable
from callgate.lint._walk import join, unreadable
from callgate.schema import canonical_json

__all__ = ["Change", "ChangeKind", "DiffReport", "compare_schemas", "diff_catalogs"]

ChangeKind = Literal["breaking", "compatible", "review"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Change:
    """One difference between the old and the new contract of a tool."""

    kind: ChangeKind
    code: str
    """Stable code: `tool-removed`, `param-required-added`, `enum-narrowed`, ..."""
    tool: str
    pointer: str = ""
    """JSON pointer inside the tool's input schema (empty for the tool itself)."""
    message: str


@dataclass(frozen=True, kw_only=True, slots=True)
class DiffReport:
    """All changes from `old` to `new`, breaking first."""

    old: str
    new: str
    changes: tuple[Change, ...]

    @property
    def breaking(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.kind == "breaking")

    @property
    def ok(self) -> bool:
        """True when nothing breaks existing callers."""
        return not self.breaking

    def to_dict(self) -> dict[str, Any]:
        counts = {
            k: sum(c.kind == k for c in self.changes) for k in ("breaking", "compatible", "review")
        }
        return {
            "old": self.old,
            "new": self.new,
            "summary": counts,
            "changes": [
                {
                    "kind": c.kind,
                    "code": c.code,
                    "tool": c.tool,
                    "pointer": c.pointer,
                    "message": c.message,
                }
                for c in self.changes
            ],
        }


_ORDER = {"breaking": 0, "review": 1, "compatible": 2}


def diff_catalogs(old: CatalogSource, new: CatalogSource) -> DiffReport:
    """Compare two catalog versions tool by tool (tools are matched by server and name).

    A declaration that cannot be read is a `tool-unreadable` change: breaking in the new
    version, for review in the old one (it could not be compared).
    """
    before, after = load_catalog(old), load_catalog(new)
    old_tools = {_key(e): e for e in before.entries if e.readable}
    new_tools = {_key(e): e for e in after.entries if e.readable}
    changes = [*_unreadable(before, "review"), *_unreadable(after, "breaking")]
    unread = {_key(e) for e in (*before.entries, *after.entries) if not e.readable}
    for key, entry in old_tools.items():
        if key in new_tools:
            changes += _compare_tools(entry, new_tools[key])
    gone = [e for k, e in old_tools.items() if k not in new_tools and k not in unread]
    added = [e for k, e in new_tools.items() if k not in old_tools and k not in unread]
    changes += _removed_and_added(gone, added)
    changes.sort(key=lambda c: (_ORDER[c.kind], c.tool, c.pointer, c.code))
    return DiffReport(old=before.source, new=after.source, changes=tuple(changes))


def _key(entry: ToolEntry) -> tuple[str, str]:
    return entry.group or "", entry.name


def _unreadable(catalog: LoadedCatalog, kind: ChangeKind) -> Iterator[Change]:
    side = "new" if kind == "breaking" else "old"
    for entry in catalog.entries:
        for pointer, reason in entry.unreadable:
            yield Change(
                kind=kind,
                code="tool-unreadable",
                tool=entry.name,
                pointer=printable(pointer),
                message=f"the {side} declaration cannot be read: {reason}",
            )
    for problem in catalog.problems:
        yield Change(
            kind=kind,
            code="tool-unreadable",
            tool=problem.location.tool,
            pointer=printable(problem.location.source_pointer or ""),
            message=f"the {side} declaration cannot be read: {problem.message}",
        )


def _removed_and_added(gone: list[ToolEntry], added: list[ToolEntry]) -> Iterator[Change]:
    # A removed tool whose contract reappears under another name was renamed: the same
    # schema and description, or the same schema when the old tool had no description.
    by_contract: dict[tuple[str, str], list[ToolEntry]] = {}
    by_schema: dict[str, list[ToolEntry]] = {}
    for entry in reversed(added):  # popped from the end: the first added tool first
        schema = canonical_json(entry.input_schema)
        by_contract.setdefault((schema, entry.description.strip()), []).append(entry)
        by_schema.setdefault(schema, []).append(entry)
    renamed: set[int] = set()
    for entry in gone:
        schema = canonical_json(entry.input_schema)
        candidates = (
            by_contract.get((schema, entry.description.strip()), [])
            if entry.description
            else by_schema.get(schema, [])
        )
        while candidates and id(candidates[-1]) in renamed:
            candidates.pop()
        twin = candidates.pop() if candidates else None
        if twin is not None:
            renamed.add(id(twin))
            yield Change(
                kind="breaking",
                code="tool-renamed",
                tool=entry.name,
                message=f"renamed to {twin.name!r} without a deprecation window; "
                f"keep {entry.name!r} as a deprecated alias first",
            )
        elif entry.deprecated:
            yield Change(
                kind="compatible",
                code="tool-removed-after-deprecation",
                tool=entry.name,
                message="removed after its deprecation",
            )
        else:
            yield Change(
                kind="breaking",
                code="tool-removed",
                tool=entry.name,
                message="removed without being deprecated first",
            )
    for entry in added:
        if id(entry) not in renamed:
            yield Change(kind="compatible", code="tool-added", tool=entry.name, message="new tool")


def _compare_tools(old: ToolEntry, new: ToolEntry) -> Iterator[Change]:
    name = old.name
    if not old.deprecated and new.deprecated:
        yield Change(
            kind="compatible",
            code="tool-deprecated",
            tool=name,
            message=f"deprecated (replacement: {new.replacement or 'none named'})",
        )
    if old.description != new.description:
        yield Change(
            kind="review",
            code="description-changed",
            tool=name,
            message="description changed: the model reads the tool differently; "
            "re-review it (the pin changes)",
        )
    if old.declaration.annotations != new.declaration.annotations:
        yield Change(
            kind="review",
            code="annotations-changed",
            tool=name,
            message=f"annotations changed: {old.declaration.annotations.to_mcp()} -> "
            f"{new.declaration.annotations.to_mcp()}",
        )
    yield from _compare(old.input_schema, new.input_schema, name, "")
    old_out, new_out = old.declaration.output_schema, new.declaration.output_schema
    if canonical_json(old_out) != canonical_json(new_out):
        yield Change(
            kind="breaking",
            code="output-schema-changed",
            tool=name,
            pointer="/outputSchema",
            message="output schema changed: consumers of structured results may break",
        )


def compare_schemas(
    old: Mapping[str, Any], new: Mapping[str, Any], *, tool: str, pointer: str = ""
) -> Iterator[Change]:
    """Changes between two versions of one schema node, recursing into properties/items;
    `UserError` when either is not plain JSON or is nested deeper than 256 levels."""
    for side, schema in (("old", old), ("new", new)):
        problems = unreadable(schema)
        if problems:
            where, reason = problems[0]
            raise UserError(f"the {side} schema of {tool!r} cannot be read at {where}: {reason}")
    return _compare(old, new, tool, pointer)


def _compare(
    old: Mapping[str, Any], new: Mapping[str, Any], tool: str, pointer: str
) -> Iterator[Change]:
    yield from _type_change(old, new, tool, pointer)
    yield from _enum_change(old, new, tool, pointer)
    yield from _constraint_changes(old, new, tool, pointer)
    yield from _properties(old, new, tool, pointer)
    old_items, new_items = old.get("items"), new.get("items")
    if isinstance(old_items, Mapping) and isinstance(new_items, Mapping):
        yield from _compare(old_items, new_items, tool, join(pointer, "items"))
    if pointer and old.get("default") != new.get("default") and "default" in old:
        yield Change(
            kind="review",
            code="default-changed",
            tool=tool,
            pointer=pointer,
            message=f"default changed from {old.get('default')!r} to "
            f"{new.get('default')!r}: calls that omit it now mean something "
            "else",
        )
    if pointer and old.get("description") != new.get("description"):
        yield Change(
            kind="review",
            code="param-description-changed",
            tool=tool,
            pointer=pointer,
            message="parameter description changed",
        )


def _types(node: Mapping[str, Any]) -> frozenset[str]:
    kind = node.get("type")
    if isinstance(kind, str):
        return frozenset({kind})
    if isinstance(kind, list):
        return frozenset(k for k in kind if isinstance(k, str))
    return frozenset()


def _type_change(
    old: Mapping[str, Any], new: Mapping[str, Any], tool: str, pointer: str
) -> Iterator[Change]:
    before, after = _types(old), _types(new)
    if before == after:
        return
    if before and after and before < after:
        how = "widened"
    elif before and after and after < before:
        how = "narrowed"
    else:
        how = "changed"
    yield Change(
        kind="breaking",
        code="type-changed",
        tool=tool,
        pointer=pointer,
        message=f"type {how}: {_show(before)} -> {_show(after)}",
    )


def _show(types: frozenset[str]) -> str:
    return "/".join(sorted(types)) or "any"


def _enum_change(
    old: Mapping[str, Any], new: Mapping[str, Any], tool: str, pointer: str
) -> Iterator[Change]:
    before, after = old.get("enum"), new.get("enum")
    if before == after:
        return
    if isinstance(before, list) and isinstance(after, list):
        old_keys, new_keys = {_value_key(v) for v in before}, {_value_key(v) for v in after}
        lost = [v for v in before if _value_key(v) not in new_keys]
        won = [v for v in after if _value_key(v) not in old_keys]
        if lost:
            yield Change(
                kind="breaking",
                code="enum-narrowed",
                tool=tool,
                pointer=pointer,
                message=f"enum values removed: {_some(lost)}",
            )
        if won:
            yield Change(
                kind="compatible",
                code="enum-widened",
                tool=tool,
                pointer=pointer,
                message=f"enum values added: {_some(won)}",
            )
    elif isinstance(after, list):
        yield Change(
            kind="breaking",
            code="enum-narrowed",
            tool=tool,
            pointer=pointer,
            message=f"now restricted to {_some(after)}",
        )
    else:
        yield Change(
            kind="compatible",
            code="enum-widened",
            tool=tool,
            pointer=pointer,
            message="no longer restricted to an enum",
        )


def _value_key(value: Any) -> tuple[str, Any]:
    """A hashable key equal for equal JSON values (`1` and `True` stay apart)."""
    if isinstance(value, bool) or value is None:
        return "literal", value
    if isinstance(value, int | float):
        return "number", value  # 1 and 1.0 are one JSON number
    if isinstance(value, str):
        return "string", value
    return "json", canonical_json(value)


def _some(values: list[Any]) -> str:
    shown = ", ".join(repr(v) for v in values[:10])
    return f"[{shown}]" if len(values) <= 10 else f"[{shown}, ...] ({len(values):,} in all)"


# keyword -> +1 when a larger value is tighter, -1 when a smaller value is tighter
_BOUNDS = {
    "minimum": 1,
    "exclusiveMinimum": 1,
    "minLength": 1,
    "minItems": 1,
    "minProperties": 1,
    "maximum": -1,
    "exclusiveMaximum": -1,
    "maxLength": -1,
    "maxItems": -1,
    "maxProperties": -1,
}
_SHAPE = ("pattern", "format", "multipleOf", "const")


def _constraint_changes(
    old: Mapping[str, Any], new: Mapping[str, Any], tool: str, pointer: str
) -> Iterator[Change]:
    for keyword, direction in _BOUNDS.items():
        a, b = old.get(keyword), new.get(keyword)
        if a == b or isinstance(a, bool) or isinstance(b, bool):
            continue
        if b is None or a is None or (_number(a) and _number(b)):
            tighter = b is not None and (a is None or (b - a) * direction > 0)
        else:
            tighter = True  # a bound that is not a number: validators may reject anything
        yield _constraint(tighter, tool, pointer, f"{keyword}: {a!r} -> {b!r}")
    for keyword in _SHAPE:
        a, b = old.get(keyword), new.get(keyword)
        if a != b:
            yield _constraint(b is not None, tool, pointer, f"{keyword}: {a!r} -> {b!r}")
    if old.get("uniqueItems") is not True and new.get("uniqueItems") is True:
        yield _constraint(True, tool, pointer, "uniqueItems now required")
    if (
        isinstance(new.get("properties"), Mapping)
        and old.get("additionalProperties", True) is not False
        and new.get("additionalProperties") is False
    ):
        yield _constraint(True, tool, pointer, "additionalProperties now false")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _constraint(tighter: bool, tool: str, pointer: str, what: str) -> Change:
    if tighter:
        return Change(
            kind="breaking",
            code="constraint-tightened",
            tool=tool,
            pointer=pointer,
            message=f"constraint tightened: {what}",
        )
    return Change(
        kind="compatible",
        code="constraint-loosened",
        tool=tool,
        pointer=pointer,
        message=f"constraint loosened: {what}",
    )


def _properties(
    old: Mapping[str, Any], new: Mapping[str, Any], tool: str, pointer: str
) -> Iterator[Change]:
    before = _props(old)
    after = _props(new)
    old_required, new_required = _required(old), _required(new)
    for name, schema in after.items():
        where = join(pointer, "properties", name)
        if name not in before:
            yield _added(name, schema, name in new_required, tool, where)
        elif isinstance(before[name], Mapping) and isinstance(schema, Mapping):
            yield from _compare(before[name], schema, tool, where)
            if name in new_required and name not in old_required:
                yield Change(
                    kind="breaking",
                    code="param-now-required",
                    tool=tool,
                    pointer=where,
                    message=f"{name!r} is now required",
                )
            elif name in old_required and name not in new_required:
                yield Change(
                    kind="compatible",
                    code="param-now-optional",
                    tool=tool,
                    pointer=where,
                    message=f"{name!r} is now optional",
                )
    for name in new_required:
        if name not in old_required and name not in after:
            yield Change(
                kind="breaking",
                code="param-now-required",
                tool=tool,
                pointer=join(pointer, "required"),
                message=f"{name!r} is now required (and not even declared)",
            )
    for name in before:
        if name not in after:
            yield Change(
                kind="breaking",
                code="param-removed",
                tool=tool,
                pointer=join(pointer, "properties", name),
                message=f"parameter {name!r} removed: calls that pass it fail or lose it silently",
            )


def _props(node: Mapping[str, Any]) -> Mapping[str, Any]:
    value = node.get("properties")
    return value if isinstance(value, Mapping) else {}


def _added(name: str, schema: Any, required: bool, tool: str, where: str) -> Change:
    if required:
        return Change(
            kind="breaking",
            code="param-required-added",
            tool=tool,
            pointer=where,
            message=f"new required parameter {name!r}",
        )
    has_default = isinstance(schema, Mapping) and "default" in schema
    note = "with a default" if has_default else "without a default (say what omitting it does)"
    return Change(
        kind="compatible",
        code="param-optional-added",
        tool=tool,
        pointer=where,
        message=f"new optional parameter {name!r}, {note}",
    )


def _required(node: Mapping[str, Any]) -> Sequence[str]:
    value = node.get("required")
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
