"""Literal values written by a model: JSON, Python and JavaScript literals, and what is not one.

A value is read from the syntax tree (`ast`), never evaluated, except arithmetic on
numeric literals, which is computed exactly with fractions and reported. A name, a call
or any other expression comes back as an `Expr` marker holding the source text, so the
caller decides: an unquoted word may be read as a string, anything else makes the call
invalid instead of passing on a guess. `json-repair` is the last resort for JSON that no
grammar reads, and its result is refused when it would drop or add text.
"""

from __future__ import annotations

import ast
import bisect
import functools
import json
import operator
import re
import warnings
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from callgate._errors import shown
from callgate.dialects._repair import repair

__all__ = [
    "NO_VALUE",
    "Expr",
    "exprs_in",
    "parse_lenient",
    "parse_python",
    "read_literal",
    "read_value",
    "segment",
    "source_value",
    "split_top",
    "to_value",
    "without_comments",
]

_LITERAL_NAMES = {
    "true": True,
    "false": False,
    "null": None,
    "True": True,
    "False": False,
    "None": None,
}
_BINARY: Mapping[type[ast.operator], Callable[[Fraction, Fraction], Fraction]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
_MAX_POWER = 400
"""Largest exponent computed (10**400 already leaves the float range); past it, an Expr."""
_MAX_BITS = 4096
_MAX_DIGITS = 400
"""Longest number read from text: past it an integer cannot be printed back and a float
is infinite."""
_COMMENT = re.compile(
    r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|//[^\n]*|/\*.*?\*/|#[^\n]*""", re.S
)
_OPENERS = {"(": ")", "[": "]", "{": "}"}


class _NoValue:
    def __repr__(self) -> str:
        return "NO_VALUE"


NO_VALUE: Any = _NoValue()
"""What `read_value` returns when the text spells no value at all."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Expr:
    """Source text where a value was expected that is not a literal."""

    source: str
    reason: str
    """What it is: "the name 'pi'", "a call of 'Paths.get'", ..."""
    bare: bool = False
    """True for a single word or dotted name with nothing else (`Google`, `System.out`)."""


def parse_python(text: str) -> ast.expr | None:
    """The expression tree of `text`, or None; warnings about escapes are not errors."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ast.parse(text.strip(), mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None


def json_value(text: str) -> Any:
    """`json.loads` without the `NaN`, `Infinity` and `-Infinity` Python accepts: no JSON
    value, so such text is read as the model's literal and reported."""
    return json.loads(text, parse_constant=_no_constant)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_value(text: str, notes: list[str]) -> Any:
    """The value `text` spells as JSON, a Python or JavaScript literal, else `NO_VALUE`.

    Notes say how it was read when that was not plain JSON.
    """
    try:
        return json_value(text)
    except (ValueError, RecursionError):
        pass
    read: list[str] = []
    value = read_literal(text, read)
    if value is not NO_VALUE:
        notes += read or ["read as Python literal syntax: the text is not valid JSON"]
        return value
    return _repaired(text, notes)


def read_literal(text: str, notes: list[str]) -> Any:
    """Python/JavaScript literal syntax (comments, unquoted keys, a cut-off end allowed)."""
    parsed = parse_lenient(text, notes)
    return NO_VALUE if parsed is None else to_value(parsed[0], parsed[1], notes)


_APOSTROPHE = re.compile(r"(?<=[A-Za-z])'(?=[a-z])")
"""An apostrophe inside a word, which ends a single-quoted string too early."""
_MAX_CUTS = 16
"""Line ends tried when a cut-off value is followed by prose."""
_BRACKET = re.compile(r"[(\[{]")


def parse_lenient(text: str, notes: list[str]) -> tuple[ast.expr, str] | None:
    """The expression tree of `text` and the source it was read from, trying in turn: the
    text without comments, the text as is, and a cut-off text closed at its end or at one
    of its last line ends (prose after it). Notes say which reading was taken."""
    cleaned = without_comments(text)
    for source in dict.fromkeys((cleaned, text)):
        node = parse_python(source)
        if node is not None:
            if source != text:
                notes.append("ignored comments in the JSON")
            return node, source
    apostrophes = _APOSTROPHE.sub(r"\\'", cleaned) if "'" in cleaned else cleaned
    node = parse_python(apostrophes) if apostrophes != cleaned else None
    if node is not None:
        notes.append("read an apostrophe between letters (it's) as part of its string")
        return node, apostrophes
    ends = [i for i, char in enumerate(cleaned) if char == "\n"][-_MAX_CUTS:]
    balanced = _closed(cleaned) == cleaned
    for end in (len(cleaned), *reversed(ends)):
        closed = _cut(cleaned, end, balanced)
        node = parse_python(closed) if closed is not None else None
        if node is not None and closed is not None:
            if not closed.startswith(cleaned[:end].rstrip()):
                notes.append("closed a string left open before the closing brackets")
            elif closed != cleaned[:end]:
                notes.append("closed the brackets the output left open (it was cut off)")
            if end < len(cleaned):
                notes.append(f"ignored the text after the cut: {cleaned[end:].strip()[:40]!r}")
            return node, closed
    return None


def _cut(text: str, end: int, balanced: bool) -> str | None:
    """`text` up to `end`, closed as an output cut off there, or None where it was not:
    a complete text is not cut (closing a part would drop the rest, and brackets after a
    line end may be the next call, not prose), a text that closes the bracket it opened
    with is not cut off (only a string left open before its closers is closed), and a
    line end inside a string is not a
    cut (the string runs on to the next line), nor one after an opening bracket, `=`,
    `:` or `,` (what follows is a value, not prose)."""
    part = text[:end]
    closed = _closed(part)
    if end == len(text):
        ends = part.strip()[:1] in _OPENERS and _OPENERS[part.strip()[0]] == part.strip()[-1]
        if closed == part or (ends and closed.startswith(part.rstrip())):
            return None  # nothing open, or it ends where it began: not cut off, misread
        return closed
    if balanced and (closed != part or _BRACKET.search(text, end)):
        return None
    if _open(part)[1] or part.rstrip()[-1:] in ("", *"([{=:,"):
        return None
    return closed


def to_value(node: ast.expr, source: str, notes: list[str]) -> Any:
    """A JSON value from a literal expression; non-literal parts become `Expr`."""
    if isinstance(node, ast.Constant):
        return _doubled(node, source, notes) or _constant(node, source)
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [to_value(e, source, notes) for e in node.elts]
    if isinstance(node, ast.Dict):
        return _dict(node, source, notes)
    if isinstance(node, ast.Name) and node.id in _LITERAL_NAMES:
        return _LITERAL_NAMES[node.id]
    if isinstance(node, ast.Name) and node.id == "undefined":
        # JavaScript's "no value": neither the word nor null (JSON has no such value).
        return Expr(source="undefined", reason="JavaScript's undefined, which JSON has none of")
    if isinstance(node, ast.Name | ast.Attribute) and _dotted(node):
        return Expr(
            source=segment(node, source), reason=f"the name {shown(_dotted(node))}", bare=True
        )
    if isinstance(node, ast.UnaryOp | ast.BinOp):
        return _arithmetic(node, source, notes)
    return Expr(source=segment(node, source), reason=_describe(node))


_DOUBLED = re.compile(r"'(?:[^'\\\n]|'')*'")
_DOUBLED_INSIDE = re.compile(r"[A-Za-z]''[A-Za-z]")


def _doubled(node: ast.Constant, source: str, notes: list[str]) -> str | None:
    """`'It''s fresh'`: a quote doubled inside a word, as SQL escapes it. Python reads two
    strings side by side ("Its fresh"); no one writing it means that."""
    if not isinstance(node.value, str):
        return None
    # The doubled quote is looked for in the string's own text: the whole source searched
    # again for each of thousands of strings was quadratic.
    written = segment(node, source)
    if "''" not in written or not _DOUBLED.fullmatch(written):
        return None
    if not _DOUBLED_INSIDE.search(written):
        return None
    notes.append("read a quote doubled inside a word ('It''s') as one apostrophe")
    return written[1:-1].replace("''", "'")


def _constant(node: ast.Constant, source: str) -> Any:
    value = node.value
    if isinstance(value, float) and not (value == value and abs(value) != float("inf")):
        return Expr(source=segment(node, source), reason="a number outside JSON's range")
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return Expr(source=segment(node, source), reason=f"a {type(value).__name__} literal")


def _dict(node: ast.Dict, source: str, notes: list[str]) -> Any:
    out: dict[str, Any] = {}
    for key, value in zip(node.keys, node.values, strict=True):
        if key is None:
            return Expr(source=segment(node, source), reason="a dict unpacking (**)")
        name = key.id if isinstance(key, ast.Name) else None
        if name is not None and name not in _LITERAL_NAMES:
            notes.append(f"read the unquoted key {name} as a string")
            out[name] = to_value(value, source, notes)
            continue
        read = to_value(key, source, notes)
        if not isinstance(read, str):
            return Expr(
                source=segment(node, source), reason="an object with a key that is not text"
            )
        out[read] = to_value(value, source, notes)
    return out


def _arithmetic(node: ast.UnaryOp | ast.BinOp, source: str, notes: list[str]) -> Any:
    """Arithmetic on numeric literals only, computed exactly; anything else is an Expr."""
    text = segment(node, source)
    result = _exact(node)
    if isinstance(result, str):
        return Expr(source=text, reason=result)
    number, integral = result
    try:
        value: int | float = int(number) if integral else float(number)
    except OverflowError:
        return Expr(source=text, reason="a number outside JSON's range")
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return value  # a signed literal (-5) is a literal, not arithmetic
    notes.append(f"computed {shown(text)} = {shown(value)} (arithmetic on number literals, exact)")
    return value


def _exact(node: ast.expr) -> tuple[Fraction, bool] | str:
    """(value, is an integer in Python's sense) or why it cannot be computed safely."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            return "arithmetic on something other than numbers"
        if isinstance(value, float) and not (value == value and abs(value) != float("inf")):
            return "a number outside JSON's range"
        return (Fraction(repr(value)) if isinstance(value, float) else Fraction(value)), isinstance(
            value, int
        )
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _exact(node.operand)
        if isinstance(inner, str):
            return inner
        return (-inner[0] if isinstance(node.op, ast.USub) else inner[0]), inner[1]
    if isinstance(node, ast.BinOp):
        return _binary(node)
    if isinstance(node, ast.Name | ast.Attribute) and _dotted(node):
        return f"an expression with the name {shown(_dotted(node))}"
    return f"an expression with {_describe(node)}"


def _binary(node: ast.BinOp) -> tuple[Fraction, bool] | str:
    left, right = _exact(node.left), _exact(node.right)
    if isinstance(left, str):
        return left
    if isinstance(right, str):
        return right
    (a, a_int), (b, b_int) = left, right
    if isinstance(node.op, ast.Pow):
        return _power(a, b, a_int and b_int)
    op = _BINARY.get(type(node.op))
    if op is None:
        return f"the operator {type(node.op).__name__}"
    if isinstance(node.op, ast.Div) and b == 0:
        return "a division by zero"
    value = op(a, b)
    if max(value.numerator.bit_length(), value.denominator.bit_length()) > _MAX_BITS:
        return "a number too large to compute"
    return value, a_int and b_int and not isinstance(node.op, ast.Div)


def _power(base: Fraction, exponent: Fraction, integral: bool) -> tuple[Fraction, bool] | str:
    if exponent.denominator != 1 or abs(exponent) > _MAX_POWER:
        return "a power that is not a small integer power"
    if base == 0 and exponent < 0:
        return "a division by zero"
    value = base ** int(exponent)
    if max(value.numerator.bit_length(), value.denominator.bit_length()) > _MAX_BITS:
        return "a number too large to compute"
    return value, integral and exponent >= 0


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _describe(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        name = _dotted(node.func)
        return f"a call of {shown(name)}" if name else "a call"
    if isinstance(node, ast.JoinedStr):
        return "a formatted string"
    if isinstance(node, ast.Subscript):
        return "an index into a value"
    if isinstance(node, ast.Lambda):
        return "a function"
    return "an expression"


def segment(node: ast.expr | ast.keyword, source: str) -> str:
    """The source text of `node` (`ast.get_source_segment` re-splits the source on every
    call, which is quadratic over a call with thousands of arguments)."""
    lines = _lines(source)
    end_line, end_col = node.end_lineno, node.end_col_offset
    if end_line is None or end_col is None or node.lineno > len(lines) or end_line > len(lines):
        return ast.unparse(node)
    start = _offset(lines[node.lineno - 1], node.col_offset)
    end = _offset(lines[end_line - 1], end_col)
    return source[start:end]


@functools.lru_cache(maxsize=16)
def _lines(source: str) -> list[_Line]:
    out, at = [], 0
    for line in source.splitlines(keepends=True) or [""]:
        out.append((at, None if line.isascii() else _wide(line)))
        at += len(line)
    return out


_Line = tuple[int, tuple[list[int], list[int]] | None]
"""Where a line starts in the source; for a line that is not ASCII, the UTF-8 byte column
where each of its other characters ends and the extra bytes written up to there."""
_NOT_ASCII = re.compile(r"[^\x00-\x7f]")


def _wide(line: str) -> tuple[list[int], list[int]]:
    ends: list[int] = []
    extra: list[int] = []
    more = 0
    for found in _NOT_ASCII.finditer(line):
        code = ord(found.group())
        width = 2 if code < 0x800 else 3 if code < 0x10000 else 4
        more += width - 1
        ends.append(found.end() + more)
        extra.append(more)
    return ends, extra


def _offset(line: _Line, byte_col: int) -> int:
    """Character offset in the source of a UTF-8 byte column of one line (looked up: the
    line encoded again for each of thousands of values on it was quadratic)."""
    start, wide = line
    if wide is None:
        return start + byte_col
    ends, extra = wide
    before = bisect.bisect_right(ends, byte_col)
    return start + byte_col - (extra[before - 1] if before else 0)


def exprs_in(value: Any) -> list[Expr]:
    """Every `Expr` inside `value`, in order."""
    found: list[Expr] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Expr):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return found


def without_comments(text: str) -> str:
    """`text` without `//`, `/* */` and `#` comments outside strings."""
    if "//" not in text and "/*" not in text and "#" not in text:
        return text
    return _COMMENT.sub(lambda m: m.group(1) or "", text)


def _closed(text: str) -> str:
    """`text` with the brackets still open at its end closed (a cut-off generation); a
    string left open just before the closing brackets at the very end (`f(a='x)`) is
    closed before them: the quote was forgotten, the brackets are the call's own."""
    stack, quote, opened = _open(text)
    if not stack and not quote:
        return text
    body = text.rstrip()
    cut = len(body.rstrip(")]}"))
    if quote and cut < len(body) and not _CLOSER.search(body, opened, cut):
        owed = "".join(reversed(_open(body[:opened])[0]))
        written = body[cut:]
        if owed and (owed.startswith(written) or written.startswith(owed)):
            return body[:cut] + quote + owed  # closers past those owed are stray
    return body.rstrip(",") + quote + "".join(reversed(stack))


_CLOSER = re.compile(r"[)\]}]")


def _open(text: str) -> tuple[list[str], str, int]:
    """The closing brackets still owed at the end of `text`, the quote still open, and
    where it opened. Only quotes, brackets and backslashes are visited, and a text that
    begins the one scanned last resumes from the state kept at a step before its end: a
    cut-off value is closed at up to 16 line ends, each a prefix of the whole."""
    last = _last_scan
    if last is not None and len(text) <= len(last[0]) and last[0].startswith(text):
        step = min(len(text) // _STEP, len(last[1]) - 1)
        owed, quote, opened = _scan(text, last[1][step], step * _STEP, None)
    else:
        steps: list[_State] = []
        owed, quote, opened = _scan(text, ("", "", 0, -1), 0, steps)
        _remember(text, steps)
    return list(owed), quote, opened


_State = tuple[str, str, int, int]
"""Closers owed (innermost last), the quote open, where it opened, the offset escaped."""
_STEP = 8192
_last_scan: tuple[str, list[_State]] | None = None


def _remember(text: str, steps: list[_State]) -> None:
    global _last_scan
    _last_scan = (text, steps)


def _scan(text: str, state: _State, start: int, steps: list[_State] | None) -> tuple[str, str, int]:
    """Scan `text` from `start` in `state`; with `steps`, the state at each multiple of
    `_STEP` is appended (the state at 0 first)."""
    owed, quote, opened, escaped = state
    stack = list(owed)
    if steps is not None:
        steps.append(state)
    at = _STEP
    for found in _MARK.finditer(text, start):
        i = found.start()
        while steps is not None and i >= at:
            steps.append(("".join(stack), quote, opened, escaped))
            at += _STEP
        if i == escaped:
            continue
        char = found.group()
        if quote:
            if char == "\\":
                escaped = i + 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
            opened = i
        elif char in _OPENERS:
            stack.append(_OPENERS[char])
        elif stack and char == stack[-1]:
            stack.pop()
    return "".join(stack), quote, opened


_MARK = re.compile(r"[\\\"'()\[\]{}]")


# --- json-repair, refused when it would change the text's content -------------------------

_WORDS = re.compile(r"\b(?:true|True|false|False|null|None)\b")
_SIGNIFICANT = re.compile(r"[A-Za-z0-9+*/=<>%&|^~@$!?`]")


def _repaired(text: str, notes: list[str]) -> Any:
    repaired = repair(text)
    if repaired is None:
        return NO_VALUE
    value, log = repaired
    if not isinstance(value, dict | list) or not value:
        return NO_VALUE
    if _content(json.dumps(value)) != _content(without_comments(text)):
        return NO_VALUE
    notes.append("repaired malformed JSON")
    notes += [str(e.get("text")) for e in log[:3] if isinstance(e, Mapping) and e.get("text")]
    return value


def _content(text: str) -> Counter[str]:
    """What a repair must neither drop nor add: letters, digits and operators."""
    return Counter(_SIGNIFICANT.findall(_WORDS.sub(lambda m: m.group(0)[0].lower(), text)))


# --- values written as Java or JavaScript source inside a string --------------------------

_NUMBER = re.compile(r"^(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)([lLfFdD]?)$")
_JAVA_ARRAY = re.compile(r"^new\s+[\w.]+(?:<[^>]*>)?\s*(?:\[\s*\])+\s*\{(.*)\}$", re.S)
_JAVA_LIST = re.compile(
    r"^(?:new\s+(?:Array|Linked)List<[^>]*>\s*\(\s*)?(?:Arrays\.asList|List\.of)\s*\((.*?)\)\s*\)?$",
    re.S,
)
_JAVA_EMPTY = re.compile(r"^new\s+(?:Array|Linked|Hash)(?:List|Map|Set)\s*<[^>]*>\s*\(\s*\)$")
_JAVA_PUT = re.compile(r"put\s*\(\s*(\"(?:[^\"\\]|\\.)*\")\s*,\s*(.*?)\)\s*;", re.S)
_JAVA_MAP = re.compile(r"^new\s+HashMap\s*<[^>]*>\s*\(\s*\)\s*\{\s*\{(.*)\}\s*\}$", re.S)


def source_value(
    text: str, declared: str, notes: list[str], *, items: frozenset[str] = frozenset()
) -> Any:
    """The value a string spells for a parameter of type `declared`, or `NO_VALUE`.

    Models asked for Java or JavaScript write values as source text: `123L`, `1.5f`,
    `new int[]{1, 2}`, `Arrays.asList("a")`, `new HashMap<>() {{ put("k", 1); }}`, `{a: 1}`;
    and lists as text with unquoted items (`[-v, 2, fast]`), read when `items` (the types
    the array's items accept) includes strings.
    """
    text = text.strip()
    if declared in ("integer", "number"):
        return _number(text, declared)
    if declared == "array":
        value = _array(text, notes)
        return _word_list(text, items) if value is NO_VALUE and "string" in items else value
    if declared == "object":
        return _object(text, notes)
    return NO_VALUE


def _number(text: str, declared: str) -> Any:
    match = _NUMBER.match(text) if len(text) <= _MAX_DIGITS else None
    if match is None:
        return NO_VALUE
    digits, suffix = match.groups()
    integral = re.fullmatch(r"-?\d+", digits) is not None
    if declared == "integer":
        return int(digits) if integral and suffix in ("", "l", "L") else NO_VALUE
    return int(digits) if integral and suffix in ("", "l", "L") else float(digits)


def _array(text: str, notes: list[str]) -> Any:
    if text.startswith("["):
        value = read_literal(text, notes)
        return value if isinstance(value, list) and not exprs_in(value) else NO_VALUE
    if _JAVA_EMPTY.match(text):
        return []
    match = _JAVA_ARRAY.match(text) or _JAVA_LIST.match(text)
    if match is None:
        return NO_VALUE
    items = [_java_item(part, notes) for part in split_top(match.group(1))]
    return NO_VALUE if any(i is NO_VALUE for i in items) else items


_WORD_LIST = re.compile(r"\[([^\[\]{}()\"'`]*)\]")


def _word_list(text: str, items: frozenset[str]) -> Any:
    """`[-waitTime, 2, fast]`: a list written as text, its items unquoted words. Each item
    is the number or boolean it spells where the items accept one, else its text."""
    match = _WORD_LIST.fullmatch(text)
    if match is None:
        return NO_VALUE
    parts = [p.strip() for p in match.group(1).split(",")] if match.group(1).strip() else []
    if any(not p for p in parts):
        return NO_VALUE
    out: list[Any] = []
    for part in parts:
        literal = _LITERAL_NAMES[part] if part in _LITERAL_NAMES else _number(part, "number")
        kind = {bool: "boolean", type(None): "null"}.get(type(literal), "number")
        out.append(literal if literal is not NO_VALUE and kind in items else part)
    return out


def _object(text: str, notes: list[str]) -> Any:
    if text.startswith("{"):
        value = read_literal(text, notes)
        return value if isinstance(value, dict) and not exprs_in(value) else NO_VALUE
    if _JAVA_EMPTY.match(text):
        return {}
    match = _JAVA_MAP.match(text)
    if match is None:
        return NO_VALUE
    out: dict[str, Any] = {}
    for key, value in _JAVA_PUT.findall(match.group(1)):
        item = _java_item(value, notes)
        if item is NO_VALUE:
            return NO_VALUE
        out[json.loads(key)] = item
    return out


def _java_item(part: str, notes: list[str]) -> Any:
    part = part.strip()
    if part in ("true", "false", "null"):
        return _LITERAL_NAMES[part]
    if len(part) >= 2 and part[0] == part[-1] == "'":
        return part[1:-1]
    if part.startswith('"'):
        try:
            return json.loads(part)
        except ValueError:
            return NO_VALUE
    number = _number(part, "number")
    if number is not NO_VALUE:
        return number
    nested = _array(part, notes)
    return nested if nested is not NO_VALUE else _object(part, notes)


def split_top(body: str) -> list[str]:
    """Top-level comma-separated parts of `body`, quotes and brackets respected."""
    parts: list[str] = []
    depth, start, quote = 0, 0, ""
    for i, char in enumerate(body):
        if quote:
            if char == quote and body[i - 1] != "\\":
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    tail = body[start:]
    return [*parts, tail] if tail.strip() or parts else []
