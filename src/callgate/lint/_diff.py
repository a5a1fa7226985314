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

from callgate.lint._entry import ToolEntry
from callgate.lint._load import CatalogSource, load_catalog
from callgate.lint._walk import join
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
    """Compare two catalog versions tool by tool (tools are matched by server and name)."""
    before, after = load_catalog(old), load_catalog(new)
    old_tools = {_key(e): e for e in before.entries}
    new_tools = {_key(e): e for e in after.entries}
    changes: list[Change] = []
    for key, entry in old_tools.items():
        if key in new_tools:
            changes += _compare_tools(entry, new_tools[key])
    gone = [e for k, e in old_tools.items() if k not in new_tools]
    added = [e for k, e in new_tools.items() if k not in old_tools]
    changes += _removed_and_added(gone, added)
    changes.sort(key=lambda c: (_ORDER[c.kind], c.tool, c.pointer, c.code))
    return DiffReport(old=before.source, new=after.source, changes=tuple(changes))


def _key(entry: ToolEntry) -> tuple[str, str]:
    return entry.group or "", entry.name


def _removed_and_added(gone: list[ToolEntry], added: list[ToolEntry]) -> Iterator[Change]:
    renamed: set[int] = set()
    for entry in gone:
        twin = next((a for a in added if id(a) not in renamed and _same_contract(entry, a)), None)
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


def _same_contract(old: ToolEntry, new: ToolEntry) -> bool:
    same_schema = canonical_json(old.input_schema) == canonical_json(new.input_schema)
    same_text = old.description.strip() == new.description.strip() and bool(old.description)
    return same_schema and (same_text or not old.description)


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
    yield from compare_schemas(old.input_schema, new.input_schema, tool=name)
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
    """Changes between two versions of one schema node, recursing into properties/items."""
    yield from _type_change(old, new, tool, pointer)
    yield from _enum_change(old, new, tool, pointer)
    yield from _constraint_changes(old, new, tool, pointer)
    yield from _properties(old, new, tool, pointer)
    old_items, new_items = old.get("items"), new.get("items")
    if isinstance(old_items, Mapping) and isinstance(new_items, Mapping):
        yield from compare_schemas(old_items, new_items, tool=tool, pointer=join(pointer, "items"))
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
        lost = [v for v in before if v not in after]
        won = [v for v in after if v not in before]
        if lost:
            yield Change(
                kind="breaking",
                code="enum-narrowed",
                tool=tool,
                pointer=pointer,
                message=f"enum values removed: {lost}",
            )
        if won:
            yield Change(
                kind="compatible",
                code="enum-widened",
                tool=tool,
                pointer=pointer,
                message=f"enum values added: {won}",
            )
    elif isinstance(after, list):
        yield Change(
            kind="breaking",
            code="enum-narrowed",
            tool=tool,
            pointer=pointer,
            message=f"now restricted to {after}",
        )
    else:
        yield Change(
            kind="compatible",
            code="enum-widened",
            tool=tool,
            pointer=pointer,
            message="no longer restricted to an enum",
        )


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
        tighter = b is not None and (a is None or (b - a) * direction > 0)
        yield _constraint(tighter, tool, pointer, f"{keyword}: {a} -> {b}")
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
            yield from compare_schemas(before[name], schema, tool=tool, pointer=where)
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
