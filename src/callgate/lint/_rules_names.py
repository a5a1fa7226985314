"""Lint rules for tool names: portable, snake_case `verb_noun`, no baked-in values,
namespaced in large catalogs, versions outside the name."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from callgate.contract import NAME_RULE
from callgate.lint._context import LintContext
from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, LintRule, Severity
from callgate.lint._words import VERBS, name_tokens

__all__ = ["RULES", "check_names"]

H, M, L = Severity.HIGH, Severity.MEDIUM, Severity.LOW

RULES = (
    LintRule(
        id="N001",
        name="name-portable",
        kind="lint",
        severity=H,
        summary="The name uses characters or a length some model API rejects "
        "(portable: `[A-Za-z0-9_-]`, 1-64 characters).",
        why="OpenAI, Anthropic and Gemini reject the whole request when one tool name breaks "
        "their rule; a dotted group is renamed on the wire.",
        fix="Use letters, digits and `_`; write groups as `notes_search`.",
    ),
    LintRule(
        id="N002",
        name="name-snake-case",
        kind="lint",
        severity=L,
        summary="The name is not snake_case (`getWeather`, `Get-Weather`).",
        why="Models copy names character by character; one convention per catalog avoids "
        "near-miss calls.",
        fix="Rename to snake_case, e.g. `get_weather`.",
    ),
    LintRule(
        id="N003",
        name="name-verb-noun",
        kind="lint",
        severity=L,
        summary="The name is not `verb_noun`: no action verb, or a verb with no object.",
        why="The verb tells the model what calling the tool does; `weather` or `run` leaves "
        "it to guess.",
        fix="Name the action and its object, e.g. `get_weather`, `search_notes`.",
    ),
    LintRule(
        id="N004",
        name="name-argument-value",
        kind="lint",
        severity=L,
        summary="The name holds an argument value (`get_weather_in_moscow`, "
        "`convert_to_celsius` beside a `unit` enum, `get_top_10`).",
        why="Values in names multiply tools and hide the parameter the model should fill.",
        fix="Move the value into a parameter (`get_weather(city=...)`).",
    ),
    LintRule(
        id="N005",
        name="name-namespace",
        kind="lint",
        severity=L,
        summary="A one-word name (`search`) in a catalog of 15 or more tools.",
        why="In a large catalog several servers offer `search`; the model cannot tell "
        "which one is meant.",
        fix="Prefix the name with its namespace, e.g. `notes_search`.",
    ),
    LintRule(
        id="N006",
        name="name-version-suffix",
        kind="lint",
        severity=L,
        summary="The name carries a version suffix (`search_v2`).",
        why="Versions in names break every caller on upgrade and leave the model two "
        "lookalike tools.",
        fix="Keep the name; set `version` and deprecate the old contract.",
    ),
)

_SNAKE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
_VERSION = re.compile(r"[_-][vV]\d+$|(?<=[a-z])V\d+$")
_PREPOSITIONS = frozenset({"in", "at", "for", "near", "from", "to", "of"})
_COUNTS = frozenset({"top", "first", "last", "next", "latest"})
_VALUE_PARAMS = re.compile(
    r"city|location|place|country|region|area|town|language|lang|"
    r"currency|unit|year|locale|zone|market|exchange",
    re.IGNORECASE,
)


def check_names(entry: ToolEntry, ctx: LintContext) -> Iterator[Finding]:
    name = entry.name
    where = entry.at_body("name")
    yield from _portable(name, where)
    if not all(_SNAKE.match(part) for part in name.split(".")):
        yield Finding(
            rule="N002",
            severity=L,
            location=where,
            message=f"{name!r} is not snake_case",
            hint=f"rename to {'_'.join(name_tokens(name))!r}",
        )
    tokens = name_tokens(name.rsplit(".", 1)[-1])
    if not any(t in VERBS for t in tokens):
        yield Finding(
            rule="N003",
            severity=L,
            location=where,
            message=f"{name!r} has no action verb",
            hint="start with what the tool does: get_, search_, create_, ...",
        )
    elif len(tokens) == 1 and not ctx.large:
        yield Finding(
            rule="N003",
            severity=L,
            location=where,
            message=f"{name!r} is a verb without an object",
            hint=f"say what it acts on, e.g. {tokens[0]}_notes",
        )
    yield from _argument_value(entry, tokens, where)
    if ctx.large and len(tokens) == 1:
        yield Finding(
            rule="N005",
            severity=L,
            location=where,
            message=f"{name!r} is a one-word name in a catalog of {ctx.size} tools",
            hint=f"prefix it with its namespace, e.g. notes_{name}",
        )
    if _VERSION.search(name):
        yield Finding(
            rule="N006",
            severity=L,
            location=where,
            message=f"{name!r} carries a version in its name",
            hint="drop the suffix and set the tool's version instead",
        )


def _portable(name: str, where: Any) -> Iterator[Finding]:
    if NAME_RULE.match(name):
        return
    bad = sorted({c for c in name if not re.match(r"[A-Za-z0-9_-]", c)})
    if len(name) <= 64 and bad == ["."]:
        yield Finding(
            rule="N001",
            severity=L,
            location=where,
            message=f"{name!r} is a dotted group; it is sent as {name.replace('.', '_')!r}",
            hint="name it with '_' or declare a namespace",
        )
        return
    why = (
        f"{len(name)} characters (limit 64)"
        if len(name) > 64
        else ("characters " + " ".join(repr(c) for c in bad))
    )
    yield Finding(
        rule="N001",
        severity=H,
        location=where,
        message=f"{name!r} is rejected by some model APIs: {why}",
        hint="use only letters, digits, '_' and '-', at most 64 characters",
    )


def _argument_value(entry: ToolEntry, tokens: list[str], where: Any) -> Iterator[Finding]:
    props = entry.input_schema.get("properties")
    props = props if isinstance(props, Mapping) else {}
    values = _value_words(props)
    for i, token in enumerate(tokens):
        reason = None
        if token in values:
            reason = f"{token!r} is a value of parameter {values[token]!r}"
        elif token.isdigit() and i > 0 and (len(token) > 1 or tokens[i - 1] in _COUNTS):
            reason = f"the number {token!r} looks like an argument"
        elif (
            i > 0
            and tokens[i - 1] in _PREPOSITIONS
            and token not in VERBS
            and not token.endswith("s")  # a plural names a kind of object, not a value
            and (not props or any(_VALUE_PARAMS.fullmatch(str(p)) for p in props))
        ):
            reason = f"'{tokens[i - 1]}_{token}' fixes a value the parameters already take"
        if reason:
            yield Finding(
                rule="N004",
                severity=L,
                location=where,
                message=f"{entry.name!r} holds an argument value: {reason}",
                hint="move the value into a parameter and drop it from the name",
            )
            return


def _value_words(props: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pname, schema in props.items():
        if not isinstance(schema, Mapping):
            continue
        values = schema.get("enum")
        for value in values if isinstance(values, list) else ():
            if isinstance(value, str) and len(value) >= 3 and value.isalpha():
                out.setdefault(value.lower(), str(pname))
    return out
