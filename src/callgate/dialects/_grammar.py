"""A catalog's call format as a grammar, for local engines that constrain decoding.

The format is the one text mode asks for: `{"name": <tool>, "arguments": {...}}`, one
object per call, optionally inside `<tool_call>` blocks. `call_grammar` builds it once
as JSON Schema (which vLLM, SGLang, llama.cpp, xgrammar and outlines accept as such) and
renders it for each engine: a Lark grammar for llguidance (vLLM's and SGLang's guidance
backend, llama.cpp's `%llguidance`), EBNF for xgrammar, a regular expression for
outlines-core. What an engine cannot express is reported per keyword (`unenforced`) and
stays enforced by the host, which validates every call against the original schema.
Argument objects that declare no `additionalProperties` are closed, so a model cannot
invent a parameter (reported too).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from callgate._extras import require
from callgate.contract import Catalog, Tool
from callgate.dialects._aliases import Aliases, make_aliases
from callgate.dialects._kinds import Dialect
from callgate.dialects._walker import pointer_token

__all__ = ["CallGrammar", "Engine", "GrammarGap", "call_grammar"]

Engine = Literal["llguidance", "xgrammar", "outlines"]
Wrapper = Literal["json", "text"]

_OPEN = "<tool_call>\n"
_CLOSE = "\n</tool_call>"
_COMMON = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "oneOf",
        "$ref",
        "$defs",
        "definitions",
        "description",
        "title",
        "default",
        "examples",
        "$schema",
        "$id",
        "$comment",
    }
)
_SUPPORTED: Mapping[Engine, frozenset[str]] = {
    # llguidance's JSON compiler (docs/json_schema.md); it also names what it ignores.
    "llguidance": _COMMON
    | {
        "allOf",
        "minItems",
        "maxItems",
        "prefixItems",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minProperties",
        "maxProperties",
        "multipleOf",
    },
    # xgrammar's JSON Schema converter: no numeric bounds on floats, no multipleOf.
    "xgrammar": _COMMON
    | {
        "allOf",
        "minItems",
        "maxItems",
        "prefixItems",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
    },
    # outlines-core's regex builder keeps structure and string bounds, drops numeric ones.
    "outlines": _COMMON | {"allOf", "minItems", "maxItems", "minLength", "maxLength", "pattern"},
}
_OUTLINES_FORMATS = frozenset({"date-time", "date", "time", "uuid", "email", "uri"})


@dataclass(frozen=True, kw_only=True, slots=True)
class GrammarGap:
    """A schema keyword an engine's grammar does not enforce; the host still does."""

    engine: Engine | None
    """The engine concerned; None for a choice the grammar makes for every engine."""
    tool: str
    path: str
    """JSON pointer into the tool's input schema."""
    keyword: str
    message: str

    def __str__(self) -> str:
        return f"[{self.engine or 'grammar'}] {self.tool}{self.path}: {self.message}"


