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

__all__ = ["MAX_ERROR_CHARS", "MAX_READ_CHARS", "outcome", "prompt_value", "resource_text"]

MAX_ERROR_CHARS = 2_000
MAX_READ_CHARS = 1_000_000
"""A resource read or prompt larger than this is refused, not cut: it is no reading."""


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


def resource_text(result: mcp_types.ReadResourceResult, server: str) -> str:
    """The text of a read: each text content as given, each binary one named (with its
    URI when the read returned several)."""
    contents = result.contents
    _check_size(
        sum(len(getattr(c, "text", "") or getattr(c, "blob", "")) for c in contents), server
    )
    parts = [_content(c) for c in contents]
    if len(parts) == 1:
        return parts[0]
    return "\n\n".join(f"[{c.uri}]\n{part}" for c, part in zip(contents, parts, strict=True))


def prompt_value(result: mcp_types.GetPromptResult, server: str) -> dict[str, Any]:
    """A prompt's answer as the JSON the gate carries (the gateway rebuilds it)."""
    value: dict[str, Any] = result.model_dump(
        by_alias=True, mode="json", exclude_none=True, include={"description", "messages"}
    )
    _check_size(sum(len(_block(m.content)) for m in result.messages), server)
    return value


def _check_size(size: int, server: str) -> None:
    if size > MAX_READ_CHARS:
        raise ToolError(
            f"the upstream server {server!r} answered with {size:,} characters; the limit "
            f"is {MAX_READ_CHARS:,}"
        )


def _content(content: mcp_types.TextResourceContents | mcp_types.BlobResourceContents) -> str:
    if isinstance(content, mcp_types.TextResourceContents):
        return content.text
    size = len(content.blob) * 3 // 4 - content.blob[-2:].count("=")
    return f"[resource {content.uri}: {content.mime_type or 'binary'}, {size} bytes, not shown]"
