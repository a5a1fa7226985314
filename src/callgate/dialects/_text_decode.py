"""Decode one payload found in model text into the calls it writes: JSON, pythonic or XML.

The shapes are the ones models write: `{"name", "arguments"}` (and its many key
spellings), flat `{"name": "f", "a": 1}`, `{"f": {...}}`, `[name, {args}]` pairs,
`f(a=1)` and lists of them, calls inside string literals (`['f(a=1)']`), and Qwen3-Coder
XML. Values are read by `_text_values` (literals only); what is not a literal stays an
`Expr` for the binder to judge. Tool declarations a model echoes back are not calls.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from callgate.dialects._text_names import Names
from callgate.dialects._text_values import (
    NO_VALUE,
    Expr,
    json_value,
    parse_lenient,
    parse_python,
    read_value,
    segment,
    split_top,
    to_value,
)

__all__ = ["Decoded", "RawCall", "decode", "decode_call", "decode_xml", "from_value"]

_ARG_KEYS = (
    "arguments",
    "parameters",
    "args",
    "params",
    "input",
    "tool_input",
    "action_input",
    "kwargs",
)
_NAME_KEYS = (
    "name",
    "tool",
    "tool_name",
    "function",
    "function_name",
    "func",
    "action",
    "api_name",
    "recipient_name",
)
_CALL_LIST = re.compile(r"[\[(]\s*[A-Za-z_][\w.\\]*\s*\(")
_QUOTED_KEY = re.compile(r"\s*([A-Za-z_]\w*)\s*=")
_META_KEYS = frozenset({"id", "type", "call_id", "tool_call_id", "index"})
_NAMED = re.compile(r"""["']?(?:name|tool|function|func)["']?\s*:\s*["']([^"'\n]{1,200})["']""")


@dataclass(frozen=True, kw_only=True, slots=True)
class RawCall:
    """A call as written, its tool resolved; arguments not yet checked against the schema."""

    name: str
    known: bool = True
    """False for a name no offered tool has (kept only inside call markup)."""
    arguments: Any = None
    """A dict whose values may hold `Expr`s, or one `Expr` for arguments unread."""
    positional: tuple[Any, ...] = ()
    repairs: tuple[str, ...] = ()
    statement: bool = True
    """False for a call inside an expression (`f(x)['a']`): the same one twice is one."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Decoded:
    calls: list[RawCall]
    dropped: list[str]
    """Fragments that looked like calls and were not taken, and why."""


def decode(body: str, names: Names, *, markup: bool = False) -> Decoded:
    """The calls in one payload of unknown form (JSON, pythonic, XML)."""
    text = body.strip()
    if text.startswith("<function="):  # the tag inside a value (`f(a="<function=g>")`) is text
        return Decoded(calls=decode_xml(text, names), dropped=[])
    notes: list[str] = []
    value = _json(text)
    parsed = _tree(text, notes) if value is NO_VALUE else None
    if parsed is not None:
        node, source = parsed
        calls = _python(node, source, names, notes)
        if calls is not None:
            return _done(calls, [], markup)
        if isinstance(node, ast.Dict | ast.List | ast.Tuple) and not notes:
            notes.append("read as Python literal syntax: the text is not valid JSON")
        if isinstance(node, ast.List | ast.Tuple):
            return _literal_items(node, source, names, notes, markup)
        value = to_value(node, source, notes)
    elif value is NO_VALUE and text[:1] in "{[(" and not _CALL_LIST.match(text):
        # JSON that no grammar reads is repaired; a list of pythonic calls is no JSON, and
        # its calls are read one by one where they are written.
        value = read_value(text, notes)
    if value is NO_VALUE:
        return _unread(text, names)
    dropped: list[str] = []
    calls = from_value(value, names, notes, dropped, markup=markup)
    return _done(calls, dropped, markup)


def _literal_items(
    node: ast.List | ast.Tuple, source: str, names: Names, notes: list[str], markup: bool
) -> Decoded:
    """The calls of a literal list, each item read with its own notes: a value computed
    in one call (`4.22 + 6.1`) is reported on that call only."""
    items = [(item, list(notes)) for item in node.elts]
    values = [to_value(item, source, own) for item, own in items]
    dropped: list[str] = []
    pair = _pair(values, names, [n for _, own in items for n in own])
    if pair is not None:
        return _done([pair], dropped, markup)
    calls = [
        c
        for value, (_, own) in zip(values, items, strict=True)
        for c in from_value(value, names, own, dropped, markup=markup)
    ]
    return _done(calls, dropped, markup)


def _tree(text: str, notes: list[str]) -> tuple[ast.expr, str] | None:
    """`parse_lenient`, and `recipe\\_search(...)` read without its Markdown escapes
    (invalid in Python, and never meant)."""
    parsed = parse_lenient(text, notes)
    if _unescape(text) == text:
        return parsed
    unescaped = parse_lenient(_unescape(text), [])
    if unescaped is not None and (parsed is None or ast.dump(parsed[0]) != ast.dump(unescaped[0])):
        notes.append("read Markdown escapes (\\_, \\*, \\{) as the characters they escape")
        return unescaped
    return parsed


def _json(text: str) -> Any:
    if text[:1] not in "{[":
        return NO_VALUE
    try:
        return json_value(text)
    except (ValueError, RecursionError):
        return NO_VALUE


def _done(calls: list[RawCall], dropped: list[str], markup: bool) -> Decoded:
    kept = [c for c in calls if c.known or markup]
    return Decoded(calls=kept, dropped=dropped)


_MARKDOWN_ESCAPE = re.compile(r"(?<!\\)\\([_*{}\[\]])")


def _unescape(text: str) -> str:
    """Markdown escapes models put in code (`recipe\\_search`, `5\\*12`, `\\{'a': 1}`)."""
    return _MARKDOWN_ESCAPE.sub(r"\1", text) if "\\" in text else text


def _unread(text: str, names: Names) -> Decoded:
    """Text no reading accepts: a call whose name is legible gets an argument error."""
    named = _NAMED.search(text)
    found = names.find(named.group(1)) if named else None
    if found is None:
        return Decoded(calls=[], dropped=[])
    reason = "arguments that no JSON or Python reading accepts"
    return Decoded(
        calls=[
            RawCall(
                name=found[0],
                arguments=Expr(source=text, reason=reason),
                repairs=(*found[1], f"the call's {reason}"),
            )
        ],
        dropped=[],
    )


# --- JSON shapes --------------------------------------------------------------------------


def from_value(
    value: Any, names: Names, notes: list[str], dropped: list[str], *, markup: bool = False
) -> list[RawCall]:
    """Calls in a decoded value, in the shapes models write them."""
    if isinstance(value, list):
        pair = _pair(value, names, notes)
        if pair is not None:
            return [pair]
        return [c for item in value for c in from_value(item, names, notes, dropped, markup=markup)]
    if isinstance(value, str):
        node = parse_python(_unescape(value)) if "(" in value else None
        found = _python(node, _unescape(value), names, notes) if node is not None else None
        return found or []
    if not isinstance(value, Mapping):
        return []
    # `tool_uses` is the list under OpenAI's `multi_tool_use.parallel` recipient.
    for wrapper in ("tool_calls", "function_call", "calls", "function_calls", "tool_uses"):
        if isinstance(value.get(wrapper), list | Mapping):
            return from_value(value[wrapper], names, notes, dropped, markup=markup)
    if isinstance(value.get("function"), Mapping):
        inner = dict(value["function"])
        return from_value(inner, names, notes, dropped, markup=markup)
    key = next((k for k in _NAME_KEYS if isinstance(value.get(k), str)), None)
    if key is None:
        return _keyed(value, names, notes)
    return _named(value, key, names, notes, dropped, markup)


def _named(
    value: Mapping[str, Any],
    key: str,
    names: Names,
    notes: list[str],
    dropped: list[str],
    markup: bool,
) -> list[RawCall]:
    written = value[key]
    found = names.find(written)
    name, more = found if found else (written, [])
    arg_key = next((k for k in _ARG_KEYS if k in value), None)
    if arg_key is None:
        args: Any = {k: v for k, v in value.items() if k != key and k not in _META_KEYS}
        if args:
            more.append(f"read the keys beside {key!r} as the arguments")
    else:
        args = _string_arguments(value[arg_key], notes)
    if _declaration(args, names.params(name)):
        dropped.append(f"a declaration of the tool {written!r} written back, not a call")
        return []
    return [
        RawCall(
            name=name,
            known=found is not None,
            arguments=args,
            repairs=tuple(dict.fromkeys([*notes, *more])),
        )
    ]


def _keyed(value: Mapping[str, Any], names: Names, notes: list[str]) -> list[RawCall]:
    """`{"tool_name": {...arguments}}`, one call per key that names a tool."""
    calls = []
    for written, args in value.items():
        found = names.find(written)
        if found is None or not isinstance(args, Mapping):
            return []
        calls.append(RawCall(name=found[0], arguments=dict(args), repairs=(*notes, *found[1])))
    return calls


def _pair(value: list[Any], names: Names, notes: list[str]) -> RawCall | None:
    """`[name, {args}]`, `(name, {args})`, and `[name, 'a=1', 'b=2']` (keywords written
    inside quotes, each naming a parameter)."""
    if len(value) < 2 or not isinstance(value[0], str):
        return None
    found = names.find(value[0])
    if found is None:
        return None
    if len(value) > 2 or not isinstance(value[1], Mapping):
        params = set(names.params(found[0]))
        keys = [_QUOTED_KEY.match(v) if isinstance(v, str) else None for v in value[1:]]
        if not all(k is not None and k.group(1) in params for k in keys):
            return None
        repairs = (*notes, *found[1], "read a [name, 'key=value', ...] list as a call")
        written = [k.group(1) for k in keys if k is not None]
        empty = any(not v[k.end() :].strip() for v, k in zip(value[1:], keys, strict=True) if k)
        if len(set(written)) < len(written) or empty:
            # The keyword reader would reject these, and the strings be bound by position.
            reason = "a [name, 'key=value', ...] list with a key repeated or without a value"
            source = json.dumps(value[1:], default=repr)
            return RawCall(
                name=found[0], arguments=Expr(source=source, reason=reason), repairs=repairs
            )
        return RawCall(name=found[0], arguments={}, positional=tuple(value[1:]), repairs=repairs)
    args: Any = dict(value[1])
    wrapper = next(iter(args)) if len(args) == 1 else None
    if wrapper in _ARG_KEYS and wrapper not in names.params(found[0]):
        # ["f", {"arguments": {...}}]: the arguments under their usual key.
        args = _string_arguments(args[wrapper], notes)
    repairs = (*notes, *found[1], "read a [name, arguments] pair as a call")
    return RawCall(name=found[0], arguments=args, repairs=repairs)


def _string_arguments(args: Any, notes: list[str]) -> Any:
    """Arguments given as JSON text inside the JSON (OpenAI's own convention)."""
    if not isinstance(args, str):
        return args
    if not args.strip():
        return {}
    value = read_value(args, notes)
    if isinstance(value, dict):
        return value
    return Expr(source=args, reason="arguments text that is not a JSON object")


def _declaration(args: Any, params: list[str]) -> bool:
    """An echoed tool declaration: the "arguments" are a JSON Schema of an object (its
    properties hold schemas, not values)."""
    if not isinstance(args, Mapping) or "properties" in params:
        return False
    props = args.get("properties")
    if not isinstance(props, Mapping) or args.get("type") not in ("object", "dict", None):
        return False
    return not props or any(isinstance(v, Mapping) for v in props.values())


# --- Python calls -------------------------------------------------------------------------


def _python(node: ast.expr, source: str, names: Names, notes: list[str]) -> list[RawCall] | None:
    """Calls of known tools in a Python expression, in source order; None when none.

    A dict or a list of dicts is data (JSON in Python spelling), read by `from_value`.
    """
    items = node.elts if isinstance(node, ast.List | ast.Tuple) else [node]
    if any(isinstance(item, ast.Dict) for item in items):
        return None
    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call) and _known(n, names)]
    if not calls:
        strings = _string_calls(node, names, notes)
        return strings or None
    calls.sort(key=lambda n: (n.lineno, n.col_offset))
    direct = {id(item) for item in items}
    return [
        replace(_python_call(n, source, names, list(notes)), statement=id(n) in direct)
        for n in calls
    ]


def _known(node: ast.Call, names: Names) -> bool:
    written = _callee(node.func)
    return written is not None and names.find(written) is not None


def _callee(node: ast.expr) -> str | None:
    """The name a call is written with: `f`, `a.b.f`. A quoted name before `(` is not one:
    prose lists names with notes (`["search" (beta)]`)."""
    return _dotted(node)


def _string_calls(node: ast.expr, names: Names, notes: list[str]) -> list[RawCall]:
    """`['f(a=1)', 'g(b=2)']`: calls written inside string literals."""
    items = node.elts if isinstance(node, ast.List | ast.Tuple) else [node]
    out: list[RawCall] = []
    for item in items:
        if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
            return []
        inner = parse_python(_unescape(item.value))
        found = _python(inner, _unescape(item.value), names, notes) if inner else None
        if not found:
            return []
        out += [_note(c, "read a call written inside a string") for c in found]
    return out


def _python_call(node: ast.Call, source: str, names: Names, notes: list[str]) -> RawCall:
    written = _callee(node.func) or ""
    found = names.find(written)
    assert found is not None
    count = len(node.args) + len(node.keywords)
    if count > MAX_ARGUMENTS:
        reason = f"{count} arguments, more than the {MAX_ARGUMENTS} read"
        return RawCall(
            name=found[0],
            arguments=Expr(source=_inside(segment(node, source)), reason=reason),
            repairs=(*notes, *found[1], f"the call's {reason}"),
        )
    kwargs: dict[str, Any] = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            kwargs["**"] = Expr(source=segment(keyword.value, source), reason="a ** expansion")
        else:
            kwargs[keyword.arg] = to_value(keyword.value, source, notes)
    params = names.params(found[0])
    positional = tuple(
        Expr(source=segment(a, source), reason="a * expansion")
        if isinstance(a, ast.Starred)
        else _shorthand(a, params, notes) or to_value(a, source, notes)
        for a in node.args
    )
    return RawCall(
        name=found[0],
        arguments=kwargs,
        positional=positional,
        repairs=tuple(dict.fromkeys([*notes, *found[1]])),
    )


def _inside(call: str) -> str:
    """What stands between the parentheses of a call's source text."""
    return call[call.index("(") + 1 : -1].strip()


def _shorthand(node: ast.expr, params: list[str], notes: list[str]) -> dict[str, Any] | None:
    """`f({formId, action})`: JavaScript's shorthand object, `{formId: formId, ...}`,
    which Python reads as a set; taken so only when every name is a parameter."""
    if not isinstance(node, ast.Set) or not all(isinstance(e, ast.Name) for e in node.elts):
        return None
    keys = [e.id for e in node.elts if isinstance(e, ast.Name)]
    if not set(keys) <= set(params):
        return None
    notes.append("read a JavaScript shorthand object ({a, b}) as {a: a, b: b}")
    return {k: Expr(source=k, reason=f"the name {k!r}", bare=True) for k in keys}


def _note(call: RawCall, note: str) -> RawCall:
    return RawCall(
        name=call.name,
        known=call.known,
        arguments=call.arguments,
        positional=call.positional,
        repairs=(*call.repairs, note),
    )


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def decode_call(span: str, names: Names) -> Decoded:
    """`name(...)` at a tool's name: read by `ast`, else argument by argument, so a call
    whose syntax is clear keeps its name even where its values are not literals."""
    decoded = decode(span, names)
    if decoded.calls:
        return decoded
    match = _CALL.match(span)
    found = names.find(match.group(1)) if match else None
    if match is None or found is None:
        return decoded
    notes = list(found[1])
    body = match.group(2)
    if body.rstrip().endswith(")"):
        body = body.rstrip()[:-1]
    else:
        notes.append("the call is cut off before its closing parenthesis")
    kwargs: dict[str, Any] = {}
    positional: list[Any] = []
    params = names.params(found[0])
    parts = split_top(body)
    if len(parts) > MAX_ARGUMENTS:
        # Each part is tried as JSON, Python and repaired JSON: a text of 100,000 commas
        # took seconds, and no tool takes that many arguments.
        reason = f"{len(parts)} arguments, more than the {MAX_ARGUMENTS} read one by one"
        call = RawCall(
            name=found[0],
            arguments=Expr(source=body.strip(), reason=reason),
            repairs=(*notes, f"the call's {reason}"),
        )
        return Decoded(calls=[call], dropped=decoded.dropped)
    if _signature(parts, params):
        dropped = [f"{found[0]}: its signature written out (types and parameter names), not a call"]
        return Decoded(calls=[], dropped=[*decoded.dropped, *dropped])
    for part in parts:
        keyword = _KEYWORD.match(part)
        if keyword and (keyword.group(2) == "=" or keyword.group(1) in params):
            kwargs[keyword.group(1)] = _loose_value(keyword.group(3), notes)
        else:
            positional.append(_loose_value(part, notes))
    notes.append("read argument by argument: the call is not valid Python")
    call = RawCall(
        name=found[0], arguments=kwargs, positional=tuple(positional), repairs=tuple(notes)
    )
    return Decoded(calls=[call], dropped=decoded.dropped)


MAX_ARGUMENTS = 256
"""Most arguments a call is read with; past that its arguments are one `Expr` (no tool
takes that many, and each is read and bound on its own)."""
_CALL = re.compile(r"\s*([\w.\\-]+)\s*\((.*)\Z", re.S)
_TYPED = re.compile(
    r"\s*(?:final\s+)?[A-Za-z_][\w.]*(?:\s*<[^()]*>)?(?:\s*\[\s*\])*\s+([A-Za-z_]\w*)\s*"
)
_TYPE_AFTER = re.compile(r"\s*([A-Za-z_]\w*)\s*:\s*([A-Za-z_][\w.]*(?:<[^()]*>)?(?:\[\])*)\s*")
_TYPE_NAMES = frozenset(
    {
        *("string", "number", "boolean", "bool", "any", "object", "int", "integer", "float"),
        *("double", "long", "str", "list", "dict", "array", "tuple", "void", "String"),
        *("Number", "Boolean", "Object", "Integer", "Long", "Double", "Float"),
    }
)


def _signature(parts: list[str], params: list[str]) -> bool:
    """`f(String insn, boolean isRange)` or `f(insn: string)`: each argument declares a
    parameter of the tool by type, as a definition does; a call passes values."""
    if not parts:
        return False
    for part in parts:
        typed, after = _TYPED.fullmatch(part), _TYPE_AFTER.fullmatch(part)
        if typed is not None and typed.group(1) in params:
            continue
        if after is not None and after.group(1) in params and after.group(2) in _TYPE_NAMES:
            continue
        return False
    return True


_KEYWORD = re.compile(r"\s*([A-Za-z_]\w*)\s*(=(?!=)|:(?!//))\s*(.*?)\s*\Z", re.S)
_WORDS = re.compile(r"[\w][\w .:/@#&+'\-]*")


def _loose_value(text: str, notes: list[str]) -> Any:
    text = text.strip()
    node = parse_python(_unescape(text))
    if node is not None:
        return to_value(node, _unescape(text), notes)
    value = read_value(text, notes) if text[:1] in ("{", "[") else NO_VALUE  # not "" in "{["
    if value is not NO_VALUE:
        return value
    if _WORDS.fullmatch(text):
        return Expr(source=text.rstrip(), reason="unquoted text", bare=True)
    return Expr(source=text, reason="text that is not a value")


# --- Qwen3-Coder XML ----------------------------------------------------------------------

_FUNCTION = re.compile(r"<function=([^>\s]+)>(.*?)(?:</function>|(?=<function=)|\Z)", re.S)
_PARAMETER = re.compile(
    r"<parameter=([^>\s]+)>\n?(.*?)\n?(?:</parameter>|(?=<parameter=)|(?=</function>)|\Z)", re.S
)


def decode_xml(payload: str, names: Names) -> list[RawCall]:
    """Every `<function=name>...</function>` of a payload (`decode_function`)."""
    return [decode_function(written, body, names) for written, body in _FUNCTION.findall(payload)]


def decode_function(written: str, body: str, names: Names) -> RawCall:
    """`<function=name><parameter=key>value</parameter></function>` (Qwen3-Coder), or a JSON
    object as the body (Llama 3.1, functionary v3.1); `body` is what stands between the
    tags. A JSON body no reading accepts is the call with an argument error.

    Parameter values are text by the format's own convention; the schema types them later.
    """
    found = names.find(written)
    name, repairs = (found[0], tuple(found[1])) if found else (written, ())
    if "<parameter=" not in body and body.strip().startswith("{"):
        # Llama 3.1's and functionary's `<function=name>{"a": 1}</function>`.
        notes: list[str] = []
        value = read_value(body.strip(), notes)
        if isinstance(value, dict):
            wrapped = {"name": written, "arguments": value}
            calls = from_value(wrapped, names, notes, [], markup=True)
            if calls:
                return calls[0]
        reason = "arguments that no JSON or Python reading accepts"
        return RawCall(
            name=name,
            known=found is not None,
            arguments=Expr(source=body.strip(), reason=reason),
            repairs=(*repairs, f"the call's {reason}"),
        )
    return RawCall(
        name=name,
        known=found is not None,
        arguments={k: v for k, v in _PARAMETER.findall(body)},
        repairs=repairs,
    )
