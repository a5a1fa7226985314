"""Turn model-proposed arguments (a JSON string or an object) into a dict, within limits."""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic_core import from_json

from callgate.schema._canonical import LONE_SURROGATE, canonical_json
from callgate.schema._json_data import checking_decoder, json_problems

__all__ = ["ArgumentError", "ArgumentLimits", "parse_arguments"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ArgumentLimits:
    """Bounds on what a model may send as the arguments of one call.

    All of them are checked before the arguments are validated, hashed or shown to a
    tool; a payload past one is `invalid`, with the field and the limit named.
    """

    max_bytes: int = 64 * 1024
    """Largest accepted argument payload, in UTF-8 bytes of its JSON text."""
    max_depth: int = 32
    """Deepest accepted nesting of objects and arrays."""
    max_integer_digits: int = 100
    """Longest accepted integer, in decimal digits (Python itself stops at 4,300)."""
    max_string_chars: int = 32 * 1024
    """Longest accepted string (object keys included), in characters."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ArgumentError:
    """Why a payload could not be turned into an arguments object."""

    message: str
    """Model-facing explanation: what is wrong and where."""
    position: int | None = None
    """Character offset of a JSON syntax error, when there is one."""


def parse_arguments(
    raw: object, limits: ArgumentLimits = ArgumentLimits()
) -> dict[str, Any] | ArgumentError:
    """Parse `raw` into a fresh dict, or explain why it is not an arguments object.

    `None` and the empty string mean "no arguments" (several APIs send them for
    parameterless tools). Beyond `limits`, what is not JSON data is refused: NaN and
    Infinity, numbers that overflow a float, strings with lone surrogates (RFC 7493's
    I-JSON rules). Duplicate keys keep the last value, as every JSON reader here does.
    The result is always a new object the caller may mutate.
    """
    if type(raw) is str and raw:
        # The common case in one frame: a text no limit could stop, read by pydantic-core.
        size = len(raw)
        depth, digits = limits.max_depth, limits.max_integer_digits
        plain = (  # `_may_break_limits`, stricter: only ASCII text without escapes
            size * 4 <= limits.max_bytes
            and size <= limits.max_string_chars
            and (size <= depth or raw.count("{") + raw.count("[") <= depth)
            and (size <= digits or _long_digits(digits).search(raw) is None)
            and raw.isascii()
            and "\\u" not in raw
        )
        if plain:
            value = _read_plain(raw)
            if value is not None:
                return value
        return _parse_text(raw, limits)
    if raw is None:
        return {}
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return ArgumentError(message=f"the arguments are not UTF-8 text ({exc.reason})")
    if isinstance(raw, str):
        return _parse_text(raw, limits)
    if isinstance(raw, Mapping):
        return _copy_object(raw, limits)
    return ArgumentError(message=f"the arguments must be a JSON object, got {_kind(raw)}")


def _parse_text(text: str, limits: ArgumentLimits) -> dict[str, Any] | ArgumentError:
    if not text or text.isspace():
        return {}
    # UTF-8 needs at most 4 bytes a character: short texts skip the encoding.
    if len(text) * 4 > limits.max_bytes:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > limits.max_bytes:
            return _too_large(size, limits)
    # Most payloads hold nothing a limit could stop: they skip the walk over the value.
    walk = _may_break_limits(text, limits)
    if not walk:
        fast = _read_plain(text)
        if fast is not None:
            return fast
    try:
        try:
            value = (
                checking_decoder(limits.max_integer_digits).decode(text)
                if walk
                else (_FAST.decode(text))
            )
        except (_NotJSON, ValueError) as exc:
            if isinstance(exc, json.JSONDecodeError):
                raise
            # NaN, an overflowing float or an integer Python refuses: read again to say where.
            walk = True
            value = checking_decoder(limits.max_integer_digits).decode(text)
    except json.JSONDecodeError as exc:
        return ArgumentError(
            message=(
                f"the arguments are not valid JSON ({exc.msg} at line {exc.lineno}, "
                f"column {exc.colno}); send one JSON object"
            ),
            position=exc.pos,
        )
    except RecursionError:
        return _too_deep(limits)
    if not isinstance(value, dict):
        return ArgumentError(message=f"the arguments must be a JSON object, got {_kind(value)}")
    return (_problem(value, limits) or value) if walk else value


def _read_plain(text: str) -> dict[str, Any] | None:
    """The common case, read by pydantic-core's JSON parser (several times faster than the
    json module): a text no limit could stop, with no number that could overflow. It
    refuses NaN, Infinity and lone surrogates; whatever it refuses (None) is read again by
    the json module, whose errors say what is wrong in the words the model is shown."""
    if _BIG_EXPONENT.search(text) is not None:
        return None
    try:
        value = from_json(text, allow_inf_nan=False)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class _NotJSON(Exception):
    """Raised by the fast decoder's hooks: the text holds a number JSON does not have."""


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotJSON(text)
    return value


