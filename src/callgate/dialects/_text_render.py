"""The plain-text prompt section that lists the tools and states the output format.

The format is the Hermes/Qwen one (`<tool_call>` around a JSON object), which the most
open-weight models were trained on and which `extract_calls` reads first.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from callgate.contract import ToolResult
from callgate.dialects._kinds import ToolChoice
from callgate.dialects._model import WireContext, WireTool

__all__ = ["render_prompt", "render_result_text"]

_FORMAT = """To call a tool, answer with one block per call, exactly in this form:
<tool_call>
{"name": "<tool name>", "arguments": {<the arguments as a JSON object>}}
</tool_call>
Use double quotes, no comments, and only the parameters listed for the tool."""


def render_prompt(
    tools: Sequence[WireTool], choice: ToolChoice | None, parallel: bool | None, ctx: WireContext
) -> str:
    """A system-prompt section: the tools as JSON declarations, then the call format."""
    if choice is not None and choice.mode == "none":
        return "# Tools\n\nDo not call any tool in this answer; reply in plain text."
    listed = [t for t in tools if choice is None or not choice.tools or t.tool.name in choice.tools]
    lines = [
        "# Tools",
        "",
        "You may call the following tools. Each is described by a JSON "
        "object with its name, description and JSON Schema parameters.",
        "<tools>",
    ]
    lines += [json.dumps(_declaration(t), ensure_ascii=False) for t in listed]
    lines += [
        "</tools>",
        "",
        _FORMAT,
        _rule(choice, parallel),
        "The results come back in <tool_response> blocks.",
    ]
    return "\n".join(line for line in lines if line is not None)


def _declaration(wire: WireTool) -> dict[str, object]:
    out: dict[str, object] = {"name": wire.name}
    if wire.tool.description:
        out["description"] = wire.tool.description
    out["parameters"] = wire.schema
    return out


def _rule(choice: ToolChoice | None, parallel: bool | None) -> str:
    must = choice is not None and choice.mode == "required"
    if parallel is False:
        return (
            "Call exactly one tool."
            if must
            else "Call at most one tool; if none is needed, answer in plain text."
        )
    return (
        "You must call at least one tool; you may call several."
        if must
        else "Call as many tools as needed, or none and answer in plain text."
    )


def render_result_text(result: ToolResult, ctx: WireContext) -> str:
    """One `<tool_response>` block; Hermes-style templates require the tool's name.

    Every `<` is written as the JSON escape `\\u003c` (the same string to a JSON reader), so
    no result can close its block or open a tag the model would take as the host's."""
    body: dict[str, object] = {"name": ctx.wire(result.name), "content": result.content}
    if result.is_error:
        body["is_error"] = True
    text = json.dumps(body, ensure_ascii=False).replace("<", "\\u003c")
    return "<tool_response>\n" + text + "\n</tool_response>"
