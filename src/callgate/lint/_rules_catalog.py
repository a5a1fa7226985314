"""Lint rules over the whole catalog: near-duplicates, duplicate names, deprecations,
metaschema validity, annotations that contradict the name, unreadable declarations."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import jsonschema_rs

from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, LintRule, Severity
from callgate.lint._near_duplicates import near_duplicates
from callgate.lint._words import DESTRUCTIVE, READ_VERBS, name_tokens

__all__ = ["RULES", "check_catalog", "metaschema_errors"]

H, M, L = Severity.HIGH, Severity.MEDIUM, Severity.LOW

RULES = (
    LintRule(
        id="C001",
        name="tool-near-duplicate",
        kind="lint",
        severity=M,
        summary="Two tools of one server have descriptions a model cannot tell apart.",
        why="The model picks between them at random, and a wrong pick is a wrong action.",
        fix="Merge the tools, or say in each description when to use it and when the other.",
    ),
    LintRule(
        id="C002",
        name="tool-duplicate-name",
        kind="lint",
        severity=H,
        summary="Two tools of one server share a name.",
        why="Only one of them can ever be called; which one depends on load order.",
        fix="Rename one of them.",
    ),
    LintRule(
        id="C003",
        name="deprecated-replacement",
        kind="lint",
        severity=M,
        summary="A deprecated tool names no replacement, or one the catalog does not hold.",
        why="The model keeps calling the old tool, or is sent to a tool that does not exist.",
        fix="Set `replacement` to the tool to use instead.",
    ),
    LintRule(
        id="C004",
        name="schema-metaschema",
        kind="lint",
        severity=H,
        summary="An input or output schema is not valid against its JSON Schema metaschema.",
        why="Validators reject the schema or read it differently; provider APIs reject the "
        "request.",
        fix="Correct the schema (the message gives the failing keyword).",
    ),
    LintRule(
        id="C005",
        name="annotation-contradiction",
        kind="lint",
        severity=M,
        summary="MCP annotations contradict the name (`readOnlyHint` on `delete_file`).",
        why="Clients that trust the hint skip confirmation for a destructive action.",
        fix="Correct the annotation, or rename the tool.",
    ),
    LintRule(
        id="C006",
        name="declaration-invalid",
        kind="lint",
        severity=H,
        summary="A declaration cannot be read: no name, an input schema that is not an object, "
        "not plain JSON (lone surrogates, NaN, integers of more than 4,300 digits), nested "
        "deeper than 256 levels or more than 100,000 values.",
        why="The tool cannot be offered to any model.",
        fix="Give the declaration a name and an object input schema, in plain JSON.",
    ),
)

_KNOWN_DRAFTS = ("draft-04", "draft-06", "draft-07", "draft/2019-09", "draft/2020-12")


def check_catalog(entries: Sequence[ToolEntry]) -> Iterator[Finding]:
    groups: dict[str | None, list[ToolEntry]] = defaultdict(list)
    for entry in entries:
        groups[entry.group].append(entry)
    names = {e.name for e in entries} | {e.tool.name for e in entries if e.tool is not None}
    for members in groups.values():
        yield from _duplicate_names(members)
        yield from near_duplicates(members)
    for entry in entries:
        yield from _deprecated(entry, names)
        yield from _metaschema(entry)
        yield from _annotations(entry)


def _duplicate_names(members: list[ToolEntry]) -> Iterator[Finding]:
    counts = Counter(e.name for e in members)
    seen: set[str] = set()
    for entry in members:
        if counts[entry.name] > 1:
            if entry.name in seen:
                yield Finding(
                    rule="C002",
                    severity=H,
                    location=entry.at_body("name"),
                    message=f"{entry.name!r} is declared {counts[entry.name]} times",
                    hint="rename or remove the duplicate",
                )
            seen.add(entry.name)


def _deprecated(entry: ToolEntry, names: set[str]) -> Iterator[Finding]:
    if not entry.deprecated:
        return
    if entry.replacement is None:
        yield Finding(
            rule="C003",
            severity=M,
            location=entry.at_body("name"),
            message=f"{entry.name!r} is deprecated and names no replacement",
            hint="set 'replacement' to the tool to use instead",
        )
    elif entry.replacement not in names:
        yield Finding(
            rule="C003",
            severity=M,
            location=entry.at_body("replacement"),
            message=f"{entry.name!r} is replaced by {entry.replacement!r}, which the "
            "catalog does not hold",
            hint="add the replacement tool or correct its name",
        )


def metaschema_errors(schema: Mapping[str, Any]) -> list[str]:
    """Metaschema violations of `schema`, offline (an unknown `$schema` is checked as
    2020-12 rather than fetched)."""
    declared = schema.get("$schema")
    if isinstance(declared, str) and not any(d in declared for d in _KNOWN_DRAFTS):
        schema = {k: v for k, v in schema.items() if k != "$schema"}
    try:
        jsonschema_rs.meta.validate(dict(schema))
    except jsonschema_rs.ValidationError as exc:
        return [exc.message]
    except (jsonschema_rs.ReferencingError, ValueError) as exc:
        return [str(exc).splitlines()[0]]
    return []


def _metaschema(entry: ToolEntry) -> Iterator[Finding]:
    pairs: list[tuple[str, Mapping[str, Any] | None]] = [
        (entry.schema_pointer, entry.input_schema),
        (f"{entry.body_pointer}/outputSchema", entry.declaration.output_schema),
    ]
    for pointer, schema in pairs:
        if schema is None:
            continue
        for error in metaschema_errors(schema):
            yield Finding(
                rule="C004",
                severity=H,
                location=entry.location(pointer),
                message=f"invalid JSON Schema: {error}",
                hint="fix the keyword the message names",
            )


def _annotations(entry: ToolEntry) -> Iterator[Finding]:
    hints = entry.declaration.annotations
    verb = next(iter(name_tokens(entry.name.rsplit(".", 1)[-1])), "")
    where = entry.location(f"{entry.body_pointer}/annotations")
    if hints.read_only and verb in DESTRUCTIVE:
        yield Finding(
            rule="C005",
            severity=M,
            location=where,
            message=f"{entry.name!r} is marked readOnlyHint but its name says {verb!r}",
            hint="set readOnlyHint: false (and destructiveHint) or rename the tool",
        )
    elif hints.destructive and verb in READ_VERBS - {"check", "test", "convert"}:
        yield Finding(
            rule="C005",
            severity=L,
            location=where,
            message=f"{entry.name!r} is marked destructiveHint but its name says {verb!r}",
            hint="set readOnlyHint: true, or rename the tool after what it changes",
        )
