"""Turn model-proposed arguments (a JSON string or an object) into a dict, within limits."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from callgate.schema._canonical import canonical_json

__all__ = ["ArgumentError", "ArgumentLimits", "parse_arguments"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ArgumentLimits:
    """Bounds on what a model may send as the arguments of one call."""

    max_bytes: int = 64 * 1024
    """Largest accepted argument payload, in UTF-8 bytes of its JSON text."""
    max_depth: int = 32
    """Deepest accepted nesting of objects and arrays."""


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
    parameterless tools). The result is always a new object the caller may mutate.
    """
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
        size = len(text.encode("utf-8"))
        if size > limits.max_bytes:
            return _too_large(size, limits)
    try:
        value = json.loads(text)
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
    # Nesting can only be as deep as there are brackets; most payloads skip the walk.
    if text.count("{") + text.count("[") <= limits.max_depth:
        return value
    return value if _depth_ok(value, limits.max_depth) else _too_deep(limits)


def _copy_object(
    value: Mapping[str, Any], limits: ArgumentLimits
) -> dict[str, Any] | ArgumentError:
    if not _depth_ok(value, limits.max_depth):
        return _too_deep(limits)
    try:
        text = canonical_json(value)
    except (TypeError, ValueError) as exc:
        return ArgumentError(message=f"the arguments are not JSON data ({exc})")
    size = len(text.encode("utf-8"))
    if size > limits.max_bytes:
        return _too_large(size, limits)
    copied: dict[str, Any] = json.loads(text)
    return copied


def _depth_ok(value: Any, max_depth: int) -> bool:
    # Iterative on purpose: a hostile payload must not be able to exhaust the C stack.
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            return False
        if isinstance(item, Mapping):
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, Mapping | list))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item if isinstance(v, Mapping | list))
    return True


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
