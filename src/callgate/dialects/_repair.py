"""`json-repair`, bounded: the one way this package repairs malformed JSON.

`json-repair` takes time quadratic in its input on some texts (quotes and closing
brackets repeated: 16 KB of `')` takes 22 s), so a text longer than `MAX_REPAIR` is not
repaired at all. Real repairs are of short texts: the longest in the BFCL outputs is
1.3 KB.
"""

from __future__ import annotations

from typing import Any

import json_repair

__all__ = ["MAX_REPAIR", "repair"]

MAX_REPAIR = 4 * 1024
"""Characters above which a text is not repaired (under a second at worst)."""


def repair(text: str) -> tuple[Any, list[Any]] | None:
    """The value `json-repair` reads from `text` and its log of what it changed; None when
    the text is too long to repair or `json-repair` gives up."""
    if len(text) > MAX_REPAIR:
        return None
    try:
        value, log = json_repair.repair_json(text, return_objects=True, logging=True)
    except Exception:  # json_repair gives up with assorted errors on hopeless input
        return None
    return value, log if isinstance(log, list) else []
