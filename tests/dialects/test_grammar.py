"""Call grammars compiled by the engines' own bindings accept every gold call of BFCL and
reject every invalid variant; no model is needed, only a byte-level vocabulary."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from callgate._errors import MissingExtraError
from callgate.contract import Tool, tool_from_declaration
from callgate.dialects import CallGrammar, call_grammar, extract_calls
from callgate.schema import compile_schema
from tests.conftest import needs, require

GRAMMAR = needs("llguidance", "outlines_core", extra="grammar")
"""The engines' own bindings; the grammars themselves need no extra."""

Accepts = Callable[[str], bool]
CATEGORIES = (
    "simple_python",
    "simple_java",
    "simple_javascript",
    "multiple",
    "parallel",
    "parallel_multiple",
    "live_simple",
    "live_multiple",
    "live_parallel",
    "live_parallel_multiple",
)


class _Bytes:
    """A 256-token vocabulary, one token per byte, and an end token: any text tokenizes."""

    def __init__(self) -> None:
        self.tokens = [bytes([i]) for i in range(256)] + [b"<eos>"]
        self.eos_token_id = 256
        self.bos_token_id = None
        self.special_token_ids = [256]

    def __call__(self, data: bytes | str) -> list[int]:
        return list(data.encode() if isinstance(data, str) else data)


@cache
def _tokenizer() -> Any:
    import llguidance

    return llguidance.LLTokenizer(llguidance.TokenizerWrapper(_Bytes()))


@cache
def _vocabulary() -> Any:
    import outlines_core

    return outlines_core.Vocabulary(256, {bytes([i]): [i] for i in range(256)})


class Unsatisfiable(Exception):
    """The engine proved that no value fits the schema (a defect of the catalog)."""


def llguidance_accepts(grammar: CallGrammar) -> Accepts:
    import llguidance

    tokenizer = _tokenizer()
    compiled = grammar.llguidance()
    error, messages = llguidance.LLMatcher.validate_grammar_with_warnings(compiled, tokenizer)
    if error and "Unsatisfiable" in messages[0]:
        raise Unsatisfiable(messages[0])
    assert not error, messages

    def accepts(text: str) -> bool:
        matcher = llguidance.LLMatcher(tokenizer, compiled, log_level=0)
        return bool(matcher.consume_tokens(tokenizer.tokenize_str(text)) and matcher.is_accepting())

    return accepts


def outlines_accepts(grammar: CallGrammar) -> Accepts:
    import outlines_core

    index = outlines_core.Index(grammar.regex(), _vocabulary())

    def accepts(text: str) -> bool:
        state = index.get_initial_state()
        for byte in text.encode():
            state = index.get_next_state(state, byte)
            if state is None:
                return False
        return bool(index.is_final_state(state))

    return accepts


def xgrammar_accepts(grammar: CallGrammar) -> Accepts:
    require("xgrammar", extra="xgrammar")
    import xgrammar as xgr

    info = xgr.TokenizerInfo([bytes([i]) for i in range(256)])
    compiled = xgr.GrammarCompiler(info).compile_grammar(grammar.ebnf())

    def accepts(text: str) -> bool:
        matcher = xgr.GrammarMatcher(compiled)
        return all(matcher.accept_token(b) for b in text.encode()) and matcher.is_terminated()

    return accepts


ENGINES = {"llguidance": llguidance_accepts, "outlines": outlines_accepts}


# --- the BFCL catalog ---------------------------------------------------------------------


def _entries(data_dir: Path) -> Iterator[tuple[str, list[Tool], list[dict[str, Any]]]]:
    root = data_dir / "bfcl"
    for category in CATEGORIES:
        questions = _jsonl(root / f"BFCL_v4_{category}.json")
        answers = {
            a["id"]: a for a in _jsonl(root / "possible_answer" / f"BFCL_v4_{category}.json")
        }
        for question in questions:
            tools: dict[str, Tool] = {}
            for decl in question["function"]:
                tool = tool_from_declaration(decl)
                tools.setdefault(tool.name, tool)
            yield question["id"], list(tools.values()), answers[question["id"]]["ground_truth"]


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _first(alternatives: list[Any]) -> Any:
    return next((_unwrap(v) for v in alternatives if v != ""), _OMIT)


