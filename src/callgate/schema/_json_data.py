"""What counts as JSON data here, and the parts of a value that are not, or are past a limit.

Model output and other people's catalogs are hostile: a value can be valid JSON syntax and
still break everything after it (a 5,000-digit integer cannot be written back as text, a
lone surrogate cannot be encoded as UTF-8, `NaN` is not JSON at all, a 100,000-level
nesting exhausts the stack of any recursive reader). One iterative walk finds all of these,
with the path to each, before any other work is done on the value.
"""

from __future__ import annotations

import functools
import json
import math
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from callgate.schema._canonical import LONE_SURROGATE
from callgate.schema._pointer import display_path
from callgate.schema._report import FieldError

__all__ = ["Rejected", "checking_decoder", "json_problems"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Rejected:
    """Stands in, while decoding, for a number that must not become a Python value."""

    kind: str
    what: str
    """Completes "'field' ..." : what the value is and why it is refused."""


def _python_digits() -> int:
    # Python refuses to convert longer integers to and from text (CVE-2020-10735).
    return sys.get_int_max_str_digits() or sys.maxsize


@functools.cache
def checking_decoder(max_integer_digits: int) -> json.JSONDecoder:
    """A decoder that turns over-long integers, overflowing floats and NaN/Infinity
    into `Rejected` markers, so the walk can name where they are."""
    limit = min(max_integer_digits, _python_digits())

    def integer(text: str) -> Any:
        digits = len(text) - text.startswith("-")
        if digits > limit:
            what = f"is an integer of {digits} digits; the limit is {limit} digits"
            return Rejected(kind="integer", what=what)
        return int(text)

    def number(text: str) -> Any:
        value = float(text)
        if math.isfinite(value):
            return value
        shown = text if len(text) <= 24 else text[:21] + "..."
        return Rejected(kind="number", what=f"is a number too large for a float ({shown})")

    def constant(text: str) -> Any:
        return Rejected(kind="number", what=f"is {text}, which JSON does not allow")

    return json.JSONDecoder(parse_int=integer, parse_float=number, parse_constant=constant)


_Path = tuple[str | int, ...]
_LOG10_2 = math.log10(2)


def json_problems(
    value: Any,
    *,
    max_depth: int,
    max_integer_digits: int | None = None,
    max_string_chars: int | None = None,
    root: str = "(arguments)",
) -> Iterator[FieldError]:
    """Every part of `value` that is not JSON data or is past a limit, in document order.

    JSON data: objects with string keys, arrays (lists or tuples), strings without lone
    surrogates, finite numbers, booleans and null. `max_depth` bounds the nesting of
    objects and arrays (the value itself is level 1); the walk never goes deeper, so a
    cyclic or enormously deep value costs no more than the limit. `max_integer_digits`
    defaults to the longest integer Python can write as text.
    """
    digits = min(max_integer_digits or sys.maxsize, _python_digits())
    stack: list[tuple[Any, _Path, int]] = [(value, (), 1)]
    while stack:
        item, path, depth = stack.pop()
        if not isinstance(item, Mapping | list | tuple):
            found = _scalar(item, digits, max_string_chars)
            if found is not None:
                yield _problem(path, root, *found)
        elif depth > max_depth:
            yield _problem(
                path, root, "depth", f"is nested too deeply (the limit is {max_depth} levels)"
            )
        else:
            children = _children(item, path, root, max_string_chars)
            yield from children[0]
            stack += [(child, where, depth + 1) for child, where in reversed(children[1])]


def _children(
    item: Mapping[Any, Any] | list[Any] | tuple[Any, ...],
    path: _Path,
    root: str,
    max_string_chars: int | None,
) -> tuple[list[FieldError], list[tuple[Any, _Path]]]:
    """The problems of an object's keys, and the children to visit."""
    if not isinstance(item, Mapping):
        return [], [(child, (*path, i)) for i, child in enumerate(item)]
    problems: list[FieldError] = []
    children: list[tuple[Any, _Path]] = []
    for key, child in item.items():
        if not isinstance(key, str):
            what = f"has a key that is not a string ({type(key).__name__})"
            problems.append(_problem(path, root, "type", what))
            continue
        found = _text(key, max_string_chars, "key")
        if found is not None:
            problems.append(_problem((*path, key), root, *found))
        children.append((child, (*path, key)))
    return problems, children


def _scalar(item: Any, digits: int, max_string_chars: int | None) -> tuple[str, str] | None:
    if item is None or isinstance(item, bool):
        return None
    if isinstance(item, str):
        return _text(item, max_string_chars, "string")
    if isinstance(item, int):
        # bit_length bounds the digit count from above without writing the number out;
        # the exact comparison is made only for integers as large as the power itself.
        if item.bit_length() * _LOG10_2 < digits - 1 or abs(item) < _power(digits):
            return None
        what = f"is an integer of more than {digits} digits; the limit is {digits} digits"
        return "integer", what
    if isinstance(item, float):
        if math.isfinite(item):
            return None
        return "number", f"is {json.dumps(item)}, which JSON does not allow"
    if isinstance(item, Rejected):
        return item.kind, item.what
    return "type", f"is not JSON data (a {type(item).__name__})"


def _text(text: str, max_chars: int | None, what: str) -> tuple[str, str] | None:
    if max_chars is not None and len(text) > max_chars:
        return "string", f"is a {what} of {len(text)} characters; the limit is {max_chars}"
    found = LONE_SURROGATE.search(text)
    if found is not None:
        code = f"\\u{ord(found.group()):04x}"
        return "unicode", f"contains a lone surrogate ({code}), which is not Unicode text"
    return None


@functools.cache
def _power(digits: int) -> int:
    power: int = 10**digits
    return power


def _problem(path: _Path, root: str, kind: str, what: str) -> FieldError:
    message = f"'{display_path(path, root)}' {what}"
    return FieldError(path=path, kind=kind, message=message, root=root)
