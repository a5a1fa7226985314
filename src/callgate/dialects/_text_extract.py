"""Find tool calls in free text (dialects.md §8), for models without native tools.

Markup is read first (`<tool_call>`, `[TOOL_CALLS]`, `<|python_tag|>`, fenced code,
`<function=...>`), then bare JSON and pythonic calls in the prose. Only calls of known
tools count: text that merely contains JSON stays text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from callgate.contract import Tool, ToolCall
from callgate.dialects._aliases import Aliases
from callgate.dialects._coerce import coerce_arguments
from callgate.dialects._data import new_call_id
from callgate.dialects._text_decode import (
    RawCall,
    calls_from_value,
    decode_json,
    decode_python,
    decode_xml,
)

__all__ = ["Extracted", "extract_calls"]

_TAGGED = re.compile(r"<tool_call>(.*?)(?:</tool_call>|(?=<tool_call>)|\Z)", re.S)
_MISTRAL = re.compile(r"\[TOOL_CALLS\](.*?)(?=\[TOOL_CALLS\]|</s>|\Z)", re.S)
_PYTHON_TAG = re.compile(r"<\|python_tag\|>(.*?)(?=<\|eom_id\|>|<\|eot_id\|>|\Z)", re.S)
_FENCE = re.compile(r"```[ \t]*([\w+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)
_XML = re.compile(r"<function=[^>\s]+>.*?(?:</function>|\Z)", re.S)
_NOISE = re.compile(r"<\|eom_id\|>|<\|eot_id\|>|</s>|</?tool_call>")
_MISTRAL_V11 = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*(?=[{\[])", re.S)


@dataclass(frozen=True, kw_only=True, slots=True)
class Extracted:
    """What a model's text contained: prose, and calls of known tools."""

    text: str
    """The prose left when the calls' markup is taken out (all of it when no call)."""
    calls: tuple[ToolCall, ...] = ()
    """Calls in the order written; ids are generated (`synthetic_id`)."""


def extract_calls(text: str, tools: Iterable[Tool], *, aliases: Aliases | None = None) -> Extracted:
    """The calls of `tools` written anywhere in `text`, repairs reported per call.

    Arguments are typed by the tool's schema where the intent is unambiguous ("3" for
    an integer); such coercions, JSON repairs and positional arguments all appear in
    `ToolCall.repairs`.
    """
    names = _Names(tools, aliases)
    spans: list[tuple[int, int, list[ToolCall]]] = []
    for start, end, raws in _marked(text):
        calls = names.resolve(raws)
        if calls and not _inside(start, end, [(s, e) for s, e, _ in spans]):
            spans.append((start, end, calls))
    spans += _bare(text, spans, names)
    if not spans:
        return Extracted(text=text.strip())
    spans.sort(key=lambda s: s[0])
    return Extracted(text=_prose(text, spans), calls=tuple(c for s in spans for c in s[2]))


class _Names:
    """Resolves written names (aliases, dotted groups, source names) to tools."""

    def __init__(self, tools: Iterable[Tool], aliases: Aliases | None) -> None:
        self.tools = {t.name: t for t in tools}
        self.lookup: dict[str, str] = {}
        for tool in self.tools.values():
            source = tool.metadata.get("source_name")
            for written in (tool.name, source, (aliases or Aliases()).to_wire(tool.name)):
                if isinstance(written, str):
                    self.lookup.setdefault(written, tool.name)
        self.folded = {k.lower(): v for k, v in self.lookup.items()}

    def find(self, written: str) -> tuple[str, list[str]] | None:
        if written in self.lookup:
            return self.lookup[written], []
        for guess in (written.replace(".", "_"), written.lower(), written.replace("-", "_")):
            name = self.lookup.get(guess) or self.folded.get(guess.lower())
            if name is not None:
                return name, [f"name {written!r} read as {name!r}"]
        return None

    def pattern(self) -> re.Pattern[str] | None:
        if not self.lookup:
            return None
        alternatives = sorted(self.lookup, key=len, reverse=True)
        return re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, alternatives)) + r")\s*\(")

    def resolve(self, raws: Iterable[RawCall]) -> list[ToolCall]:
        out = []
        for raw in raws:
            found = self.find(raw.name)
            if found is not None:
                out.append(self._call(raw, *found))
        return out

    def _call(self, raw: RawCall, name: str, notes: list[str]) -> ToolCall:
        tool = self.tools[name]
        notes = [*raw.repairs, *notes]
        args = raw.arguments
        if raw.positional and isinstance(args, dict):
            args, more = _positional(raw.positional, args, tool)
            notes += more
        if isinstance(args, dict):
            args, more = coerce_arguments(args, tool.input_schema, "text")
            notes += more
        return ToolCall(
            id=new_call_id(),
            name=name,
            synthetic_id=True,
            arguments=args if isinstance(args, dict | str) else json.dumps(args),
            repairs=tuple(notes),
        )


