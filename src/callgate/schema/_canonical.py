"""Canonical JSON and content hashes.

Hashes bind approvals, fingerprints and receipts to exact content, so the encoding must not
depend on key order, whitespace or the escaping of non-ASCII text.

A lone UTF-16 surrogate (what `"\\ud800"` decodes to) has no UTF-8 form. Canonical JSON
writes it as the escape `\\ud800`, in lower case, and joins a surrogate pair held as two
code points into the one character it encodes, so values that are equal as JSON give
the same text, and hashing hostile text never fails.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

__all__ = ["LONE_SURROGATE", "canonical_json", "content_hash", "escape_lone_surrogates"]

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate code point: in a Python string, text without a UTF-8 form."""


def canonical_json(value: Any) -> str:
    """JSON with sorted keys, no insignificant whitespace, non-ASCII kept as is.

    Lone surrogates are escaped (see the module notes). Raises `ValueError` for NaN and
    Infinity, for integers longer than Python writes as text and for nesting deeper than
    Python's recursion limit, `TypeError` for values that are not JSON data.
    """
    try:
        text = json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    except RecursionError:
        raise ValueError("the value is nested too deeply to be written as JSON") from None
    return text if text.isascii() else escape_lone_surrogates(text)


def content_hash(value: Any) -> str:
    """sha256 of the canonical JSON of `value`, as 64 hex digits."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def escape_lone_surrogates(text: str) -> str:
    """`text` with surrogate pairs joined and every lone surrogate written as `\\udXXX`.

    Meant for JSON text, where the escape is the JSON spelling of the same string.
    """
    if LONE_SURROGATE.search(text) is None:
        return text
    joined = text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")
    return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", joined)
