"""Calling a tool's own hooks (`reconcile`, `read_back`): sync or async, never trusted to
behave — an exception in a hook is logged and read as "cannot tell"."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Mapping
from typing import Any, Literal

from callgate.contract import Executor
from callgate.gate._log import GateLog

__all__ = ["Reconciliation", "ask_reconcile", "confirm_write"]

Reconciliation = Literal["applied", "not_applied", "unknown"]
"""What a tool's `reconcile(key)` found out about an earlier attempt.

The hook may return these strings, or `True` (applied), `False` (not applied) and `None`
(cannot tell).
"""

_SHORTHAND: dict[Any, Reconciliation] = {True: "applied", False: "not_applied", None: "unknown"}


async def _call(hook: Executor, *args: Any) -> Any:
    if inspect.iscoroutinefunction(hook):
        return await hook(*args)
    value = await asyncio.to_thread(hook, *args)
    return await value if inspect.isawaitable(value) else value


async def ask_reconcile(hook: Executor, key: str, tool_name: str, log: GateLog) -> Reconciliation:
    """Ask whether the attempt under `key` took effect on the target system."""
    try:
        answer = await _call(hook, key)
    except Exception:
        log.exception("reconcile hook of %s failed for key %s", tool_name, key)
        return "unknown"
    if answer in ("applied", "not_applied", "unknown"):
        return answer  # type: ignore[no-any-return]
    return _SHORTHAND.get(answer, "unknown") if isinstance(answer, bool | None) else "unknown"


async def confirm_write(
    hook: Executor, arguments: Mapping[str, Any], result: Any, tool_name: str, log: GateLog
) -> bool:
    """`read_back(arguments, result)`: True only when the target confirms the write."""
    try:
        return await _call(hook, dict(arguments), result) is True
    except Exception:
        log.exception("read_back hook of %s failed", tool_name)
        return False
