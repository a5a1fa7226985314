"""OpenAI Chat Completions (dialects.md §1): tools, tool_choice, messages, deltas."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from callgate.contract import ToolCall, ToolResult
from callgate.dialects._codec import Codec, bind_results, from_marked, marked, result_of
from callgate.dialects._data import as_data, dumps, items, new_call_id, req_str, text_of
from callgate.dialects._errors import DialectError, shown
from callgate.dialects._kinds import Dialect, DialectWarning, ToolChoice
from callgate.dialects._model import Message, ParsedTurn, WireContext, WireTool

__all__ = ["OpenAIChat", "arguments_text", "chat_arguments", "openai_tools_payload"]

D = Dialect.OPENAI_CHAT


class OpenAIChat(Codec):
    dialect = D

    def tools(
        self,
        tools: Sequence[WireTool],
        choice: ToolChoice | None,
        parallel: bool | None,
        ctx: WireContext,
    ) -> tuple[dict[str, Any], list[DialectWarning]]:
        return openai_tools_payload(tools, choice, parallel, ctx, tool=_tool, choose=_choice), []

    def parse(self, data: Any, ctx: WireContext) -> ParsedTurn:
        data = as_data(data, D)
        finish = None
        if isinstance(data, Mapping) and "choices" in data:
            choices = items(data["choices"], D, "choices")
            if not choices:
                raise DialectError(D, "the response has no choices", where="choices")
            finish = choices[0].get("finish_reason")
            data = choices[0].get("message")
        if not isinstance(data, Mapping):
            raise DialectError(D, "expected a chat completion or an assistant message")
        message = self.read_assistant(data, "message", ctx)
        return ParsedTurn(text=message.text, calls=message.calls, finish_reason=finish)

    def results(
        self, results: Sequence[ToolResult], calls: Mapping[str, ToolCall], ctx: WireContext
    ) -> list[dict[str, Any]]:
        return [{"role": "tool", "tool_call_id": r.call_id, "content": marked(r)} for r in results]

    def read(self, messages: Sequence[Any], ctx: WireContext) -> list[Message]:
        out: list[Message] = []
        for i, raw in enumerate(items(list(messages), D, "messages")):
            message = self._read_one(raw, f"messages[{i}]", ctx)
            if out and out[-1].role == message.role == "tool":
                # One `role: tool` message per result: together they answer one turn.
                message = Message(role="tool", results=out.pop().results + message.results)
            out.append(message)
        bind_results(out)  # legacy `role: function` results carry a name, not an id
        return out

    def write(self, messages: Sequence[Message], ctx: WireContext) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for message in messages:
            if message.role == "tool":
                out += self.results(message.results, {}, ctx)
            elif message.role == "assistant":
                out.append(_assistant(message, ctx))
            else:
                out.append({"role": message.role, "content": message.text})
        return out

    def read_assistant(self, data: Mapping[str, Any], where: str, ctx: WireContext) -> Message:
        text = text_of(data.get("content"), D, f"{where}.content", ("text", "output_text"))
        raw_calls = items(data.get("tool_calls"), D, f"{where}.tool_calls")
        calls = [ctx.finish(_call(c, f"{where}.tool_calls[{i}]")) for i, c in enumerate(raw_calls)]
        legacy = data.get("function_call")
        if isinstance(legacy, Mapping):
            calls.append(
                ctx.finish(
                    ToolCall(
                        id=new_call_id(),
                        name=req_str(legacy, "name", D, f"{where}.function_call"),
                        arguments=chat_arguments(legacy.get("arguments")),
                        synthetic_id=True,
                    )
                )
            )
        return Message(role="assistant", text=text, calls=tuple(calls))

    def _read_one(self, raw: Mapping[str, Any], where: str, ctx: WireContext) -> Message:
        role = raw.get("role")
        if role == "assistant":
            return self.read_assistant(raw, where, ctx)
        if role == "tool":
            content, is_error = from_marked(text_of(raw.get("content"), D, where))
            call_id = req_str(raw, "tool_call_id", D, where)
            return Message(role="tool", results=(result_of(call_id, content, is_error),))
        if role == "function":
            content, is_error = from_marked(text_of(raw.get("content"), D, where))
            result = result_of("", content, is_error, name=req_str(raw, "name", D, where))
            return Message(role="tool", results=(result,))
        if role in ("system", "developer", "user"):
            return Message(
                role="user" if role == "user" else "system",
                text=text_of(raw.get("content"), D, f"{where}.content"),
            )
        raise DialectError(D, f"unknown message role {shown(role)}", where=where)


def chat_arguments(value: Any) -> str | Mapping[str, Any] | None:
    """Arguments as sent: a JSON string (OpenAI) or an object (Ollama and others)."""
    if value is None or isinstance(value, str | Mapping):
        return value
    raise DialectError(D, f"tool call arguments must be a string, got {type(value).__name__}")


def _call(raw: Mapping[str, Any], where: str) -> ToolCall:
    kind = raw.get("type", "function")
    if kind != "function":
        raise DialectError(
            D,
            f"tool call of type {shown(kind)} is not supported (only function tools are rendered)",
            where=where,
        )
    fn = raw.get("function")
    if not isinstance(fn, Mapping):
        raise DialectError(D, "'function' must be an object", where=where)
    call_id = raw.get("id")
    state = _google_state(raw)
    return ToolCall(
        id=call_id if isinstance(call_id, str) and call_id else new_call_id(),
        name=req_str(fn, "name", D, f"{where}.function"),
        arguments=chat_arguments(fn.get("arguments")),
        synthetic_id=not (isinstance(call_id, str) and call_id),
        provider_state=state,
    )


def _google_state(raw: Mapping[str, Any]) -> dict[str, Any] | None:
    """Gemini's OpenAI-compatible endpoint puts thought signatures in `extra_content`."""
    extra = raw.get("extra_content")
    google = extra.get("google") if isinstance(extra, Mapping) else None
    signature = google.get("thought_signature") if isinstance(google, Mapping) else None
    return {"gemini": {"thought_signature": signature}} if signature else None


