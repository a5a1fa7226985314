"""Canonical JSON and content hashes.

Hashes bind approvals, fingerprints and receipts to exact content, so the encoding must not
depend on key order, whitespace or the escaping of non-ASCII text.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

__all__ = ["canonical_json", "content_hash"]


def canonical_json(value: Any) -> str:
    """JSON with sorted keys, no insignificant whitespace, non-ASCII kept as is."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def content_hash(value: Any) -> str:
    """sha256 of the canonical JSON of `value`, as 64 hex digits."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()
