"""MCP (dialects.md §5): `Tool` listings, `tools/call` requests and `CallToolResult`s."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from callgate.contract import ToolCall, ToolResult
from callgate.dialects._codec import Codec
from callgate.dialects._data import as_data, new_call_id, req_str
from callgate.dialects._errors import DialectError
from callgate.dialects._kinds import Dialect, DialectWarning, ToolChoice
from callgate.dialects._model import ParsedTurn, WireContext, WireTool

__all__ = ["MCP"]

D = Dialect.MCP


class MCP(Codec):
    dialect = D

    def tools(
        self,
        tools: Sequence[WireTool],
        choice: ToolChoice | None,
        parallel: bool | None,
        ctx: WireContext,
    ) -> tuple[dict[str, Any], list[DialectWarning]]:
        warnings = []
        if choice is not None and choice != ToolChoice():
            warnings.append(self.warning("tool_choice", "MCP servers do not choose tools"))
        if parallel is not None:
            warnings.append(self.warning("parallel_tool_calls", "MCP has no parallel switch"))
        return {"tools": [_tool(t) for t in tools]}, warnings

    def parse(self, data: Any, ctx: WireContext) -> ParsedTurn:
        """A `tools/call` request (JSON-RPC envelope or bare params) as one call."""
        data = as_data(data, D)
        if not isinstance(data, Mapping):
            raise DialectError(D, "expected a tools/call request")
        rpc_id = data.get("id")
        params = data.get("params", data)
        if data.get("method", "tools/call") != "tools/call" or not isinstance(params, Mapping):
            raise DialectError(D, "expected a tools/call request")
        arguments = params.get("arguments")
        if arguments is not None and not isinstance(arguments, Mapping):
            raise DialectError(D, "'arguments' must be an object", where="params")
        has_id = isinstance(rpc_id, str | int) and not isinstance(rpc_id, bool)
        call = ToolCall(
            id=str(rpc_id) if has_id else new_call_id(),
            synthetic_id=not has_id,
            name=req_str(params, "name", D, "params"),
            arguments=arguments or {},
        )
        return ParsedTurn(calls=(ctx.finish(call),))

    def results(
        self, results: Sequence[ToolResult], calls: Mapping[str, ToolCall], ctx: WireContext
    ) -> list[dict[str, Any]]:
        return [_result(r) for r in results]


def _result(result: ToolResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "content": [{"type": "text", "text": result.content}],
        "isError": result.is_error,
    }
    # 2025-11-25 allows only an object here; other JSON values stay in the text block.
    if isinstance(result.structured, Mapping) and not result.is_error:
        out["structuredContent"] = dict(result.structured)
    return out


def _tool(t: WireTool) -> dict[str, Any]:
    tool = t.tool
    out: dict[str, Any] = {"name": t.name}
    if tool.annotations.title:
        out["title"] = tool.annotations.title
    out["description"] = tool.description
    out["inputSchema"] = {"type": "object", **t.schema}
    if tool.output_schema is not None:
        out["outputSchema"] = dict(tool.output_schema)
    annotations = tool.annotations.to_mcp()
    if annotations:
        out["annotations"] = annotations
    return out
