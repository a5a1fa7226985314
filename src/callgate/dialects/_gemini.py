"""Google Gemini (dialects.md §4): declarations, function calls and responses as parts.

Payloads use the REST spelling (camelCase); `google-genai` types accept it through their
aliases, and SDK objects are read through `model_dump(by_alias=True)`. Both spellings
are read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from callgate.contract import ToolCall, ToolResult
from callgate.dialects._codec import Codec, bind_results, result_of
from callgate.dialects._data import as_data, field, items, new_call_id, req_str
from callgate.dialects._errors import DialectError
from callgate.dialects._kinds import Dialect, DialectWarning, ToolChoice
from callgate.dialects._model import Message, ParsedTurn, WireContext, WireTool
from callgate.schema import parse_arguments

__all__ = ["Gemini"]

D = Dialect.GEMINI
_MODES = {"auto": "AUTO", "required": "ANY", "none": "NONE"}


class Gemini(Codec):
    dialect = D

    def tools(
        self,
        tools: Sequence[WireTool],
        choice: ToolChoice | None,
        parallel: bool | None,
        ctx: WireContext,
    ) -> tuple[dict[str, Any], list[DialectWarning]]:
        warnings: list[DialectWarning] = []
        payload: dict[str, Any] = {}
        if tools:
            payload["tools"] = [{"functionDeclarations": [_declaration(t) for t in tools]}]
        if choice is not None:
            payload["toolConfig"] = {"functionCallingConfig": _choice(choice, ctx)}
        if parallel is False:
            warnings.append(
                self.warning("parallel_tool_calls", "Gemini has no switch for parallel calls")
            )
        return payload, warnings

    def parse(self, data: Any, ctx: WireContext) -> ParsedTurn:
        data = as_data(data, D)
        if not isinstance(data, Mapping):
            raise DialectError(D, "expected a response or a content object")
        finish = None
        if "candidates" in data:
            candidates = items(data["candidates"], D, "candidates")
            if not candidates:
                raise DialectError(D, "the response has no candidates", where="candidates")
            finish = field(candidates[0], "finishReason", "finish_reason")
            data = candidates[0].get("content") or {}
        message = _model_content(data, "content", ctx)
        return ParsedTurn(
            text=message.text,
            calls=message.calls,
            state=message.state,
            finish_reason=finish if isinstance(finish, str) else None,
        )

    def results(
        self, results: Sequence[ToolResult], calls: Mapping[str, ToolCall], ctx: WireContext
    ) -> list[dict[str, Any]]:
        if not results:
            return []
        return [{"role": "user", "parts": [_response(r, calls, ctx) for r in results]}]

    def read(self, messages: Sequence[Any], ctx: WireContext) -> list[Message]:
        out: list[Message] = []
        for i, raw in enumerate(items(list(messages), D, "contents")):
            where = f"contents[{i}]"
            if raw.get("role") == "model":
                out.append(_model_content(raw, where, ctx))
            else:
                out += _user_content(raw, where, ctx)
        bind_results(out)
        return out

    def write(self, messages: Sequence[Message], ctx: WireContext) -> list[dict[str, Any]]:
        calls: dict[str, ToolCall] = {}
        out: list[dict[str, Any]] = []
        for message in messages:
            if message.role == "system":
                raise DialectError(
                    D,
                    "system text goes in 'systemInstruction'; pass it to write_messages separately",
                )
            if message.role == "assistant":
                calls.update((c.id, c) for c in message.calls)
                out.append({"role": "model", "parts": _model_parts(message, ctx)})
            elif message.role == "tool":
                out += self.results(message.results, calls, ctx)
            else:
                out.append({"role": "user", "parts": [{"text": message.text}]})
        return out


def _model_content(data: Mapping[str, Any], where: str, ctx: WireContext) -> Message:
    text: list[str] = []
    calls: list[ToolCall] = []
    thoughts: list[dict[str, Any]] = []
    text_signature = None
    for i, part in enumerate(items(data.get("parts"), D, f"{where}.parts")):
        signature = field(part, "thoughtSignature", "thought_signature")
        call = field(part, "functionCall", "function_call")
        if isinstance(call, Mapping):
            calls.append(ctx.finish(_call(call, signature, f"{where}.parts[{i}]"), "gemini"))
        elif part.get("thought"):
            thoughts.append(dict(part))
        elif isinstance(part.get("text"), str):
            text.append(part["text"])
            text_signature = text_signature or signature
        elif signature and set(part) <= {"thoughtSignature", "thought_signature"}:
            thoughts.append(dict(part))
        else:
            raise DialectError(
                D, f"part with fields {sorted(part)} is not supported", where=f"{where}.parts[{i}]"
            )
    state: dict[str, Any] = {}
    if thoughts:
        state["thoughts"] = thoughts
    if text_signature:
        state["text_signature"] = text_signature
    return Message(
        role="assistant",
        text="".join(text),
        calls=tuple(calls),
        state={"gemini": state} if state else {},
    )


def _call(raw: Mapping[str, Any], signature: Any, where: str) -> ToolCall:
    call_id = raw.get("id")
    args = raw.get("args")
    if args is not None and not isinstance(args, Mapping):
        raise DialectError(D, "'args' must be an object", where=where)
    return ToolCall(
        id=call_id if isinstance(call_id, str) and call_id else new_call_id(),
        synthetic_id=not (isinstance(call_id, str) and call_id),
        name=req_str(raw, "name", D, f"{where}.functionCall"),
        arguments=args if args is not None else {},
        provider_state={"gemini": {"thought_signature": signature}} if signature else None,
    )


def _user_content(data: Mapping[str, Any], where: str, ctx: WireContext) -> list[Message]:
    out: list[Message] = []
    for i, part in enumerate(items(data.get("parts"), D, f"{where}.parts")):
        response = field(part, "functionResponse", "function_response")
        if isinstance(response, Mapping):
            result = _read_response(response, f"{where}.parts[{i}]", ctx)
            if out and out[-1].role == "tool":
                out[-1] = Message(role="tool", results=(*out[-1].results, result))
            else:
                out.append(Message(role="tool", results=(result,)))
        elif isinstance(part.get("text"), str):
            if out and out[-1].role == "user":
                out[-1] = Message(role="user", text=out[-1].text + part["text"])
            else:
                out.append(Message(role="user", text=part["text"]))
        else:
            raise DialectError(
                D, f"part with fields {sorted(part)} is not supported", where=f"{where}.parts[{i}]"
            )
    return out


def _read_response(raw: Mapping[str, Any], where: str, ctx: WireContext) -> ToolResult:
    body = raw.get("response")
    if not isinstance(body, Mapping):
        raise DialectError(D, "'response' must be an object", where=where)
    is_error = "error" in body and "result" not in body and "output" not in body
    if is_error:
        value = body["error"]
    elif "result" in body or "output" in body:
        value = body.get("result", body.get("output"))
    else:  # "If 'output' and 'error' keys are not specified, the whole 'response' is output"
        value = dict(body)
    content = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    call_id = raw.get("id")
    return result_of(
        call_id if isinstance(call_id, str) else "",
        content,
        is_error,
        name=ctx.canonical(req_str(raw, "name", D, where)),
        structured=None if isinstance(value, str) else value,
    )


def _model_parts(message: Message, ctx: WireContext) -> list[dict[str, Any]]:
    state = message.state.get("gemini") or {}
    parts: list[dict[str, Any]] = list(state.get("thoughts", []))
    if message.text:
        part: dict[str, Any] = {"text": message.text}
        if state.get("text_signature"):
            part["thoughtSignature"] = state["text_signature"]
        parts.append(part)
    for call in message.calls:
        parts.append(_call_part(call, ctx))
    return parts


def _call_part(call: ToolCall, ctx: WireContext) -> dict[str, Any]:
    parsed = parse_arguments(call.arguments)
    if not isinstance(parsed, dict):
        raise DialectError(
            D,
            f"call {call.id!r}: {parsed.message}; Gemini needs an object "
            "(repair it before writing)",
        )
    body: dict[str, Any] = {"name": ctx.wire(call.name), "args": parsed}
    if not call.synthetic_id:
        body["id"] = call.id
    part: dict[str, Any] = {"functionCall": body}
    signature = ((call.provider_state or {}).get("gemini") or {}).get("thought_signature")
    if signature:
        part["thoughtSignature"] = signature
    return part


def _response(
    result: ToolResult, calls: Mapping[str, ToolCall], ctx: WireContext
) -> dict[str, Any]:
    call = calls.get(result.call_id)
    name = result.name or (call.name if call else "")
    if not name:
        raise DialectError(D, f"result {result.call_id!r} has no tool name, which Gemini requires")
    key = "error" if result.is_error else "result"
    body: dict[str, Any] = {"name": ctx.wire(name), "response": {key: result.content}}
    if call is None or not call.synthetic_id:
        body["id"] = result.call_id
    return {"functionResponse": body}


def _declaration(t: WireTool) -> dict[str, Any]:
    out: dict[str, Any] = {"name": t.name}
    if t.tool.description:
        out["description"] = t.tool.description
    key = "parameters" if t.openapi else "parametersJsonSchema"
    out[key] = t.schema
    return out


def _choice(choice: ToolChoice, ctx: WireContext) -> dict[str, Any]:
    config: dict[str, Any] = {"mode": _MODES[choice.mode]}
    if choice.tools and choice.mode != "none":
        # ANY limits calls to the names; VALIDATED also allows text, which is "auto".
        config["mode"] = "ANY" if choice.mode == "required" else "VALIDATED"
        config["allowedFunctionNames"] = [ctx.wire(n) for n in choice.tools]
    return config
