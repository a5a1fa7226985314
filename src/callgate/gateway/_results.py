"""A gate outcome as the `CallToolResult` a downstream MCP client receives.

Every route is a result, never a protocol error: `isError` is set unless the tool ran and
succeeded, the text is the route's model-facing text, and `structuredContent` is the
tool's structured result when it returned one. A held call is `isError` too: nothing ran,
and a client that checks a tool's output schema requires structured content on success.
`_meta` carries the route, so a client host can tell a held call from a failed one, and
the rule that decided it (`callgate/rule`); a call over a rate limit or budget also carries
`callgate/retry-after` (seconds), and an untrusted result the scan flagged its findings
(`callgate/findings`, `"S002 high at 120-161"`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mcp_types

from callgate.contract import Route, ToolResult

__all__ = [
    "FINDINGS_META",
    "RETRY_AFTER_META",
    "ROUTE_META",
    "RULE_META",
    "held_text",
    "to_call_result",
]

ROUTE_META = "callgate/route"
RULE_META = "callgate/rule"
RETRY_AFTER_META = "callgate/retry-after"
FINDINGS_META = "callgate/findings"


def held_text(result: ToolResult) -> str:
    """The held text for a client that cannot be asked: how a person decides, and what the
    client does afterwards."""
    return (
        f"{result.name} is waiting for approval {result.approval_id}: {result.reason}. "
        "Nothing has been done yet. A person decides it with "
        f"`callgate approvals approve {result.approval_id}` (or `deny`); after that, call "
        f"{result.name} again with the same arguments to get the outcome. Until then, tell "
        "the user it needs their approval."
    )


def to_call_result(
    result: ToolResult, *, retry_after: float | None = None, output_schema: bool = False
) -> mcp_types.CallToolResult:
    """`output_schema`: the tool declares one, so a success must carry structured content
    (MCP requires it, and the SDK's client refuses a result without); a completed call
    whose structured result is not known (a write reconciled after a crash: it took effect,
    its answer was lost) is sent with `isError` set, `_meta` saying `completed`."""
    held = result.route is Route.HELD
    text = held_text(result) if held else result.content
    meta: dict[str, Any] = {ROUTE_META: result.route.value}
    if result.rule_id:
        meta[RULE_META] = result.rule_id
    if result.approval_id:
        meta["callgate/approval-id"] = result.approval_id
    if result.replayed:
        meta["callgate/replayed"] = True
    if retry_after is not None:
        meta[RETRY_AFTER_META] = round(retry_after, 3)
    if result.findings:
        meta[FINDINGS_META] = list(result.findings)
    structured = (
        dict(result.structured)
        if isinstance(result.structured, Mapping) and not result.is_error and not held
        else None
    )
    unstructured = output_schema and structured is None
    return mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text=text)],
        structured_content=structured,
        is_error=result.is_error or held or unstructured,
        _meta=meta,
    )
