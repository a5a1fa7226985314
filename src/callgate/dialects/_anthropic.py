"""Anthropic Messages (dialects.md §3): tools, tool_choice, content blocks, tool results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from callgate.contract import ToolCall, ToolResult
from callgate.dialects._codec import Codec, result_of
from callgate.dialects._data import as_data, items, req_str, text_of
from callgate.dialects._errors import DialectError, shown
from callgate.dialects._kinds import Dialect, DialectWarning, ToolChoice
from callgate.dialects._model import Message, ParsedTurn, WireContext, WireTool
from callgate.schema import parse_arguments

__all__ = ["Anthropic"]

D = Dialect.ANTHROPIC
_STATE_BLOCKS = ("thinking", "redacted_thinking")


class Anthropic(Codec):
    dialect = D

    def tools(
        self,
        tools: Sequence[WireTool],
        choice: ToolChoice | None,
        parallel: bool | None,
        ctx: WireContext,
    ) -> tuple[dict[str, Any], list[DialectWarning]]:
        warnings: list[DialectWarning] = []
        if (
            choice is not None
            and choice.tools
            and not (choice.mode == "required" and len(choice.tools) == 1)
        ):
            # Anthropic has no allowed-subset choice: the subset is what it is offered.
            keep = {ctx.wire(n) for n in choice.tools}
            tools = [t for t in tools if t.name in keep]
            warnings.append(
                self.warning(
                    "tool_choice", "a subset of tools is expressed by sending only those tools"
                )
            )
        payload: dict[str, Any] = {}
        if tools:
            payload["tools"] = [_tool(t) for t in tools]
        wire_choice = _choice(choice, parallel, ctx)
        if wire_choice is not None:
            payload["tool_choice"] = wire_choice
        return payload, warnings

    def parse(self, data: Any, ctx: WireContext) -> ParsedTurn:
        data = as_data(data, D)
        if not isinstance(data, Mapping):
            raise DialectError(D, "expected a message object")
        message = self._assistant(data.get("content"), "content", ctx)
        reason = data.get("stop_reason")
        return ParsedTurn(
            text=message.text,
            calls=message.calls,
            state=message.state,
            finish_reason=reason if isinstance(reason, str) else None,
        )

    def results(
        self, results: Sequence[ToolResult], calls: Mapping[str, ToolCall], ctx: WireContext
    ) -> list[dict[str, Any]]:
        if not results:
            return []
        return [{"role": "user", "content": [_result(r) for r in results]}]

    def read(self, messages: Sequence[Any], ctx: WireContext) -> list[Message]:
        out: list[Message] = []
        for i, raw in enumerate(items(list(messages), D, "messages")):
            where = f"messages[{i}]"
            role = raw.get("role")
            if role == "assistant":
                out.append(self._assistant(raw.get("content"), f"{where}.content", ctx))
            elif role == "user":
                out += _user(raw.get("content"), f"{where}.content")
            else:
                raise DialectError(D, f"unknown message role {shown(role)}", where=where)
        return out

    def write(self, messages: Sequence[Message], ctx: WireContext) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for message in messages:
            if message.role == "system":
                raise DialectError(
                    D,
                    "system text goes in the 'system' parameter; pass it "
                    "to write_messages separately",
                )
            role, blocks = _blocks(message, ctx)
            if out and out[-1]["role"] == role:
                # The API requires alternating roles: results and the user's next words
                # share one user message, results first.
                out[-1]["content"] = out[-1]["content"] + blocks
            else:
                out.append({"role": role, "content": blocks})
        return out

    def _assistant(self, content: Any, where: str, ctx: WireContext) -> Message:
        if isinstance(content, str):
            return Message(role="assistant", text=content)
        text: list[str] = []
        calls: list[ToolCall] = []
        state: list[dict[str, Any]] = []
        for i, block in enumerate(items(content, D, where)):
            kind = block.get("type")
            if kind == "text":
                text.append(req_str(block, "text", D, f"{where}[{i}]"))
            elif kind == "tool_use":
                calls.append(ctx.finish(_call(block, f"{where}[{i}]")))
            elif kind in _STATE_BLOCKS:
                state.append(dict(block))
            else:
                raise DialectError(
                    D,
                    f"content block of type {shown(kind)} is not supported",
                    where=f"{where}[{i}]",
                )
        return Message(
            role="assistant",
            text="".join(text),
            calls=tuple(calls),
            state={"anthropic": {"blocks": state}} if state else {},
        )


def _call(block: Mapping[str, Any], where: str) -> ToolCall:
    arguments = block.get("input")
    # A string is a streamed input cut off mid-way: kept as text for the gate to report.
    if arguments is not None and not isinstance(arguments, Mapping | str):
        raise DialectError(D, "'input' must be an object", where=where)
    caller = block.get("caller")
    return ToolCall(
        id=req_str(block, "id", D, where),
        name=req_str(block, "name", D, where),
        arguments=arguments if arguments is not None else {},
        provider_state={"anthropic": {"caller": caller}} if caller else None,
    )


def _user(content: Any, where: str) -> list[Message]:
    if isinstance(content, str):
        return [Message(role="user", text=content)]
    out: list[Message] = []
    for i, block in enumerate(items(content, D, where)):
        kind = block.get("type")
        if kind == "tool_result":
            result = _read_result(block, f"{where}[{i}]")
            if out and out[-1].role == "tool":
                out[-1] = Message(role="tool", results=(*out[-1].results, result))
            else:
                out.append(Message(role="tool", results=(result,)))
        elif kind == "text":
            text = req_str(block, "text", D, f"{where}[{i}]")
            if out and out[-1].role == "user":
                out[-1] = Message(role="user", text=out[-1].text + text)
            else:
                out.append(Message(role="user", text=text))
        else:
            raise DialectError(
                D, f"content block of type {shown(kind)} is not supported", where=f"{where}[{i}]"
            )
    return out


def _read_result(block: Mapping[str, Any], where: str) -> ToolResult:
    content = text_of(block.get("content"), D, f"{where}.content", ("text",))
    return result_of(
        req_str(block, "tool_use_id", D, where), content, block.get("is_error") is True
    )


def _blocks(message: Message, ctx: WireContext) -> tuple[str, list[dict[str, Any]]]:
    if message.role == "tool":
        return "user", [_result(r) for r in message.results]
    if message.role == "user":
        return "user", [{"type": "text", "text": message.text}] if message.text else []
    blocks: list[dict[str, Any]] = list((message.state.get("anthropic") or {}).get("blocks", []))
    if message.text:  # the API rejects empty text blocks
        blocks.append({"type": "text", "text": message.text})
    blocks += [_use(c, ctx) for c in message.calls]
    return "assistant", blocks


def _use(call: ToolCall, ctx: WireContext) -> dict[str, Any]:
    parsed = parse_arguments(call.arguments)
    if not isinstance(parsed, dict):
        raise DialectError(
            D,
            f"call {shown(call.id)}: {parsed.message}; Anthropic needs an "
            "object (repair it before writing)",
        )
    block: dict[str, Any] = {
        "type": "tool_use",
        "id": call.id,
        "name": ctx.wire(call.name),
        "input": parsed,
    }
    caller = ((call.provider_state or {}).get("anthropic") or {}).get("caller")
    if caller:
        block["caller"] = caller
    return block


def _result(result: ToolResult) -> dict[str, Any]:
    block: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": result.call_id,
        "content": result.content,
    }
    if result.is_error:
        block["is_error"] = True
    return block


def _tool(t: WireTool) -> dict[str, Any]:
    out: dict[str, Any] = {"name": t.name}
    if t.tool.description:
        out["description"] = t.tool.description
    out["input_schema"] = {"type": "object", **t.schema}
    if t.strict:
        out["strict"] = True
    return out


def _choice(
    choice: ToolChoice | None, parallel: bool | None, ctx: WireContext
) -> dict[str, Any] | None:
    if choice is None and parallel is not False:
        return None
    mode = choice.mode if choice else "auto"
    if mode == "none":  # ToolChoiceNoneParam has no disable_parallel_tool_use
        return {"type": "none"}
    out: dict[str, Any]
    if choice and mode == "required" and len(choice.tools) == 1:
        out = {"type": "tool", "name": ctx.wire(choice.tools[0])}
    else:
        out = {"type": "any" if mode == "required" else "auto"}
    if parallel is False:
        out["disable_parallel_tool_use"] = True
    return out