@dataclass(frozen=True, kw_only=True, slots=True)
class CallGrammar:
    """The call format of a catalog, for constrained decoding."""

    schema: dict[str, Any]
    """JSON Schema of one call: `{"name": ..., "arguments": ...}`, one branch per tool."""
    wrapper: Wrapper
    """`json`: bare call objects; `text`: each inside a `<tool_call>` block, as the text
    prompt asks (`render_tools(..., "text")`)."""
    parallel: bool
    """Several calls allowed (text wrapper: one block after another)."""
    aliases: Aliases = field(default_factory=Aliases)
    """The names calls carry are text mode's (Python identifiers); map them back with it."""
    closed: tuple[GrammarGap, ...] = ()
    """Objects closed to undeclared properties (stricter than the host, on purpose)."""
    tools: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Wire name -> the tool's input schema as the host validates it."""

    def lark(self) -> str:
        """A Lark grammar for llguidance (`LLMatcher.grammar_from_lark`, vLLM's and SGLang's
        `guidance` backend, llama.cpp's `%llguidance`); JSON parts are `%json` schemas."""
        call = "%json " + json.dumps(self.schema, ensure_ascii=False)
        if self.wrapper == "json":
            many = 'start: "[" call ("," call)* "]"' if self.parallel else "start: call"
            return f"{many}\ncall: {call}\n"
        block = f"block: {json.dumps(_OPEN)} call {json.dumps(_CLOSE)}"
        start = 'start: block ("\\n" block)*' if self.parallel else "start: block"
        return f"{start}\n{block}\ncall: {call}\n"

    def llguidance(self) -> str:
        """The grammar as `llguidance.LLMatcher` takes it (`callgate[grammar]`)."""
        module = require("llguidance", extra="grammar")
        if self.wrapper == "json" and not self.parallel:
            text: str = module.LLMatcher.grammar_from_json_schema(
                self.schema, overrides={"lenient": True}
            )
            return text
        return str(module.LLMatcher.grammar_from_lark(self.lark()))

    def regex(self) -> str:
        """A regular expression for outlines-core (`outlines_core.Index(regex, vocab)`),
        built by outlines-core itself (`callgate[grammar]`); properties come in their
        declared order, as outlines-core requires. Its index ends a generation at the
        first complete match, so with the text wrapper it allows one block (see
        `unenforced`); the JSON wrapper's array holds several calls."""
        module = require("outlines_core.json_schema", extra="grammar", package="outlines-core")
        # outlines-core refuses a node that only annotates (`{"description": ...}`).
        call = module.build_regex_from_schema(json.dumps(_bare(self.schema)), None)
        if self.wrapper == "text":
            return f"{_escape(_OPEN)}{call}{_escape(_CLOSE)}"
        return f"\\[({call})(,({call}))*\\]" if self.parallel else call

    def ebnf(self) -> str:
        """An EBNF grammar for xgrammar (`GrammarCompiler.compile_grammar`), built by
        xgrammar itself with compact separators (`callgate[xgrammar]`)."""
        xgr = require("xgrammar", extra="xgrammar")
        call = xgr.Grammar.from_json_schema(
            json.dumps(self.schema), any_whitespace=False, separators=(",", ":")
        )
        if self.wrapper == "json" and not self.parallel:
            return str(call)
        body = str(call).replace("root ::=", "call ::=", 1)
        if self.wrapper == "json":
            root = 'root ::= "[" call ("," call)* "]"'
        else:
            block = f"{json.dumps(_OPEN)} call {json.dumps(_CLOSE)}"
            root = f'root ::= {block} ("\\n" {block})*' if self.parallel else f"root ::= {block}"
        return f"{root}\n{body}"

    def unenforced(self, engine: Engine) -> tuple[GrammarGap, ...]:
        """The keywords of the tools' schemas `engine` does not enforce."""
        gaps: list[GrammarGap] = []
        if engine == "outlines" and self.wrapper == "text" and self.parallel:
            gaps.append(
                GrammarGap(
                    engine=engine,
                    tool="",
                    path="",
                    keyword="parallel",
                    message="outlines-core ends at the first complete block: one call per turn",
                )
            )
        for name, schema in self.tools.items():
            gaps += _gaps(engine, name, schema)
        return tuple(gaps)


def call_grammar(
    tools: Catalog | Iterable[Tool], *, wrapper: Wrapper = "text", parallel: bool = True
) -> CallGrammar:
    """The call format of `tools` for constrained decoding (see `CallGrammar`)."""
    listed = list(tools)
    aliases = make_aliases([t.name for t in listed], Dialect.TEXT)
    branches: list[dict[str, Any]] = []
    defs: dict[str, Any] = {}
    closed: list[GrammarGap] = []
    for index, tool in enumerate(listed):
        name = aliases.to_wire(tool.name)
        arguments = _embedded(dict(tool.input_schema), f"t{index}", defs, closed, name)
        branches.append(
            {
                "type": "object",
                "properties": {"name": {"const": name}, "arguments": arguments},
                "required": ["name", "arguments"],
                "additionalProperties": False,
            }
        )
    schema: dict[str, Any] = branches[0] if len(branches) == 1 else {"anyOf": branches}
    if not branches:
        schema = {"not": {}}
    if defs:
        schema = {**schema, "$defs": defs}
    return CallGrammar(
        schema=schema,
        wrapper=wrapper,
        parallel=parallel,
        aliases=aliases,
        closed=tuple(closed),
        tools={aliases.to_wire(t.name): t.input_schema for t in listed},
    )


