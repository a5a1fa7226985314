"""Turn whatever a tool returned into model-facing text and structured JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic_core import PydanticSerializationError, to_jsonable_python

__all__ = ["Rendered", "render_value"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Rendered:
    content: str
    structured: Any
    """The JSON value (objects and arrays only), or None for text results."""
    value: Any
    """The JSON-able value an output schema is checked against."""


def render_value(value: Any, max_chars: int) -> Rendered:
    """Strings stay strings; everything else becomes JSON with non-ASCII kept as is."""
    if isinstance(value, str):
        return _cut(Rendered(content=value, structured=None, value=value), max_chars)
    if isinstance(value, bytes | bytearray):
        text = f"(binary data, {len(value)} bytes, not shown)"
        return Rendered(content=text, structured=None, value=None)
    try:
        jsonable = to_jsonable_python(value, fallback=str)
        content = json.dumps(jsonable, ensure_ascii=False)
    except (PydanticSerializationError, TypeError, ValueError):
        jsonable, content = str(value), str(value)
    structured = jsonable if isinstance(jsonable, dict | list) else None
    return _cut(Rendered(content=content, structured=structured, value=jsonable), max_chars)


def _cut(rendered: Rendered, max_chars: int) -> Rendered:
    total = len(rendered.content)
    if total <= max_chars:
        return rendered
    notice = (
        f"\n[truncated: showing {max_chars} of {total} characters; ask for a narrower "
        "result (filters, a smaller limit) to see the rest]"
    )
    # A cut JSON document is no longer the value the tool returned: drop the structured copy.
    return Rendered(
        content=rendered.content[:max_chars] + notice, structured=None, value=rendered.value
    )
