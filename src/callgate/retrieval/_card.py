"""The card: the compact text a tool is found by.

A model picks tools by what they do, and users describe what they want in words that
appear in a tool's name, its description, its parameters and their allowed values. The
card gathers exactly those parts and nothing else: types, defaults and schema plumbing
carry no meaning a user would type.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from callgate.contract import Tool

__all__ = ["EMBEDDING_TEXT", "Card", "card_for", "embedding_text", "split_words"]

EMBEDDING_TEXT = "card-text-1"
"""Names the way `embedding_text` builds a passage: cached vectors of another are stale."""

_CAMEL_LOWER = re.compile(r"([a-z0-9])([A-Z])")
_CAMEL_UPPER = re.compile(r"([A-Z]+)([A-Z][a-z])")
_SEPARATORS = re.compile(r"[\W_]+")

_MAX_DEPTH = 4
"""Nested objects deeper than this rarely add words a user would type."""
_MAX_PARAMETERS = 64
"""Keeps the card of a huge generated schema compact (and its score not dominated by size)."""
_MAX_ENUM_VALUES = 32


def split_words(name: str) -> tuple[str, ...]:
    """`getUserByID_v2` -> (`get`, `user`, `by`, `id`, `v2`): the words an identifier spells."""
    spaced = _CAMEL_UPPER.sub(r"\1 \2", _CAMEL_LOWER.sub(r"\1 \2", name))
    return tuple(w.lower() for w in _SEPARATORS.split(spaced) if w)


@dataclass(frozen=True, kw_only=True, slots=True)
class Card:
    """What a tool is searched by, extracted once when it is indexed."""

    name: str
    """The tool's wire name: the key of the card in an index."""
    words: tuple[str, ...]
    """The name (and title, when the tool has one) split into lower-case words."""
    description: str
    parameters: tuple[str, ...]
    """One entry per parameter, nested ones included: its name in words, then its description."""
    enums: tuple[str, ...]
    """Allowed values of enumerated parameters (`celsius`, `fahrenheit`, ...)."""
    tags: tuple[str, ...]
    context: tuple[str, ...] = ()
    """Where the tool comes from: its namespace and MCP server, in words."""

    def text(self) -> str:
        """The card as one compact passage (for embeddings and for people)."""
        parts = [" ".join(self.words) + "."]
        if self.context:
            parts.insert(0, " ".join(self.context) + ":")
        if self.description:
            parts.append(self.description)
        if self.parameters:
            parts.append("Parameters: " + "; ".join(self.parameters) + ".")
        if self.enums:
            parts.append("Values: " + ", ".join(self.enums) + ".")
        if self.tags:
            parts.append("Tags: " + ", ".join(self.tags) + ".")
        return " ".join(parts)


def embedding_text(card: Card) -> str:
    """The passage an embedding model reads: context, name and description first, then
    parameter names (their descriptions repeat the description's words and dilute it)."""
    parts = [" ".join(card.context) + ":"] if card.context else []
    parts.append(" ".join(card.words) + ".")
    if card.description:
        parts.append(card.description)
    if card.parameters:
        names = [p.partition(":")[0] for p in card.parameters]
        parts.append("Parameters: " + ", ".join(names) + ".")
    return " ".join(parts)


def card_for(tool: Tool) -> Card:
    """The card of `tool`.

    The namespace and the server a tool comes from (`metadata["server"]`, set for MCP
    tools) go into the card's context: "the GitHub server's search" and "the Jira
    server's search" are told apart by it, and a query naming the service finds them.
    """
    context = _context(tool)
    words = _name_words(tool)
    title = tool.annotations.title
    if title:
        words += tuple(w for w in split_words(title) if w not in words)
    parameters: list[str] = []
    enums: list[str] = []
    for name, schema in _properties(tool.input_schema, 0):
        if len(parameters) >= _MAX_PARAMETERS:
            break
        described = schema.get("description")
        text = " ".join(split_words(name))
        if isinstance(described, str) and described.strip():
            text = f"{text}: {described.strip()}"
        parameters.append(text)
        enums += _enum_values(schema)
    return Card(
        name=tool.name,
        words=words,
        description=tool.description.strip(),
        parameters=tuple(parameters),
        enums=tuple(dict.fromkeys(enums))[:_MAX_ENUM_VALUES],
        tags=tool.tags,
        context=context,
    )


def _context(tool: Tool) -> tuple[str, ...]:
    words: list[str] = []
    for part in (tool.namespace, tool.metadata.get("server")):
        if isinstance(part, str):
            words += [w for w in split_words(part) if w not in words]
    return tuple(words)


def _name_words(tool: Tool) -> tuple[str, ...]:
    """The words of the tool's own name: the name it was declared with (a gate name may
    be made from it), without the namespace prefix that the context already holds."""
    source = tool.metadata.get("source_name")
    words = split_words(source if isinstance(source, str) and source else tool.name)
    prefix = split_words(tool.namespace or "")
    if prefix and words[: len(prefix)] == prefix and len(words) > len(prefix):
        words = words[len(prefix) :]
    return words


def _properties(schema: Any, depth: int) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(name, schema) of every named property, depth first, through arrays and unions."""
    if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
        return
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        for name, sub in properties.items():
            if isinstance(sub, Mapping):
                yield str(name), sub
                yield from _properties(sub, depth + 1)
    for key in ("items", "additionalProperties"):
        yield from _properties(schema.get(key), depth + 1)
    for key in ("anyOf", "oneOf", "allOf"):
        variants = schema.get(key)
        if isinstance(variants, list):
            for variant in variants:
                yield from _properties(variant, depth + 1)
    definitions = schema.get("$defs") if depth == 0 else None
    if isinstance(definitions, Mapping):
        for sub in definitions.values():
            yield from _properties(sub, depth + 1)


def _enum_values(schema: Mapping[str, Any]) -> list[str]:
    """Allowed values of a parameter, also through `items` and `anyOf`/`oneOf` variants."""
    out: list[str] = []
    values = schema.get("enum")
    if isinstance(values, list):
        out += [
            str(v) for v in values if isinstance(v, str | int | float) and not isinstance(v, bool)
        ]
    for key in ("items", "anyOf", "oneOf"):
        nested = schema.get(key)
        for sub in nested if isinstance(nested, list) else [nested]:
            if isinstance(sub, Mapping):
                out += _enum_values(sub)
    return out
