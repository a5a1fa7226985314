"""Plain text (dialects.md §8): the prompt section, results as text, calls found in text."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from callgate.contract import ToolCall, ToolResult
from callgate.dialects._codec import Codec, bind_results, result_of
from callgate.dialects._data import as_data, items, text_of
from callgate.dialects._errors import DialectError
from callgate.dialects._kinds import Dialect, DialectWarning, ToolChoice
from callgate.dialects._model import Message, ParsedTurn, WireContext, WireTool
from callgate.dialects._text_extract import extract_calls
from callgate.dialects._text_render import render_prompt, render_result_text
from callgate.schema import parse_arguments

__all__ = ["Text"]

D = Dialect.TEXT


class Text(Codec):
    dialect = D

    def tools(
        self,
        tools: Sequence[WireTool],
        choice: ToolChoice | None,
        parallel: bool | None,
        ctx: WireContext,
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

    def results(
        self, results: Sequence[ToolResult], calls: Mapping[str, ToolCall], ctx: WireContext
    ) -> list[dict[str, Any]]:
        if not results:
            return []
        text = "\n".join(render_result_text(r, ctx) for r in results)
        return [{"role": "user", "content": text}]

    def read(self, messages: Sequence[Any], ctx: WireContext) -> list[Message]:
        """Plain `{role, content}` messages; calls are found in assistant text by
        `extract_calls`, so pass the `Rendered` catalog; results in `<tool_response>`."""
        out: list[Message] = []
        for i, raw in enumerate(items(list(messages), D, "messages")):
            role = raw.get("role")
            content = text_of(raw.get("content"), D, f"messages[{i}].content")
            if role == "assistant":
                turn = self.parse(content, ctx)
                out.append(Message(role="assistant", text=turn.text, calls=turn.calls))
            elif role in ("user", "system"):
                out += _user_or_results(role, content, ctx)
            else:
                raise DialectError(D, f"unknown message role {role!r}", where=f"messages[{i}]")
        bind_results(out)
        return out

    def write(self, messages: Sequence[Message], ctx: WireContext) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for message in messages:
            if message.role == "tool":
                out += self.results(message.results, {}, ctx)
            elif message.role == "assistant":
                blocks = [message.text] if message.text else []
                blocks += [_call_block(c, ctx) for c in message.calls]
                out.append({"role": "assistant", "content": "\n".join(blocks)})
            else:
                out.append({"role": message.role, "content": message.text})
        return out


_RESPONSE = re.compile(r"<tool_response>\s*(.*?)\s*</tool_response>", re.S)


def _user_or_results(role: str, content: str, ctx: WireContext) -> list[Message]:
    found = _RESPONSE.findall(content)
    if role == "system" or not found:
        return [Message(role="system" if role == "system" else "user", text=content)]
    results = []
    for body in found:
        try:
            value = json.loads(body)
        except ValueError:
            value = {"content": body}
        value = value if isinstance(value, dict) else {"content": body}
        text = value.get("content")
        results.append(
            result_of(
                "",
                text if isinstance(text, str) else json.dumps(text),
                value.get("is_error") is True,
                name=ctx.canonical(str(value.get("name", ""))),
            )
        )
    rest = _RESPONSE.sub("", content).strip()
    out = [Message(role="tool", results=tuple(results))]
    return out + ([Message(role="user", text=rest)] if rest else [])


def _call_block(call: ToolCall, ctx: WireContext) -> str:
    parsed = parse_arguments(call.arguments)
    args: Any = parsed if isinstance(parsed, dict) else call.arguments
    body = json.dumps({"name": ctx.wire(call.name), "arguments": args}, ensure_ascii=False)
    # Arguments that could not be parsed are the model's text as it came: a lone surrogate
    # in it is written as the escape JSON has for it, so the message stays valid UTF-8.
    body = body.encode("utf-8", "backslashreplace").decode("utf-8")
    return f"<tool_call>\n{body}\n</tool_call>"