_OMIT = object()


def _unwrap(value: Any) -> Any:
    """Gold values hold alternatives inside dicts too (BFCL's convention)."""
    if isinstance(value, dict):
        out = {}
        for key, alternatives in value.items():
            chosen = _first(alternatives) if isinstance(alternatives, list) else alternatives
            if chosen is not _OMIT:
                out[key] = chosen
        return out
    if isinstance(value, list):
        return [_unwrap(v) for v in value]
    return value


def _gold_calls(
    tools: list[Tool], truth: list[dict[str, Any]], grammar: CallGrammar
) -> list[dict[str, Any]]:
    by_source = {t.metadata.get("source_name", t.name): t for t in tools}
    out = []
    for item in truth:
        ((name, params),) = item.items()
        tool = by_source.get(name) or next(t for t in tools if t.name == name.replace(".", "_"))
        arguments = {k: _first(v) for k, v in params.items()}
        arguments = {k: v for k, v in arguments.items() if v is not _OMIT}
        out.append(
            {
                "name": grammar.aliases.to_wire(tool.name),
                "arguments": _ordered(arguments, tool.input_schema),
            }
        )
    return out


def _ordered(value: Any, schema: Any) -> Any:
    """Keys in declared order: the engines generate (so accept) properties in that order."""
    if not isinstance(schema, dict):
        return value
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        props = schema["properties"]
        keys = [k for k in props if k in value] + [k for k in value if k not in props]
        return {k: _ordered(value[k], props.get(k)) for k in keys}
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_ordered(v, schema["items"]) for v in value]
    return value


def _variants(call: dict[str, Any], tool: Tool) -> Iterator[tuple[str, dict[str, Any]]]:
    """Invalid neighbours of a gold call: wrong type, missing required, enum miss, extra."""
    props = tool.input_schema.get("properties") or {}
    args = call["arguments"]
    for key, value in args.items():
        wrong: Any = "not a number" if isinstance(value, int | float) else 12345
        yield "wrong type", {**call, "arguments": {**args, key: wrong}}
        enum = props.get(key, {}).get("enum")
        if isinstance(enum, list):
            yield "enum miss", {**call, "arguments": {**args, key: "zz-not-an-option"}}
    for key in tool.input_schema.get("required") or []:
        if key in args:
            rest = {k: v for k, v in args.items() if k != key}
            yield "missing required", {**call, "arguments": rest}
    yield "extra field", {**call, "arguments": {**args, "zz_extra": 1}}


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("engine", list(ENGINES))
@GRAMMAR
def test_bfcl_gold_calls_are_accepted_and_invalid_variants_rejected(
    data_dir: Path, engine: str
) -> None:
    golds = rejected = skipped = 0
    for uid, tools, truth in _entries(data_dir):
        grammar = call_grammar(tools, wrapper="json", parallel=False)
        valid = compile_schema(grammar.schema)
        try:
            accepts = ENGINES[engine](grammar)
        except Unsatisfiable:
            # BFCL's live_simple_71-35-0 declares an array whose enum holds only strings.
            assert not any(valid.is_valid(c) for c in _gold_calls(tools, truth, grammar)), uid
            skipped += 1
            continue
        by_wire = {grammar.aliases.to_wire(t.name): t for t in tools}
        for call in _gold_calls(tools, truth, grammar):
            if not valid.is_valid(call):
                skipped += 1  # a gold value outside its own schema (Java source text, ...)
                continue
            assert accepts(_compact(call)), (uid, call)
            golds += 1
            for kind, variant in _variants(call, by_wire[call["name"]]):
                if valid.is_valid(variant):
                    continue  # e.g. a wrong type an untyped parameter accepts
                assert not accepts(_compact(variant)), (uid, kind, variant)
                rejected += 1
    # Measured: 3,097 gold calls and 18,651 invalid variants (8,600 wrong types, 5,797
    # missing required, 3,097 extra fields, 1,157 enum misses) for both engines.
    assert golds > 3000 and rejected > 18_000 and skipped < golds / 10


