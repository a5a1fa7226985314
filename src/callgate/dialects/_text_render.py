"""The plain-text prompt section that lists the tools and states the output format."""

from __future__ import annotations

from collections.abc import Sequence

from callgate.contract import ToolResult
from callgate.dialects._kinds import ToolChoice
from callgate.dialects._model import WireContext, WireTool

__all__ = ["render_prompt", "render_result_text"]


def render_prompt(tools: Sequence[WireTool], choice: ToolChoice | None,
                  parallel: bool | None, ctx: WireContext) -> str:
    return ""


def render_result_text(result: ToolResult, ctx: WireContext) -> str:
    return result.content
