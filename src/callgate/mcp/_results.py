"""An upstream `CallToolResult` as the value a callgate executor returns.

`structuredContent` is returned as is (the gate checks it against the tool's output
schema and renders it); otherwise the text blocks are joined. Blocks the gate cannot carry
to a model as text (images, audio, binary resources) are named with their type and size,
never dropped silently. An upstream `isError` becomes a `ToolError` whose message says it
is the upstream server's own text, so it is never read as the gate's.
"""

from __future__ import annotations

from typing import Any

import mcp_types

from callgate._errors import ToolError

__all__ = ["MAX_ERROR_CHARS", "outcome"]

MAX_ERROR_CHARS = 2_000


def outcome(result: mcp_types.CallToolResult, server: str) -> Any:
    """What the gate renders for `result`; raises `ToolError` for an upstream error."""
    if result.is_error:
        text = _text(result.content) or "(no message)"
        if len(text) > MAX_ERROR_CHARS:
            text = text[:MAX_ERROR_CHARS] + " [...]"
        raise ToolError(f"the upstream server {server!r} reported an error: {text}")
    if result.structured_content is not None:
        return result.structured_content
    return _text(result.content)


def _text(blocks: list[mcp_types.ContentBlock]) -> str:
    return "\n".join(_block(b) for b in blocks)


def _block(block: mcp_types.ContentBlock) -> str:
    if isinstance(block, mcp_types.TextContent):
        return block.text
    if isinstance(block, mcp_types.ImageContent | mcp_types.AudioContent):
        kind = "image" if isinstance(block, mcp_types.ImageContent) else "audio"
        size = len(block.data) * 3 // 4 - block.data[-2:].count("=")  # base64 without decoding
        return f"[{kind} {block.mime_type}, {size} bytes, not shown]"
    if isinstance(block, mcp_types.ResourceLink):
        return f"[resource {block.name}: {block.uri}]"
    resource = block.resource
    if isinstance(resource, mcp_types.TextResourceContents):
        return resource.text
    return f"[resource {resource.uri}: {resource.mime_type or 'binary'}, not shown]"