def _positional(
    values: tuple[object, ...], kwargs: dict[str, object], tool: Tool
) -> tuple[dict[str, object], list[str]]:
    props = [p for p in (tool.input_schema.get("properties") or {}) if p not in kwargs]
    out = dict(kwargs)
    notes = []
    for value, prop in zip(values, props, strict=False):
        out[prop] = value
        notes.append(f"positional argument read as '{prop}'")
    return out, notes


def _marked(text: str) -> Iterator[tuple[int, int, list[RawCall]]]:
    """Payloads inside markup, with the span of text each covers."""
    for pattern, decode in (
        (_TAGGED, _payload),
        (_MISTRAL, _mistral),
        (_PYTHON_TAG, _python_tag),
        (_XML, decode_xml),
    ):
        for match in pattern.finditer(text):
            body = match.group(1) if pattern.groups else match.group(0)
            yield match.start(), match.end(), decode(body)
    for match in _FENCE.finditer(text):
        yield match.start(), match.end(), _payload(match.group(2))


def _payload(body: str) -> list[RawCall]:
    """A payload of unknown form: XML, JSON (several separated by `;` too), or Python."""
    body = body.strip()
    if "<function=" in body:
        return decode_xml(body)
    if body[:1] in "{[":
        if len(list(_json_spans(body))) > 1:
            return _several_json(body)
        decoded = decode_json(body)
        if decoded is not None:
            calls = calls_from_value(*decoded)
            if calls:
                return calls
        return _several_json(body)
    return decode_python(body) or _several_json(body)


def _several_json(body: str) -> list[RawCall]:
    out: list[RawCall] = []
    for start, end in _json_spans(body):
        decoded = decode_json(body[start:end])
        if decoded is not None:
            out += calls_from_value(*decoded)
    return out


def _mistral(body: str) -> list[RawCall]:
    """`[{"name": ...}]` (before v11) or `name{...}` (v11 and later)."""
    named = _MISTRAL_V11.match(body)
    if named is None:
        return _payload(body)
    decoded = decode_json(body[named.end() :].strip())
    if decoded is None:
        return []
    value, notes = decoded
    if isinstance(value, dict):
        return calls_from_value({"name": named.group(1), "arguments": value}, notes)
    return []


def _python_tag(body: str) -> list[RawCall]:
    """Llama: JSON calls separated by `;`, or pythonic calls."""
    return _payload(body) or _several_json(body)


def _bare(
    text: str, spans: list[tuple[int, int, list[ToolCall]]], names: _Names
) -> list[tuple[int, int, list[ToolCall]]]:
    """Calls in the prose outside markup: JSON values and pythonic calls of known tools."""
    taken = [(s, e) for s, e, _ in spans]
    found: list[tuple[int, int, list[ToolCall]]] = []
    for start, end in _json_spans(text):
        if _inside(start, end, taken):
            continue
        calls = names.resolve(_span_calls(text[start:end]))
        if calls:
            found.append((start, end, calls))
            taken.append((start, end))
    pattern = names.pattern()
    for match in pattern.finditer(text) if pattern else ():
        end = _closing(text, match.end() - 1, "(", ")")
        if _inside(match.start(), end, taken):
            continue
        raws = decode_python(text[match.start() : end])
        calls = names.resolve(raws or [])
        if calls:
            found.append((match.start(), end, calls))
            taken.append((match.start(), end))
    return found


def _span_calls(span: str) -> list[RawCall]:
    decoded = decode_json(span)
    raws = calls_from_value(*decoded) if decoded else []
    if not raws and span.startswith("[") and "(" in span:
        raws = decode_python(span) or []  # a pythonic list: [f(a=1), g(b=2)]
    return raws


def _json_spans(text: str) -> Iterator[tuple[int, int]]:
    """Top-level `{...}` / `[...]` regions; an unclosed one runs to the end of the text."""
    i = 0
    while i < len(text):
        if text[i] in "{[":
            end = _closing(text, i, text[i], "}" if text[i] == "{" else "]")
            yield i, end
            i = end
        else:
            i += 1


def _closing(text: str, start: int, opening: str, closing: str) -> int:
    """Index after the bracket that closes `text[start]`, strings skipped; else the end."""
    depth = 0
    quote: str | None = None
    i = start
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = None
        elif char in "\"'" and (char == '"' or text[i - 1] in "=:,[({ \t\n"):
            quote = char
        elif char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def _inside(start: int, end: int, taken: Iterable[tuple[int, int]]) -> bool:
    return any(start < e and s < end for s, e in taken)


def _prose(text: str, spans: list[tuple[int, int, list[ToolCall]]]) -> str:
    out, at = [], 0
    for start, end, _ in spans:
        out.append(text[at:start])
        at = max(at, end)
    out.append(text[at:])
    joined = _NOISE.sub("", "".join(out))
    joined = re.sub(r"\[TOOL_CALLS\]|<\|python_tag\|>", "", joined)
    return re.sub(r"\n{3,}", "\n\n", joined).strip()
