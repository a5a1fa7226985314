"""Turn whatever a tool returned into model-facing text and structured JSON."""

from __future__ import annotations

import json
from typing import Any

from pydantic_core import PydanticSerializationError, to_jsonable_python

__all__ = ["Rendered", "render_value"]

Rendered = tuple[str, Any, Any]
"""(content, structured, value): the model-facing text; the JSON value when the tool
returned an object or an array (None for text); the JSON-able value an output schema is
checked against. A tuple, not a dataclass: it is made on every call's path."""


def render_value(value: Any, max_chars: int) -> Rendered:
    """Strings stay strings; everything else becomes JSON with non-ASCII kept as is."""
    if isinstance(value, str):
        if len(value) <= max_chars:
            return value, None, value
        return _cut(value, max_chars), None, value
    if isinstance(value, bytes | bytearray):
        return f"(binary data, {len(value)} bytes, not shown)", None, None
    try:
        jsonable = to_jsonable_python(value, fallback=str)
        content = json.dumps(jsonable, ensure_ascii=False)
    except (PydanticSerializationError, TypeError, ValueError):
        jsonable, content = str(value), str(value)
    structured = jsonable if isinstance(jsonable, dict | list) else None
    if len(content) > max_chars:
        # A cut JSON document is no longer the value the tool returned: no structured copy.
        return _cut(content, max_chars), None, jsonable
    return content, structured, jsonable


def _cut(content: str, max_chars: int) -> str:
    notice = (
        f"\n[truncated: showing {max_chars} of {len(content)} characters; ask for a narrower "
        "result (filters, a smaller limit) to see the rest]"
    )
    return content[:max_chars] + notice