def _embedded(
    schema: dict[str, Any], prefix: str, defs: dict[str, Any], closed: list[GrammarGap], tool: str
) -> dict[str, Any]:
    """`schema` ready to sit inside the call schema: its local `$ref`s point at its own
    definitions, moved to the root under `prefix`, and its objects closed."""
    own = {**(schema.get("definitions") or {}), **(schema.get("$defs") or {})}
    body = {k: v for k, v in schema.items() if k not in ("$defs", "definitions", "$schema", "$id")}
    body.setdefault("type", "object")
    refs = {"#": f"#/$defs/{prefix}"}
    for key in ("$defs", "definitions"):
        for name in schema.get(key) or {}:
            refs[f"#/{key}/{pointer_token(name)}"] = f"#/$defs/{prefix}.{pointer_token(name)}"
    if _self_referencing(schema):
        defs[prefix] = _rewrite(body, refs, closed, tool, "")
    for name, sub in own.items():
        where = f"/$defs/{pointer_token(name)}"
        defs[f"{prefix}.{name}"] = _rewrite(sub, refs, closed, tool, where)
    out: dict[str, Any] = _rewrite(body, refs, closed, tool, "")
    return out


def _self_referencing(schema: Mapping[str, Any]) -> bool:
    return '"$ref": "#"' in json.dumps(schema)


def _rewrite(
    node: Any, refs: Mapping[str, str], closed: list[GrammarGap], tool: str, path: str
) -> Any:
    if isinstance(node, list):
        return [_rewrite(v, refs, closed, tool, f"{path}/{i}") for i, v in enumerate(node)]
    if not isinstance(node, Mapping):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str):
            out[key] = refs.get(value, value)
        elif key in ("enum", "const", "default", "examples"):
            out[key] = value
        else:
            out[key] = _rewrite(value, refs, closed, tool, f"{path}/{pointer_token(key)}")
    if _is_object(out) and "additionalProperties" not in out and "properties" in out:
        out["additionalProperties"] = False
        closed.append(
            GrammarGap(
                engine=None,
                tool=tool,
                path=path,
                keyword="additionalProperties",
                message="closed to undeclared properties in the grammar",
            )
        )
    return out


def _is_object(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind)


_ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$comment"})


_ANY_VALUE = {
    "anyOf": [{"type": t} for t in ("string", "number", "boolean", "null", "array", "object")]
}


def _bare(node: Any) -> Any:
    """`node` without annotations, which constrain nothing, and with "any value" spelled
    out: outlines-core refuses a node that only annotates, and its regex for `{}` does
    not group its alternatives, so it breaks inside an object."""
    if isinstance(node, list):
        return [_bare(v) for v in node]
    if not isinstance(node, Mapping):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("properties", "$defs", "definitions") and isinstance(value, Mapping):
            out[key] = {k: _bare(v) for k, v in value.items()}
        elif key in ("enum", "const"):
            out[key] = value
        elif key not in _ANNOTATIONS:
            out[key] = _bare(value)
    return out or dict(_ANY_VALUE)


def _escape(text: str) -> str:
    # Only the metacharacters: Rust's regex reads `\<` and `\>` as word boundaries.
    return "".join(f"\\{c}" if c in "\\.^$|?*+()[]{}" else c for c in text).replace("\n", "\\n")


def _gaps(engine: Engine, tool: str, schema: Mapping[str, Any]) -> list[GrammarGap]:
    supported = _SUPPORTED[engine]
    gaps: list[GrammarGap] = []
    stack: list[tuple[Any, str]] = [(schema, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, list):
            stack += [(v, f"{path}/{i}") for i, v in enumerate(node)]
            continue
        if not isinstance(node, Mapping):
            continue
        for key, value in node.items():
            where = f"{path}/{pointer_token(key)}"
            if key not in supported or _weaker(engine, key, value, node):
                gaps.append(
                    GrammarGap(
                        engine=engine,
                        tool=tool,
                        path=path,
                        keyword=key,
                        message=f"'{key}' is not enforced by {engine}; the host validates it",
                    )
                )
            if key in ("properties", "$defs", "definitions", "patternProperties"):
                if isinstance(value, Mapping):
                    stack += [(v, f"{where}/{pointer_token(k)}") for k, v in value.items()]
            elif key not in ("enum", "const", "default", "examples", "required"):
                stack.append((value, where))
    return gaps


def _weaker(engine: Engine, key: str, value: Any, node: Mapping[str, Any]) -> bool:
    """A supported keyword an engine still enforces only in part."""
    if key == "format" and engine == "outlines":
        return value not in _OUTLINES_FORMATS
    if key == "additionalProperties" and engine == "outlines":
        return isinstance(value, Mapping)  # open maps are read as any object
    return key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") and (
        engine == "xgrammar" and node.get("type") != "integer"
    )
