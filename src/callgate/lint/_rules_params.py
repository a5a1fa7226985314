"""Lint rules for the input schema: every parameter described, enums instead of prose,
bounds, formats for dates and ids, closed objects, consistent `required`, typed arrays,
readable names, no `action` monoliths, bounded list limits, standard types."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from callgate.lint._context import LintContext
from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, LintRule, Severity
from callgate.lint._rules_descriptions import LIMIT_PARAMETER, is_list_tool, limit_parameter
from callgate.lint._walk import SchemaNode, iter_schema_nodes, join

__all__ = ["RULES", "check_parameters"]

H, M, L = Severity.HIGH, Severity.MEDIUM, Severity.LOW

RULES = (
    LintRule(
        id="P001",
        name="param-description",
        kind="lint",
        severity=M,
        summary="A parameter has neither a description nor a title.",
        why="The model fills the parameter from its name alone and guesses units, formats "
        "and meaning.",
        fix="Describe what the value is, its unit or format, and an example.",
    ),
    LintRule(
        id="P002",
        name="param-enum-in-prose",
        kind="lint",
        severity=L,
        summary="The description lists the allowed values in prose instead of an `enum`.",
        why="Prose is advice; an `enum` is enforced, and shown to constrained decoders.",
        fix="Add `enum: [...]` with the listed values.",
    ),
    LintRule(
        id="P003",
        name="param-bounds",
        kind="lint",
        severity=L,
        summary="A bounded number (a range in its description, a percentage, an hour ...) "
        "has no `minimum`/`maximum`.",
        why="Out-of-range numbers pass validation and fail (or do damage) in the tool.",
        fix="Add `minimum` and `maximum`.",
    ),
    LintRule(
        id="P004",
        name="param-format",
        kind="lint",
        severity=L,
        summary="A date, time or id parameter has no `format`, `pattern`, `enum` or example.",
        why="Dates and ids come in many shapes; the model picks one at random.",
        fix="Add `format: date` (or a `pattern`) and an example such as 2024-05-01.",
    ),
    LintRule(
        id="P005",
        name="schema-closed",
        kind="lint",
        severity=L,
        summary="An object with declared properties does not set `additionalProperties: false`.",
        why="A misspelt argument is then silently ignored instead of reported to the model; "
        "OpenAI strict mode also requires it.",
        fix="Add `additionalProperties: false`.",
    ),
    LintRule(
        id="P006",
        name="required-undeclared",
        kind="lint",
        severity=H,
        summary="`required` names a parameter that `properties` does not declare.",
        why="The model is asked for a value it has no description or type for; every call "
        "fails validation until it guesses the name.",
        fix="Declare the property, or drop it from `required`.",
    ),
    LintRule(
        id="P007",
        name="array-items",
        kind="lint",
        severity=M,
        summary="An array parameter does not say what its items are.",
        why="The model guesses item shapes; providers with strict schemas reject it.",
        fix="Add `items` with a type (and a description for objects).",
    ),
    LintRule(
        id="P008",
        name="param-name-cryptic",
        kind="lint",
        severity=L,
        summary="A parameter name is cryptic (`p1`, `flt`, `arg2`, `x` without a description).",
        why="Names are the first thing a model matches a value to.",
        fix="Use a descriptive name (`filter`, `page_size`).",
    ),
    LintRule(
        id="P009",
        name="param-action-monolith",
        kind="lint",
        severity=M,
        summary="An `action`-like parameter selects among more than three operations.",
        why="One tool doing many things gets one description for all of them and one "
        "effect and approval policy for reads and writes alike.",
        fix="Split into one tool per action (`notes_create`, `notes_delete`, ...).",
    ),
    LintRule(
        id="P010",
        name="list-limit",
        kind="lint",
        severity=L,
        summary="A list or search tool has no limit parameter, or its limit has no `maximum`.",
        why="An unbounded result floods the context window and the bill.",
        fix="Add `limit: {type: integer, minimum: 1, maximum: 100, default: 20}`.",
    ),
    LintRule(
        id="P011",
        name="schema-nonstandard",
        kind="lint",
        severity=L,
        summary="The schema uses non-standard types or keywords (`dict`, `float`, "
        "`optional`) that were rewritten on reading.",
        why="Other hosts and validators reject or misread them.",
        fix="Use JSON Schema types: object, number, integer, string, boolean, array.",
    ),
)

_ENUM_PROSE = re.compile(
    r"(?:\b(?:one of|possible values|allowed values|valid values|options(?: are)?|"
    r"can be|must be|either|supported(?: values)?)\b[^.]{0,30}?)?"
    r"(['\"`])[\w .-]{1,30}\1(?:\s*(?:,|or|and|/|\|)\s*(['\"`])[\w .-]{1,30}\2){1,}",
    re.IGNORECASE,
)
_RANGE = re.compile(
    r"\bbetween -?\d+(?:\.\d+)? and -?\d+|\b-?\d+(?:\.\d+)?\s*(?:-|to|–|\.\.)\s*-?\d+(?:\.\d+)?\b"
    r"|\b(?:max(?:imum)?|at most|up to|no more than|min(?:imum)?|at least|range)\b[: ]+\d+"
    r"|\bpercent(?:age)?\b|\bprobability\b",
    re.IGNORECASE,
)
_BOUNDED_NAMES = re.compile(
    r".*(?:percent(?:age)?|probability|ratio|rating|latitude|longitude|hour|minute|month|"
    r"_age)|age|lat|lon|lng|temperature|top_p|confidence",
    re.IGNORECASE,
)
_DATE_OR_ID = re.compile(
    r"(?i:(?:.*[_-])?(?:date|time|datetime|timestamp|day|since|until|birthday|dob|id|ids|uuid|"
    r"guid)|.*_at)|.*[a-z](?:Date|Time|At|Id|Ids|ID|Timestamp)"
)
_HAS_EXAMPLE = re.compile(
    r"e\.g\.|for example|such as|format|yyyy|iso|\bie\b|i\.e\.|like ['\"`]|example|"
    r"\d{4}-\d{2}|['\"`][\w-]{3,}['\"`]|например|формат",
    re.IGNORECASE,
)
_CRYPTIC = re.compile(
    r"[a-z]{1,3}\d+|arg\d*|param\d*|val\d*|tmp\d*|var\d*|foo|bar|baz|obj|"
    r"data\d+|[a-z]",
    re.IGNORECASE,
)
_KNOWN_SHORT = frozenset(
    {
        "id",
        "q",
        "to",
        "cc",
        "url",
        "uri",
        "ip",
        "sql",
        "db",
        "os",
        "tz",
        "lat",
        "lon",
        "lng",
        "src",
        "dst",
        "msg",
        "ids",
        "key",
        "tag",
        "x",
        "y",
        "z",
        "n",
        "k",
        "a",
        "b",
        "c",
        "t",
    }
)
_CONSONANTS = re.compile(r"[bcdfghjklmnpqrstvwxz]{3,4}", re.IGNORECASE)
_ACTION_NAMES = frozenset(
    {
        "action",
        "operation",
        "op",
        "command",
        "cmd",
        "subcommand",
        "verb",
        "method",
        "function",
        "tool",
        "task",
        "operation_type",
        "action_type",
    }
)


def check_parameters(entry: ToolEntry, ctx: LintContext) -> Iterator[Finding]:
    for site in iter_schema_nodes(entry.input_schema):
        node = site.node
        if site.property is not None:
            yield from _property(entry, site)
        yield from _object(entry, site.pointer, node)
        if _is_type(node, "array") and not any(
            k in node for k in ("items", "prefixItems", "contains")
        ):
            yield Finding(
                rule="P007",
                severity=M,
                location=entry.at_schema(site.pointer),
                message=f"array {_label(site)} has no 'items'",
                hint="add items: {type: ...}",
            )
    yield from _list_limit(entry)
    for note in entry.declaration.repairs:
        pointer, _, what = note.partition(": ")
        yield Finding(
            rule="P011",
            severity=L,
            location=entry.at_schema("" if pointer == "/" else pointer),
            message=f"non-standard schema: {what}",
            hint="write standard JSON Schema types",
        )


def _property(entry: ToolEntry, site: SchemaNode) -> Iterator[Finding]:
    node, name = site.node, str(site.property)
    where = entry.at_schema(site.pointer)
    described = _text(node.get("description")) or _text(node.get("title"))
    if not described and "$ref" not in node:
        yield Finding(
            rule="P001",
            severity=M,
            location=where,
            message=f"parameter {name!r} has no description",
            hint="describe its meaning, unit or format, with an example",
        )
    description = _text(node.get("description"))
    prose = _ENUM_PROSE.search(description)
    if "enum" not in node and "const" not in node and prose is not None:
        yield Finding(
            rule="P002",
            severity=L,
            location=where,
            message=f"parameter {name!r} lists its values in prose",
            hint="add an enum with those values",
            evidence=prose.group(0),
        )
    yield from _bounds(entry, site, name, description)
    yield from _format(entry, site, name, description)
    if _cryptic(name, description):
        yield Finding(
            rule="P008",
            severity=L,
            location=where,
            message=f"parameter name {name!r} is cryptic",
            hint="use a descriptive name the model can match values to",
        )
    enum = node.get("enum")
    if name.lower() in _ACTION_NAMES and isinstance(enum, list) and len(enum) > 3:
        yield Finding(
            rule="P009",
            severity=M,
            location=where,
            message=f"parameter {name!r} switches between {len(enum)} operations",
            hint="split the tool into one tool per operation",
        )


def _bounds(entry: ToolEntry, site: SchemaNode, name: str, description: str) -> Iterator[Finding]:
    node = site.node
    if not (_is_type(node, "number") or _is_type(node, "integer")):
        return
    if any(
        k in node
        for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum", "const")
    ):
        return
    if site.depth == 1 and LIMIT_PARAMETER.fullmatch(name) and is_list_tool(entry):
        return  # the list-limit rule (P010) reports this one
    if _RANGE.search(description) or _BOUNDED_NAMES.fullmatch(name):
        yield Finding(
            rule="P003",
            severity=L,
            location=entry.at_schema(site.pointer),
            message=f"number {name!r} is bounded but has no minimum/maximum",
            hint="add minimum and maximum",
        )


def _format(entry: ToolEntry, site: SchemaNode, name: str, description: str) -> Iterator[Finding]:
    node = site.node
    items = node.get("items") if _is_type(node, "array") else None
    target = items if isinstance(items, Mapping) else node
    if not (_is_type(target, "string") or "type" not in target):
        return
    if not _DATE_OR_ID.fullmatch(name):
        return
    if any(k in target for k in ("format", "pattern", "enum", "const", "examples", "example")):
        return
    if _HAS_EXAMPLE.search(description) or _HAS_EXAMPLE.search(_text(target.get("description"))):
        return
    yield Finding(
        rule="P004",
        severity=L,
        location=entry.at_schema(site.pointer),
        message=f"{name!r} looks like a date or id but has no format, pattern or example",
        hint="add format (date, date-time, uuid) or a pattern, and an example",
    )


def _object(entry: ToolEntry, pointer: str, node: Mapping[str, Any]) -> Iterator[Finding]:
    props = node.get("properties")
    declared = set(props) if isinstance(props, Mapping) else set()
    required = node.get("required")
    if isinstance(required, list):
        for index, name in enumerate(required):
            if isinstance(name, str) and name not in declared:
                yield Finding(
                    rule="P006",
                    severity=H,
                    location=entry.at_schema(join(pointer, "required", index)),
                    message=f"required parameter {name!r} is not declared in properties",
                    hint=f"declare {name!r} under properties, or remove it from required",
                )
    if (
        declared
        and node.get("additionalProperties", True) is True
        and "unevaluatedProperties" not in node
        and "patternProperties" not in node
    ):
        yield Finding(
            rule="P005",
            severity=L,
            location=entry.at_schema(pointer),
            message="object accepts undeclared properties",
            hint="add additionalProperties: false",
        )


def _list_limit(entry: ToolEntry) -> Iterator[Finding]:
    if not is_list_tool(entry):
        return
    found = limit_parameter(entry)
    if found is None:
        yield Finding(
            rule="P010",
            severity=L,
            location=entry.at_schema("/properties"),
            message="list/search tool has no limit parameter",
            hint="add limit: {type: integer, minimum: 1, maximum: 100, default: 20}",
        )
        return
    name, schema = found
    if "maximum" not in schema and "exclusiveMaximum" not in schema and "enum" not in schema:
        yield Finding(
            rule="P010",
            severity=L,
            location=entry.at_schema(join("/properties", name)),
            message=f"limit parameter {name!r} has no maximum",
            hint="add maximum (and minimum: 1)",
        )


def _cryptic(name: str, description: str) -> bool:
    lowered = name.lower()
    if lowered in _KNOWN_SHORT:
        return len(lowered) == 1 and not description
    if _CRYPTIC.fullmatch(lowered):
        return True
    return bool(_CONSONANTS.fullmatch(lowered)) and lowered not in {
        "html",
        "http",
        "smtp",
        "xml",
        "pdf",
        "png",
        "svg",
        "rgb",
        "csv",
        "dns",
        "ssh",
        "tcp",
        "ftp",
        "sms",
        "mms",
    }


def _is_type(node: Mapping[str, Any], kind: str) -> bool:
    declared = node.get("type")
    return declared == kind or (isinstance(declared, list) and kind in declared)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _label(site: SchemaNode) -> str:
    return repr(site.property) if site.property else site.pointer or "(root)"
