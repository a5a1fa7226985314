"""Bind a call read from text to its tool: positional arguments, unquoted words, types.

What cannot be taken literally is never guessed: the call keeps the model's own text as
its arguments, which are not JSON, so the gate answers `invalid` and says what to send;
`ToolCall.repairs` names the argument and why.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from callgate._errors import shown
from callgate.contract import Tool, ToolCall
from callgate.dialects._coerce import accepted_types, coerce_arguments, drop_strict_nulls
from callgate.dialects._data import new_call_id
from callgate.dialects._text_assign import NOT_LITERAL
from callgate.dialects._text_decode import RawCall
from callgate.dialects._text_values import (
    NO_VALUE,
    Expr,
    exprs_in,
    read_value,
    segment,
    source_value,
)
from callgate.schema import resolve_local

__all__ = ["bind"]


Variables = Callable[[str], tuple[Any, tuple[str, ...]]]
"""The literal a name was assigned in the text before the call (else `NO_VALUE`), and
how it was read."""


def bind(
    raw: RawCall, tool: Tool | None, variables: Variables, order: Sequence[str] = ()
) -> ToolCall:
    """The canonical call for `raw`, typed by `tool`'s schema, every change reported;
    positional arguments go to the parameters in `order` (the text's own definition of
    the tool) where given, else in the order the schema declares them."""
    notes = list(raw.repairs)
    args = _substituted(raw.arguments, variables, notes)
    positional = _substituted(list(raw.positional), variables, notes)
    schema: Mapping[str, Any] = tool.input_schema if tool else {}
    if isinstance(args, dict) and isinstance(args.get("**"), dict):
        notes.append("read the ** expansion of a dict as keyword arguments")
        args = {**{k: v for k, v in args.items() if k != "**"}, **args["**"]}
    if isinstance(args, dict) and positional:
        positional = _quoted_keywords(positional, args, schema, notes)
    if isinstance(args, dict) and positional:
        args = _positional(tuple(positional), args, schema, notes, order)
    if isinstance(args, dict):
        args = _unwrapped(args, schema, notes)
    if isinstance(args, dict):
        args = _words(args, schema, notes)
    if isinstance(args, Expr) or exprs_in(args):
        return _invalid(raw, args, notes)
    if not isinstance(args, dict):
        notes.append("the arguments are not an object")
        return _call(raw, json.dumps(args, ensure_ascii=False), notes)
    if tool is not None:
        args, dropped = drop_strict_nulls(args, schema)
        args, more = coerce_arguments(args, schema, "text")
        notes += dropped + more
    return _call(raw, args, notes)


def _substituted(
    value: Any, variables: Variables, notes: list[str], within: frozenset[str] = frozenset()
) -> Any:
    """`value` with each variable replaced by the literal assigned to it; the names inside
    that literal are judged as if written in the call (a loop variable stays no value)."""
    if isinstance(value, Expr):
        if not value.bare:
            return value
        if value.source in within:
            return Expr(source=value.source, reason="a variable whose value holds itself")
        assigned, how = variables(value.source)
        if assigned is NO_VALUE:
            return value
        if isinstance(assigned, Expr) and assigned.bare:  # `who = c`: judged as `c`
            named: list[str] = []
            inner = _substituted(assigned, variables, named, within | {value.source})
            if inner is assigned:
                return value  # a name the text gives no value: the word written
            notes.append(f"read the variable {value.source} as the name {assigned.source}")
            notes += named
            return inner
        if isinstance(assigned, Expr):
            return assigned
        if assigned is NOT_LITERAL:
            return Expr(source=value.source, reason="a loop variable, which stands for many values")
        notes.append(f"read the variable {value.source} as the literal assigned to it before")
        notes += how
        return _substituted(assigned, variables, notes, within | {value.source})
    if isinstance(value, dict):
        return {k: _substituted(v, variables, notes, within) for k, v in value.items()}
    if isinstance(value, list):
        return [_substituted(v, variables, notes, within) for v in value]
    return value


def _call(raw: RawCall, arguments: dict[str, Any] | str, notes: list[str]) -> ToolCall:
    return ToolCall(
        id=new_call_id(),
        name=raw.name,
        synthetic_id=True,
        arguments=arguments,
        repairs=tuple(dict.fromkeys(notes)),
    )


# Matched against the stripped string: a lazy value followed by optional spaces would
# backtrack once per trailing space (quadratic over a long run of spaces).
_QUOTED_KEYWORD = re.compile(r"([A-Za-z_]\w*)\s*=\s*(\S.*)", re.S)
_NAME = re.compile(r"[A-Za-z_]\w*")


def _quoted_keywords(
    values: list[Any], kwargs: dict[str, Any], schema: Mapping[str, Any], notes: list[str]
) -> list[Any]:
    """`f('base=6', 'height=10')`: every positional argument a string naming a parameter
    and its value, keyword arguments written inside quotes. Moved into `kwargs` as text,
    which the schema then types ("6" for an integer is 6); else `values` unchanged."""
    props = _properties(schema)
    found = [_keyword_strings(v) if isinstance(v, str) else [] for v in values]
    pairs = [pair for listed in found for pair in listed]
    names = [name for name, _ in pairs]
    if not all(found) or len(set(names)) < len(names):
        return values
    if not set(names) <= set(props) - set(kwargs):
        return values
    for value, listed in zip(values, found, strict=True):
        for name, text in listed:
            quoted = len(text) > 1 and text[0] == text[-1] and text[0] in "\"'"
            kwargs[name] = text[1:-1] if quoted else text
        what = "keyword argument" if len(listed) == 1 else "keyword arguments"
        notes.append(f"read the string {value.strip()!r} as the {what}")
    return []


def _keyword_strings(value: str) -> list[tuple[str, str]]:
    """The keywords one string writes: `'a=1'`, or several, `'a=[1, 2], b=3'`, when the
    whole string reads as Python keyword arguments (each value kept as its text)."""
    text = value.strip()
    match = _QUOTED_KEYWORD.fullmatch(text)
    if match is None:
        return []
    if "," in match.group(2):
        source = f"_({text})"
        try:
            node = ast.parse(source, mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            node = None
        if isinstance(node, ast.Call) and not node.args and len(node.keywords) > 1:
            keywords = [_written_keyword(k, source) for k in node.keywords]
            if all(keywords):
                return [k for k in keywords if k is not None]
    return [(match.group(1), match.group(2))]


def _written_keyword(keyword: ast.keyword, source: str) -> tuple[str, str] | None:
    """`keyword`'s name and value text, or None when its name is not as written: `ast`
    folds names by NFKC (`ｌｉｍｉｔ` is `limit`), which a single keyword string does not."""
    written = _NAME.match(segment(keyword, source))
    text = segment(keyword.value, source)
    if keyword.arg is None or written is None or written.group() != keyword.arg or not text:
        return None
    return keyword.arg, text


def _positional(
    values: tuple[Any, ...],
    kwargs: dict[str, Any],
    schema: Mapping[str, Any],
    notes: list[str],
    order: Sequence[str],
) -> dict[str, Any]:
    props = _properties(schema)
    if order:
        notes.append(
            f"positional arguments bound in the order the text defines: {', '.join(order)}"
        )
        props = {p: props[p] for p in [*order, *(p for p in props if p not in order)]}
    free = [p for p in props if p not in kwargs]
    if len(values) == 1 and isinstance(values[0], str) and values[0].lstrip()[:1] == "{":
        parsed = read_value(values[0], [])
        if isinstance(parsed, dict) and _keywords_dict(parsed, props, schema):
            values = (parsed,)
    if len(values) == 1 and not kwargs and _keywords_dict(values[0], props, schema):
        notes.append("a single dict argument read as the keyword arguments")
        return dict(values[0])
    last = values[-1]
    later = free[len(values) - 1 :]
    if len(values) > 1 and isinstance(last, dict) and last and set(last) <= set(later):
        # f('johndoe', {validity: 3600}): an options object after positional arguments.
        notes.append("a trailing dict argument read as keyword arguments")
        kwargs = {**kwargs, **last}
        values = values[:-1]
        free = [p for p in props if p not in kwargs]
    out = dict(kwargs)
    for i, value in enumerate(values):
        if i < len(free):
            out[free[i]] = value
            notes.append(f"positional argument {i + 1} read as '{free[i]}'")
        else:
            out[f"*{i + 1}"] = Expr(
                source=_render(value),
                reason="a positional argument beyond the tool's parameters",
            )
    return out


_OBJECT = ("object", "dict")


def _unwrapped(args: dict[str, Any], schema: Mapping[str, Any], notes: list[str]) -> dict[str, Any]:
    """`f(properties={'a': 1, 'b': 2})`: one keyword that is no parameter of the tool,
    holding an object whose keys all are: the arguments under a wrapper of the model's
    (also shaped as a schema, `{"type": "dict", "properties": {...}}`), beside the other
    arguments, if any (`f(properties={'a': 1}, b=2)`)."""
    props = _properties(schema)
    outer = {k: v for k, v in args.items() if not (k == "type" and k not in props and v in _OBJECT)}
    wrappers = [k for k, v in outer.items() if k not in props and _wraps(v, props)]
    if len(wrappers) != 1:
        return args
    (key,) = wrappers
    rest = {k: v for k, v in outer.items() if k != key}
    if set(rest) & set(outer[key]) or not set(rest) <= set(props):
        return args
    notes.append(f"read the object under {key!r} (not a parameter) as the arguments")
    return {**outer[key], **rest}


def _wraps(value: Any, props: Mapping[str, Any]) -> bool:
    return isinstance(value, dict) and bool(value) and set(value) <= set(props)


def _keywords_dict(value: Any, props: Mapping[str, Any], schema: Mapping[str, Any]) -> bool:
    """`f({'a': 1, 'b': 2})`: the dict holds the arguments when its keys are parameter
    names, unless the tool's one parameter takes an object that holds no object under
    that parameter's name (`f({'settings': {...}})` names it, `f({'settings': 'x'})` is
    the object itself)."""
    if not isinstance(value, dict) or not value or not props:
        return False
    if not set(value) <= set(props):
        return False
    name, first = next(iter(props.items()))
    first = resolve_local(schema, first)
    takes_object = isinstance(first, Mapping) and _accepts(first, schema, "object")
    return not (takes_object and len(props) == 1) or isinstance(value.get(name), dict)


def _words(args: dict[str, Any], schema: Mapping[str, Any], notes: list[str]) -> dict[str, Any]:
    """Unquoted words (`entity=Google`) read as the strings they spell, where the
    parameter takes a string; every other `Expr` stays for `_invalid`."""
    props = _properties(schema)
    if args and all(isinstance(v, Expr) and v.bare and v.source == k for k, v in args.items()):
        # f(city, days): the tool's signature written out, a template and not a call.
        reason = "a placeholder: the call is written with its parameter names"
        return {k: Expr(source=v.source, reason=reason) for k, v in args.items()}
    out: dict[str, Any] = {}
    for key, value in args.items():
        sub = props.get(key)
        out[key] = _word(value, sub, schema, key, notes) if isinstance(sub, Mapping) else value
    return out


def _word(
    value: Any, node: Mapping[str, Any], root: Mapping[str, Any], where: str, notes: list[str]
) -> Any:
    node = resolve_local(root, node)
    if isinstance(value, Expr):
        if value.bare and _accepts(node, root, "string"):
            notes.append(
                f"unquoted: took {value.source!r} for '{where}' as the text written "
                "(a name is never looked up)"
            )
            return value.source
        return _collection(value, node, root, where, notes)
    if isinstance(value, list) and isinstance(node.get("items"), Mapping):
        return [_word(v, node["items"], root, f"{where}[{i}]", notes) for i, v in enumerate(value)]
    if isinstance(value, dict) and isinstance(node.get("properties"), Mapping):
        props = node["properties"]
        return {
            k: _word(v, props[k], root, f"{where}.{k}", notes)
            if isinstance(props.get(k), Mapping)
            else v
            for k, v in value.items()
        }
    return value


def _collection(
    value: Expr, node: Mapping[str, Any], root: Mapping[str, Any], where: str, notes: list[str]
) -> Any:
    """`new int[]{1, 2}`, `Arrays.asList("a")`, `new HashMap<>() {{ put("k", 1); }}` where
    only an array or only an object is admitted: the Java literal read as the value it
    spells (nothing is run), else `value` stays no value."""
    accepted = accepted_types(node, root)
    if "string" in accepted or len(accepted & {"array", "object"}) != 1:
        return value
    (declared,) = accepted & {"array", "object"}
    items = node.get("items")
    kinds = accepted_types(items, root) if isinstance(items, Mapping) else frozenset()
    read = source_value(value.source, declared, notes, items=kinds)
    if read is NO_VALUE or exprs_in(read):
        return value
    notes.append(f"source: read {value.source[:60]!r} of '{where}' as the {declared} it spells")
    return read


def _accepts(node: Mapping[str, Any], root: Mapping[str, Any], kind: str) -> bool:
    """True when `node` names `kind` among its types, or names no type at all."""
    declared = node.get("type")
    if isinstance(declared, str):
        return declared == kind
    if isinstance(declared, list):
        return kind in declared
    branches = [resolve_local(root, b) for b in node.get("anyOf") or node.get("oneOf") or []]
    if branches:
        return any(isinstance(b, Mapping) and _accepts(b, root, kind) for b in branches)
    return "enum" not in node and "const" not in node and "properties" not in node


def _invalid(raw: RawCall, args: Any, notes: list[str]) -> ToolCall:
    """A call whose arguments cannot be taken literally: sent on as the model's text."""
    for where, expr in _located(args, ""):
        notes.append(
            f"{where or 'the arguments'}: {shown(expr.source)} is {expr.reason}, not a value; "
            "it is not evaluated, so the call is passed on invalid"
        )
    text = _render(args)
    try:
        json.loads(text)  # a bare NaN or Infinity is JSON to Python: keep it unreadable
    except (ValueError, RecursionError):
        return _call(raw, text, notes)
    return _call(raw, f"<not a literal> {text}", notes)


def _located(value: Any, where: str) -> list[tuple[str, Expr]]:
    if isinstance(value, Expr):
        return [(where, value)]
    if isinstance(value, dict):
        return [f for k, v in value.items() for f in _located(v, f"{where}.{k}" if where else k)]
    if isinstance(value, list):
        return [f for i, v in enumerate(value) for f in _located(v, f"{where}[{i}]")]
    return []


def _render(value: Any) -> str:
    """JSON, except that each `Expr` stands as the model wrote it (so it is not JSON)."""
    if isinstance(value, Expr):
        return value.source
    if isinstance(value, dict):
        inner = ", ".join(
            f"{json.dumps(k, ensure_ascii=False)}: {_render(v)}" for k, v in value.items()
        )
        return "{" + inner + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_render(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _properties(schema: Mapping[str, Any]) -> dict[str, Any]:
    props = schema.get("properties")
    return dict(props) if isinstance(props, Mapping) else {}