def _assistant(message: Message, ctx: WireContext) -> dict[str, Any]:
    out: dict[str, Any] = {"role": "assistant", "content": message.text or None}
    if message.calls:
        out["tool_calls"] = [_wire_call(c, ctx) for c in message.calls]
    return out


def _wire_call(call: ToolCall, ctx: WireContext) -> dict[str, Any]:
    wire: dict[str, Any] = {
        "id": call.id,
        "type": "function",
        "function": {"name": ctx.wire(call.name), "arguments": arguments_text(call)},
    }
    signature = ((call.provider_state or {}).get("gemini") or {}).get("thought_signature")
    if signature:
        wire["extra_content"] = {"google": {"thought_signature": signature}}
    return wire


def arguments_text(call: ToolCall, dialect: Dialect = D) -> str:
    """The arguments as a JSON string: the model's own text when there is one."""
    if isinstance(call.arguments, str):
        # An empty string means "no arguments"; Chat replays need a JSON object text.
        return call.arguments if call.arguments.strip() else "{}"
    return dumps(dict(call.arguments or {}), dialect, f"call {shown(call.id)}")


def openai_tools_payload(
    tools: Sequence[WireTool],
    choice: ToolChoice | None,
    parallel: bool | None,
    ctx: WireContext,
    *,
    tool: Callable[[WireTool], dict[str, Any]],
    choose: Callable[[ToolChoice, WireContext], Any],
) -> dict[str, Any]:
    """`tools`, `tool_choice` and `parallel_tool_calls`: the same fields in Chat and
    Responses, each tool and choice in its own API's shape."""
    payload: dict[str, Any] = {}
    if tools:
        payload["tools"] = [tool(t) for t in tools]
    if choice is not None:
        payload["tool_choice"] = choose(choice, ctx)
    if parallel is not None and tools:
        payload["parallel_tool_calls"] = parallel
    return payload


def _tool(t: WireTool) -> dict[str, Any]:
    fn: dict[str, Any] = {"name": t.name}
    if t.tool.description:
        fn["description"] = t.tool.description
    fn["parameters"] = t.schema
    if t.strict is not None:
        fn["strict"] = t.strict
    return {"type": "function", "function": fn}


def _choice(choice: ToolChoice, ctx: WireContext) -> Any:
    names = [ctx.wire(n) for n in choice.tools]
    if not names or choice.mode == "none":
        return choice.mode
    if len(names) == 1 and choice.mode == "required":
        return {"type": "function", "function": {"name": names[0]}}
    return {
        "type": "allowed_tools",
        "allowed_tools": {
            "mode": choice.mode,
            "tools": [{"type": "function", "function": {"name": n}} for n in names],
        },
    }
