"""`json-repair`, bounded: the one way this package repairs malformed JSON.

`json-repair` takes time quadratic in its input on some texts (`')` or `"a` repeated after
an opening `[`: 4 KB takes 1.7 s, 16 KB 22 s), so a text longer than `MAX_REPAIR` is not
repaired at all, and one extraction or conversion repairs at most `REPAIR_BUDGET`
characters in all: a long text of many short broken values is not repaired piece by
piece for minutes. Real repairs are short: the longest in the BFCL outputs is 1.3 KB, and
no output there tries more than 3.2 KB of repairs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

import json_repair

__all__ = ["MAX_REPAIR", "REPAIR_BUDGET", "budgeted", "repair"]

MAX_REPAIR = 2 * 1024
"""Characters above which a text is not repaired (about 0.4 s at worst)."""
REPAIR_BUDGET = 4 * 1024
"""Characters one extraction or conversion may repair in all (about a second at worst)."""

# A context variable rather than a parameter: repairs happen deep inside value reading,
# and the budget belongs to the outermost public call, however it nests.
_LEFT: ContextVar[list[int] | None] = ContextVar("callgate_repair_budget", default=None)


_P = ParamSpec("_P")
_R = TypeVar("_R")


def budgeted(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """`fn` with the repairs of each call sharing one `REPAIR_BUDGET`; a budgeted call inside
    another shares the outer one."""

    @functools.wraps(fn)
    def within_budget(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if _LEFT.get() is not None:
            return fn(*args, **kwargs)
        token = _LEFT.set([REPAIR_BUDGET])
        try:
            return fn(*args, **kwargs)
        finally:
            _LEFT.reset(token)

    return within_budget


def repair(text: str) -> tuple[Any, list[Any]] | None:
    """The value `json-repair` reads from `text` and its log of what it changed; None when
    the text is too long to repair, the budget is spent, or `json-repair` gives up."""
    if len(text) > MAX_REPAIR:
        return None
    left = _LEFT.get()
    if left is not None:
        if len(text) > left[0]:
            return None
        left[0] -= len(text)
    try:
        value, log = json_repair.repair_json(text, return_objects=True, logging=True)
    except Exception:  # json_repair gives up with assorted errors on hopeless input
        return None
    return value, log if isinstance(log, list) else []
