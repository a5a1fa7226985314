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

__all__ = ["Card", "card_for", "split_words"]

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

    def text(self) -> str:
        """The card as one compact passage (for embeddings and for people)."""
        parts = [" ".join(self.words) + "."]
        if self.description:
            parts.append(self.description)
        if self.parameters:
            parts.append("Parameters: " + "; ".join(self.parameters) + ".")
        if self.enums:
            parts.append("Values: " + ", ".join(self.enums) + ".")
        if self.tags:
            parts.append("Tags: " + ", ".join(self.tags) + ".")
        return " ".join(parts)


def card_for(tool: Tool) -> Card:
    """The card of `tool`."""
    words = split_words(tool.name)
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
    )


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
