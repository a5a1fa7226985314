"""OpenAI Responses (dialects.md §2): flat function tools, output items, input items."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from callgate.contract import ToolCall, ToolResult
from callgate.dialects._codec import Codec, from_marked, marked, result_of
from callgate.dialects._data import as_data, items, new_call_id, req_str, text_of
from callgate.dialects._errors import DialectError, shown
from callgate.dialects._kinds import Dialect, DialectWarning, ToolChoice
from callgate.dialects._model import Message, ParsedTurn, Role, WireContext, WireTool
from callgate.dialects._openai_chat import arguments_text, chat_arguments, openai_tools_payload

__all__ = ["OpenAIResponses"]

D = Dialect.OPENAI_RESPONSES
_MESSAGE_ROLES: dict[str, Role] = {
    "user": "user",
    "system": "system",
    "developer": "system",
    "assistant": "assistant",
}


class OpenAIResponses(Codec):
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
        if isinstance(data, Mapping):
            finish = data.get("status")
            data = data.get("output")
        message = _merge_assistant(self._read_all(items(data, D, "output"), "output", ctx))
        return ParsedTurn(
            text=message.text,
            calls=message.calls,
            state=message.state,
            finish_reason=finish if isinstance(finish, str) else None,
        )

    def results(
        self, results: Sequence[ToolResult], calls: Mapping[str, ToolCall], ctx: WireContext
    ) -> list[dict[str, Any]]:
        return [
            {"type": "function_call_output", "call_id": r.call_id, "output": marked(r)}
            for r in results
        ]

    def read(self, messages: Sequence[Any], ctx: WireContext) -> list[Message]:
        return self._read_all(messages, "input", ctx)

    def _read_all(self, messages: Sequence[Any], where: str, ctx: WireContext) -> list[Message]:
        out: list[Message] = []
        for i, raw in enumerate(items(list(messages), D, where)):
            _append(out, self._read_item(raw, f"{where}[{i}]", ctx))
        return out

    def write(self, messages: Sequence[Message], ctx: WireContext) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for message in messages:
            if message.role == "tool":
                out += self.results(message.results, {}, ctx)
            elif message.role == "assistant":
                out += _assistant(message, ctx)
            else:
                role = "developer" if message.role == "system" else message.role
                out.append({"type": "message", "role": role, "content": message.text})
        return out

    def _read_item(self, raw: Mapping[str, Any], where: str, ctx: WireContext) -> Message:
        kind = raw.get("type", "message")
        if kind == "message":
            given = raw.get("role")
            role = _MESSAGE_ROLES.get(given) if isinstance(given, str) else None
            if role is None:
                raise DialectError(D, f"unknown message role {shown(raw.get('role'))}", where=where)
            return Message(
                role=role,
                text=text_of(
                    raw.get("content"), D, f"{where}.content", ("input_text", "output_text", "text")
                ),
            )
        if kind == "function_call":
            return Message(role="assistant", calls=(ctx.finish(_call(raw, where)),))
        if kind == "function_call_output":
            content, is_error = from_marked(
                text_of(raw.get("output"), D, f"{where}.output", ("input_text", "output_text"))
            )
            call_id = req_str(raw, "call_id", D, where)
            return Message(role="tool", results=(result_of(call_id, content, is_error),))
        if kind in ("custom_tool_call", "custom_tool_call_output"):
            raise DialectError(
                D, f"{kind} items are not supported (only function tools are rendered)", where=where
            )
        # Reasoning and built-in tool items are the provider's own state: echoed, never read.
        return Message(role="assistant", state={"openai": {"items": [dict(raw)]}})


def _call(raw: Mapping[str, Any], where: str) -> ToolCall:
    call_id = raw.get("call_id")
    state: dict[str, Any] = {}
    if isinstance(raw.get("id"), str):
        state["item_id"] = raw["id"]
    return ToolCall(
        id=call_id if isinstance(call_id, str) and call_id else new_call_id(),
        synthetic_id=not (isinstance(call_id, str) and call_id),
        name=req_str(raw, "name", D, where),
        arguments=chat_arguments(raw.get("arguments")),
        provider_state={"openai": state} if state else None,
    )


def _append(out: list[Message], message: Message) -> None:
    """Merge what the Responses API splits into items back into whole messages."""
    last = out[-1] if out else None
    if last is not None and last.role == message.role == "tool":
        out[-1] = Message(role="tool", results=last.results + message.results)
    elif (
        last is not None
        and last.role == message.role == "assistant"
        and not (last.calls and (message.text or message.state))
    ):
        out[-1] = _merge_assistant([last, message])
    else:
        out.append(message)


def _merge_assistant(messages: Sequence[Message]) -> Message:
    text = "".join(m.text for m in messages if m.role == "assistant")
    calls = tuple(c for m in messages for c in m.calls)
    state_items = [i for m in messages for i in (m.state.get("openai") or {}).get("items", [])]
    state = {"openai": {"items": state_items}} if state_items else {}
    return Message(role="assistant", text=text, calls=calls, state=state)


def _assistant(message: Message, ctx: WireContext) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = list((message.state.get("openai") or {}).get("items", []))
    if message.text:
        out.append({"type": "message", "role": "assistant", "content": message.text})
    for call in message.calls:
        item: dict[str, Any] = {
            "type": "function_call",
            "call_id": call.id,
            "name": ctx.wire(call.name),
            "arguments": arguments_text(call, D),
        }
        item_id = ((call.provider_state or {}).get("openai") or {}).get("item_id")
        if item_id:
            item["id"] = item_id
        out.append(item)
    return out


def _tool(t: WireTool) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "function", "name": t.name}
    if t.tool.description:
        out["description"] = t.tool.description
    out["parameters"] = t.schema
    # Responses normalises to strict when `strict` is omitted; callgate always says which.
    out["strict"] = bool(t.strict)
    return out


def _choice(choice: ToolChoice, ctx: WireContext) -> Any:
    names = [ctx.wire(n) for n in choice.tools]
    if not names or choice.mode == "none":
        return choice.mode
    if len(names) == 1 and choice.mode == "required":
        return {"type": "function", "name": names[0]}
    return {
        "type": "allowed_tools",
        "mode": choice.mode,
        "tools": [{"type": "function", "name": n} for n in names],
    }