def _refuse(text: str) -> Any:
    raise _NotJSON(text)


_FAST = json.JSONDecoder(parse_float=_finite, parse_constant=_refuse)
"""Decodes what passes `_may_break_limits` at full speed; NaN, Infinity and floats that
overflow stop it, and the text is read again by the decoder that says where."""


def _may_break_limits(text: str, limits: ArgumentLimits) -> bool:
    """Whether a limit could stop something in `text`, or it may hold a lone surrogate:
    cheap tests that let most payloads skip the walk over the decoded value. (A text no
    longer than a bound cannot break it: most payloads skip the scans too.)"""
    size = len(text)
    return (
        size > limits.max_string_chars
        or (size > limits.max_depth and text.count("{") + text.count("[") > limits.max_depth)
        or (
            size > limits.max_integer_digits
            and _long_digits(limits.max_integer_digits).search(text) is not None
        )
        or ("\\u" in text and _SURROGATE_ESCAPE.search(text) is not None)
        or (not text.isascii() and LONE_SURROGATE.search(text) is not None)
    )


_BIG_EXPONENT = re.compile(r"[eE][+-]?[0-9]{3}")
"""An exponent of three digits or more: the only way a short number can overflow a float."""


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A `\\uD800`-`\\uDFFF` escape: maybe a lone surrogate (a pair is checked after decoding)."""


@functools.cache
def _long_digits(max_integer_digits: int) -> re.Pattern[str]:
    return re.compile(rf"[0-9]{{{max_integer_digits + 1}}}")


def _copy_object(
    value: Mapping[str, Any], limits: ArgumentLimits
) -> dict[str, Any] | ArgumentError:
    problem = _problem(value, limits)
    if problem is not None:
        return problem
    text = canonical_json(value)
    size = len(text.encode("utf-8"))
    if size > limits.max_bytes:
        return _too_large(size, limits)
    copied: dict[str, Any] = json.loads(text)
    return copied


def _problem(value: Mapping[str, Any], limits: ArgumentLimits) -> ArgumentError | None:
    """The first part of `value` that is not JSON data or is past `limits`."""
    problems = json_problems(
        value,
        max_depth=limits.max_depth,
        max_integer_digits=limits.max_integer_digits,
        max_string_chars=limits.max_string_chars,
    )
    found = next(problems, None)
    if found is None:
        return None
    return _too_deep(limits) if found.kind == "depth" else ArgumentError(message=found.message)


def _too_large(size: int, limits: ArgumentLimits) -> ArgumentError:
    return ArgumentError(
        message=f"the arguments are too large ({size} bytes; the limit is {limits.max_bytes})"
    )


def _too_deep(limits: ArgumentLimits) -> ArgumentError:
    return ArgumentError(
        message=f"the arguments are nested too deeply (the limit is {limits.max_depth} levels)"
    )


def _kind(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)
