"""Plain text (dialects.md §8): the prompt section, results as text, calls found in text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from callgate.contract import ToolCall, ToolResult
from callgate.dialects._codec import Codec
from callgate.dialects._data import as_data
from callgate.dialects._errors import DialectError
from callgate.dialects._kinds import Dialect, DialectWarning, ToolChoice
from callgate.dialects._model import ParsedTurn, WireContext, WireTool
from callgate.dialects._text_extract import extract_calls
from callgate.dialects._text_render import render_prompt, render_result_text

__all__ = ["Text"]

D = Dialect.TEXT


class Text(Codec):
    dialect = D

    def tools(self, tools: Sequence[WireTool], choice: ToolChoice | None,
              parallel: bool | None, ctx: WireContext
              ) -> tuple[dict[str, Any], list[DialectWarning]]:
        return {"prompt": render_prompt(tools, choice, parallel, ctx)}, []

    def parse(self, data: Any, ctx: WireContext) -> ParsedTurn:
        data = as_data(data, D)
        if isinstance(data, Mapping):
            data = data.get("content")
        if not isinstance(data, str):
            raise DialectError(D, "expected the model's text")
        found = extract_calls(data, ctx.tools.values(), aliases=ctx.aliases)
        calls = tuple(ctx.finish(c) for c in found.calls)
        return ParsedTurn(text=found.text, calls=calls)

    def results(self, results: Sequence[ToolResult], calls: Mapping[str, ToolCall],
                ctx: WireContext) -> list[dict[str, Any]]:
        if not results:
            return []
        text = "\n".join(render_result_text(r, ctx) for r in results)
        return [{"role": "user", "content": text}]