@GRAMMAR
def test_the_text_wrapper_is_what_the_text_prompt_asks_for_and_extract_reads() -> None:
    tool = Tool(
        name="notes-create",
        description="Create a note.",
        input_schema={
            "type": "object",
            "properties": {"title": {"type": "string"}, "tags": {"type": "array"}},
            "required": ["title"],
        },
    )
    grammar = call_grammar([tool])
    one = '<tool_call>\n{"name": "notes_create", "arguments": {"title": "a"}}\n</tool_call>'
    compact = one.replace(": ", ":").replace(", ", ",")
    for engine in ENGINES:
        accepts = ENGINES[engine](grammar)
        assert accepts(compact)
        assert not accepts('{"name":"notes_create","arguments":{"title":"a"}}')
    assert llguidance_accepts(grammar)(f"{compact}\n{one}")  # several blocks, any spacing
    # outlines-core's index ends at the first complete match: one block, and it says so.
    assert not outlines_accepts(grammar)(f"{compact}\n{compact}")
    assert [g.keyword for g in grammar.unenforced("outlines")] == ["parallel"]
    (call,) = extract_calls(one, [tool]).calls
    assert call.name == "notes-create" and call.arguments == {"title": "a"}


@GRAMMAR
def test_one_or_many_tools_and_calls() -> None:
    tools = [
        Tool(
            name="a",
            description="",
            input_schema={"type": "object", "properties": {"x": {"type": "integer"}}},
        ),
        Tool(
            name="b",
            description="",
            input_schema={"type": "object", "properties": {"y": {"type": "boolean"}}},
        ),
    ]
    many = call_grammar(tools, wrapper="json", parallel=True)
    for engine in ENGINES:
        accepts = ENGINES[engine](many)
        assert accepts('[{"name":"a","arguments":{"x":1}},{"name":"b","arguments":{"y":true}}]')
        assert not accepts('[{"name":"a","arguments":{"y":true}}]')
        assert not accepts('[{"name":"c","arguments":{}}]')


@GRAMMAR
def test_keywords_an_engine_cannot_express_are_reported_and_left_to_the_host() -> None:
    tool = Tool(
        name="book",
        description="",
        input_schema={
            "type": "object",
            "properties": {
                "days": {"type": "integer", "minimum": 1, "maximum": 7},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            },
            "required": ["days"],
        },
    )
    grammar = call_grammar([tool], wrapper="json", parallel=False)
    outlines = {(g.path, g.keyword) for g in grammar.unenforced("outlines")}
    assert ("/properties/days", "minimum") in outlines
    assert ("/properties/tags", "uniqueItems") in outlines
    assert {g.keyword for g in grammar.unenforced("llguidance")} == {"uniqueItems"}
    # What outlines-core lets through, the host still refuses.
    nine = '{"name":"book","arguments":{"days":9}}'
    assert outlines_accepts(grammar)(nine) and not llguidance_accepts(grammar)(nine)
    assert not compile_schema(tool.input_schema).is_valid({"days": 9})


def test_xgrammar_accepts_the_same_calls() -> None:
    tool = Tool(
        name="w",
        description="",
        input_schema={"type": "object", "properties": {"c": {"type": "string"}}, "required": ["c"]},
    )
    accepts = xgrammar_accepts(call_grammar([tool]))
    assert accepts('<tool_call>\n{"name":"w","arguments":{"c":"x"}}\n</tool_call>')
    assert not accepts('<tool_call>\n{"name":"w","arguments":{}}\n</tool_call>')


def test_a_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "xgrammar", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'callgate\[xgrammar\]'"):
        call_grammar([]).ebnf()
