"""Read provider payloads: raw dicts and official SDK objects alike, with clear errors."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from callgate.dialects._errors import DialectError, shown
from callgate.schema import escape_lone_surrogates

__all__ = [
    "as_data",
    "dumps",
    "field",
    "items",
    "new_call_id",
    "opt_str",
    "req_str",
    "text_of",
]


def as_data(value: Any, dialect: str) -> Any:
    """`value` as plain JSON data: SDK (pydantic) objects are dumped with wire key names."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, Mapping | list | tuple | str):
        return value
    raise DialectError(
        dialect, f"expected a response dict or SDK object, got {type(value).__name__}"
    )


def field(data: Mapping[str, Any], *names: str) -> Any:
    """The first of `names` present in `data` (camelCase and snake_case spellings)."""
    for name in names:
        if name in data:
            return data[name]
    return None


def req_str(data: Mapping[str, Any], key: str, dialect: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise DialectError(dialect, f"'{key}' must be a string, got {_kind(value)}", where=where)
    return value


def opt_str(data: Mapping[str, Any], key: str, dialect: str, where: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise DialectError(dialect, f"'{key}' must be a string, got {_kind(value)}", where=where)
    return value


def items(value: Any, dialect: str, where: str) -> list[Mapping[str, Any]]:
    """A list of objects, or a `DialectError` naming the first thing that is not one."""
    if value is None:
        return []
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise DialectError(dialect, f"expected a list, got {_kind(value)}", where=where)
    for i, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise DialectError(
                dialect, f"expected an object, got {_kind(item)}", where=f"{where}[{i}]"
            )
    return list(value)


def text_of(
    content: Any,
    dialect: str,
    where: str,
    kinds: tuple[str, ...] = ("text", "input_text", "output_text"),
) -> str:
    """Text of a string or of a list of text parts; other parts are not carried."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    parts = items(content, dialect, where)
    out: list[str] = []
    for i, part in enumerate(parts):
        if part.get("type") not in kinds:
            raise DialectError(
                dialect,
                f"content part of type {shown(part.get('type'))} cannot be carried (only text is)",
                where=f"{where}[{i}]",
            )
        out.append(req_str(part, "text", dialect, f"{where}[{i}]"))
    return "".join(out)


def new_call_id() -> str:
    """A fresh id that every provider's id pattern accepts."""
    return "call_" + secrets.token_hex(12)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    names: dict[type, str] = {dict: "an object", list: "a list", str: "a string"}
    return names.get(type(value), type(value).__name__)


def dumps(value: Any, dialect: str, where: str) -> str:
    """JSON text for the wire: non-ASCII kept, lone surrogates escaped, never NaN."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise DialectError(dialect, f"not JSON data ({reason[:200]})", where=where) from None
    return escape_lone_surrogates(text)
