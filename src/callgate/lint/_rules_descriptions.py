"""Lint rules for tool descriptions: present, 40..1024 characters, with the two-sentence
boundary ("Use when ...", "Do not use for ..."), task words rather than implementation
talk, and stated result limits for list and search tools."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from callgate.lint._context import LintContext
from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, LintRule, Severity
from callgate.lint._words import LIST_VERBS, name_tokens

__all__ = ["LIMIT_PARAMETER", "RULES", "check_descriptions", "is_list_tool", "limit_parameter"]

H, L, INFO = Severity.HIGH, Severity.LOW, Severity.INFO

RULES = (
    LintRule(
        id="D001",
        name="description-missing",
        kind="lint",
        severity=H,
        summary="The tool has no description, or one that only repeats its name.",
        why="The description is the only thing a model knows about a tool.",
        fix="Say what the tool does, when to use it and what it returns.",
    ),
    LintRule(
        id="D002",
        name="description-length",
        kind="lint",
        severity=L,
        summary="The description is shorter than 40 or longer than 1,024 characters.",
        why="Too short leaves the model guessing; too long costs context on every request "
        "and buries the part that matters.",
        fix="Aim for two or three sentences: what, when, what not.",
    ),
    LintRule(
        id="D003",
        name="description-usage",
        kind="lint",
        severity=INFO,
        summary="The description lacks the two-sentence boundary: 'Use when ...' and "
        "'Do not use for ...' (or 'Используйте, когда ...', 'Не используйте для ...').",
        why="Models pick tools by their stated scope; the negative sentence is what keeps "
        "near-neighbour tools apart.",
        fix="Add 'Use when <task>.' and 'Do not use for <neighbouring task>; use <tool>.'",
    ),
    LintRule(
        id="D004",
        name="description-implementation",
        kind="lint",
        severity=L,
        summary="The description talks about the implementation (endpoints, wrappers, HTTP "
        "verbs, SDK calls) instead of the task.",
        why="A model matches user requests to task words; plumbing words match nothing.",
        fix="Describe the user-visible task and the result.",
    ),
    LintRule(
        id="D005",
        name="description-result-limits",
        kind="lint",
        severity=L,
        summary="A list or search tool does not say how many results it returns.",
        why="Without a stated limit the model cannot tell an empty page from no results, "
        "nor ask for more.",
        fix="State the default and maximum number of results and how to page.",
    ),
)

_USE_WHEN = re.compile(
    r"\buse (?:this(?: tool| function)?|it|when|to|for|if)\b|\buseful (?:when|for)\b"
    r"|\bcall (?:this|it) (?:when|to|if)\b|\bwhen (?:you|the user) (?:need|want)s?\b"
    r"|используй(?:те)?,? (?:когда|для|если|чтобы)|применя(?:й|йте),? (?:когда|для|если)",
    re.IGNORECASE,
)
_DO_NOT = re.compile(
    r"\b(?:do not|don't|never|avoid) (?:use|call)\b|\bnot (?:for|intended for|suitable for|"
    r"meant for)\b|\binstead use\b|\buse \w+ instead\b"
    r"|не используй(?:те)?|не применя(?:й|йте)|не для\b|не вызывай(?:те)?",
    re.IGNORECASE,
)
_IMPLEMENTATION = re.compile(
    r"\b(?:wrapper|endpoint|http (?:get|post|put|patch|delete)|rest api|api call|sdk|"
    r"implemented|implementation|internally|under the hood|python function|lambda|"
    r"this function calls|invokes? the|json payload|request body|response object|"
    r"graphql|grpc|boto3|requests library|database table|sql query)\b",
    re.IGNORECASE,
)
_LIMITS = re.compile(
    r"\b(?:up to|at most|maximum|max|limit(?:ed|s)?|first \d+|top \d+|\d+ (?:results|items|"
    r"entries|records|rows)|paginat\w*|page|per page|cursor|next_?token|offset)\b"
    r"|не более|до \d+|максимум|постранично",
    re.IGNORECASE,
)

LIMIT_PARAMETER = re.compile(
    r"limit|max_?results|max_?items|max_?count|max|page_?size|per_?page|top_?k|top_?n|"
    r"count|num_?results|n_?results|size|first|maxitems|maxresults|k|n|rows|num|"
    r"max_?rows|results_?per_?page|number_?of_?results",
    re.IGNORECASE,
)


def is_list_tool(entry: ToolEntry) -> bool:
    """Returns many results: named for listing or searching."""
    tokens = name_tokens(entry.name.rsplit(".", 1)[-1])
    return bool(tokens) and (
        tokens[0] in LIST_VERBS
        or (len(tokens) > 1 and tokens[1] in LIST_VERBS)
        or tokens[:2] in (["get", "all"], ["fetch", "all"])
    )


def limit_parameter(entry: ToolEntry) -> tuple[str, Mapping[str, Any]] | None:
    props = entry.input_schema.get("properties")
    if not isinstance(props, Mapping):
        return None
    for name, schema in props.items():
        if LIMIT_PARAMETER.fullmatch(str(name)) and isinstance(schema, Mapping):
            return str(name), schema
    return None


def check_descriptions(entry: ToolEntry, ctx: LintContext) -> Iterator[Finding]:
    text = entry.description.strip()
    where = entry.at_body("description")
    if not text or _normal(text) == _normal(entry.name):
        yield Finding(
            rule="D001",
            severity=H,
            location=where,
            message="no description" if not text else "the description only repeats the name",
            hint="say what the tool does, when to use it and what it returns",
        )
        return
    if len(text) < 40:
        yield Finding(
            rule="D002",
            severity=L,
            location=where,
            message=f"description is {len(text)} characters; 40 or more say enough",
            hint="add when to use the tool and what it returns",
        )
    elif len(text) > 1024:
        yield Finding(
            rule="D002",
            severity=L,
            location=where,
            message=f"description is {len(text):,} characters; keep it under 1,024",
            hint="cut examples and reference text; keep what, when, what not",
        )
    yield from _usage(text, where)
    found = {m.group(0).lower() for m in _IMPLEMENTATION.finditer(text)}
    if len(found) >= 2:
        yield Finding(
            rule="D004",
            severity=L,
            location=where,
            message="implementation talk: " + ", ".join(sorted(found)),
            hint="describe the task and the result the user sees",
        )
    if is_list_tool(entry) and not _states_limit(entry, text):
        yield Finding(
            rule="D005",
            severity=L,
            location=where,
            message="list/search tool does not say how many results it returns",
            hint="add e.g. 'Returns at most 20 results; pass `cursor` for more.'",
        )


def _usage(text: str, where: Any) -> Iterator[Finding]:
    missing = [
        label
        for label, pattern in (("'Use when ...'", _USE_WHEN), ("'Do not use for ...'", _DO_NOT))
        if not pattern.search(text)
    ]
    if missing:
        yield Finding(
            rule="D003",
            severity=INFO,
            location=where,
            message="no " + " and no ".join(missing) + " sentence",
            hint="add 'Use when <task>.' and 'Do not use for <other task>.'",
        )


def _states_limit(entry: ToolEntry, text: str) -> bool:
    if _LIMITS.search(text):
        return True
    found = limit_parameter(entry)
    return found is not None and (
        "maximum" in found[1] or bool(_LIMITS.search(str(found[1].get("description", ""))))
    )


def _normal(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())
