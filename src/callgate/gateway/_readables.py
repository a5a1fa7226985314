"""`prompts/*` and `resources/*` of the gateway: upstream prompts and resources, each read
through the gate as a read call (`callgate.mcp._readables` says which tools stand for them).

A caller is listed the prompts and resources it may read, and nothing else can be read: a
prompt or a server's resources are offered when the policy could let the caller make that
read call (the filter `tools/list` uses), a URI is readable when its server listed it or
one of its templates matches it, and anything quarantined is refused through
`Gate.refuse` (with a receipt). A read that passes is `Gate.call` under the caller's
`Context`: identity, tenant, policy, limits and budgets, labels and a receipt naming the
server and the principal. A resource's text comes back as the gate renders it, so a server
whose results are untrusted gives spotlighted data, with scan findings when the gateway
has a detector. A prompt's messages come back as messages (a prompt is text the user chose
to send), redacted, with the server's labels put on the run. Every failure is a JSON-RPC
error carrying the route and rule in `data`, never a traceback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import mcp_types
import pydantic
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST

from callgate.contract import Context, Route, Tool, ToolCall, ToolResult
from callgate.gate import Refusal
from callgate.gateway._elicitation import Asked, Held, can_elicit, is_held
from callgate.gateway._results import FINDINGS_META, ROUTE_META, RULE_META, held_text
from callgate.gateway._runs import request_id, run_id, run_of
from callgate.mcp._readables import KIND_META, PROMPT_TOOL_PREFIX, reader_name
from callgate.mcp._uris import gateway_uri, split_uri

if TYPE_CHECKING:
    from callgate.gateway._gateway import Gateway

__all__ = ["RESOURCE_NOT_FOUND", "UNLISTED_RULE", "Readables"]

RESOURCE_NOT_FOUND = -32002
"""The MCP spec's error code for a URI no server offers."""
UNLISTED_RULE = "gateway:unlisted-resource"
_DONE = frozenset({Route.COMPLETED, Route.VERIFIED})

Params = mcp_types.PaginatedRequestParams | None


class Readables:
    """The prompt and resource handlers of one `Gateway`."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway

    async def list_prompts(
        self, ctx: ServerRequestContext[Any, Any], params: Params
    ) -> mcp_types.ListPromptsResult:
        context = await self._listing(ctx)
        prompts = [_prompt(t) for t in self.gateway.offered(context) if _kind(t) == "prompt"]
        return mcp_types.ListPromptsResult(prompts=prompts)

    async def get_prompt(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.GetPromptRequestParams
    ) -> mcp_types.GetPromptResult | mcp_types.InputRequiredResult:
        gateway = self.gateway
        gateway.remember(ctx)
        name = f"{PROMPT_TOOL_PREFIX}{params.name}"
        tool = gateway.catalog.resolve(name)
        if tool is None or _kind(tool) != "prompt":
            raise MCPError(INVALID_PARAMS, f"unknown prompt {params.name[:100]!r}")
        arguments: dict[str, Any] = dict(params.arguments or {})
        result = await self._read(ctx, params, name, arguments)
        if isinstance(result, mcp_types.InputRequiredResult):
            return result
        try:
            answer = mcp_types.GetPromptResult.model_validate(result.structured)
        except pydantic.ValidationError:
            raise MCPError(
                INTERNAL_ERROR,
                f"the prompt {params.name[:100]!r} is too long to pass on",
                _data(result),
            ) from None
        return answer.model_copy(update={"meta": _data(result)})

    async def list_resources(
        self, ctx: ServerRequestContext[Any, Any], params: Params
    ) -> mcp_types.ListResourcesResult:
        resources = [
            mcp_types.Resource(
                uri=gateway_uri(server.prefix, item.target),
                **_listed(item.declaration),
            )
            for server in await self._servers(ctx)
            for item in self.gateway.shelf(server.name).resources.values()
        ]
        return mcp_types.ListResourcesResult(resources=resources)

    async def list_resource_templates(
        self, ctx: ServerRequestContext[Any, Any], params: Params
    ) -> mcp_types.ListResourceTemplatesResult:
        templates = [
            mcp_types.ResourceTemplate(
                uri_template=gateway_uri(server.prefix, item.target),
                **_listed(item.declaration),
            )
            for server in await self._servers(ctx)
            for _, item in self.gateway.shelf(server.name).templates
        ]
        return mcp_types.ListResourceTemplatesResult(resource_templates=templates)

    async def read_resource(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.ReadResourceRequestParams
    ) -> mcp_types.ReadResourceResult | mcp_types.InputRequiredResult:
        gateway = self.gateway
        gateway.remember(ctx)
        split = split_uri(params.uri)
        server = gateway.upstreams.server_of(split[0]) if split and gateway.upstreams else None
        if split is None or server is None:
            raise MCPError(
                RESOURCE_NOT_FOUND,
                f"no resource {params.uri[:200]!r}: this gateway's resources are "
                "callgate://SERVER/URI, as resources/list shows them",
            )
        reader = reader_name(server)
        arguments = {"uri": split[1]}
        located = gateway.shelf(server.name).locate(split[1])
        if located.held is not None:  # approved meanwhile, perhaps in another process
            await gateway.recheck(force=True)
            located = gateway.shelf(server.name).locate(split[1])
        if located.item is None:
            refusal = (
                gateway.refusal(located.held)
                if located.held is not None
                else Refusal(
                    kind="unavailable",
                    rule_id=UNLISTED_RULE,
                    detail=f"the server {server.name!r} lists no resource or template for it",
                )
            )
            await self._read(ctx, params, reader, arguments, refusal=refusal)
        result = await self._read(ctx, params, reader, arguments)
        if isinstance(result, mcp_types.InputRequiredResult):
            return result
        assert located.item is not None
        tool = gateway.catalog.resolve(reader)
        spotlighted = tool is not None and "untrusted_output" in tool.labels
        mime = None if spotlighted else located.item.declaration.get("mimeType")
        text = mcp_types.TextResourceContents(
            uri=params.uri, mime_type=mime or "text/plain", text=result.content
        )
        return mcp_types.ReadResourceResult(contents=[text], _meta=_data(result))

    async def _read(
        self,
        ctx: ServerRequestContext[Any, Any],
        params: Asked,
        name: str,
        arguments: dict[str, Any],
        *,
        refusal: Refusal | None = None,
    ) -> ToolResult | mcp_types.InputRequiredResult:
        """The read call `name` through the gate as the caller (or `refusal` routed through
        it): the result when it completed, or the question for a 2026-07-28 client when it
        is held and the client can be asked; the client's error is raised otherwise."""
        gateway = self.gateway
        identity = gateway.identity()
        context = identity.context(run_of(identity, dict(params.meta or {})))
        call = ToolCall(id=str(ctx.request_id or name), name=name, arguments=arguments)
        refusal = refusal or await self._quarantined(name)
        if refusal is not None:
            raise _error(await gateway.gate.refuse(call, refusal, context=context))
        rid = request_id(identity, name, arguments, None, run=context.run_id)
        result = await gateway.gate.call(call, context=context, request_id=rid)
        if is_held(result) and gateway.settings.elicitation and identity.elicit and can_elicit(ctx):
            source = _source(gateway, name)
            held = Held(call=call, context=context, request_id=rid, result=result, source=source)
            asked = await gateway.elicitation.ask(ctx, held, params)
            if isinstance(asked, mcp_types.InputRequiredResult):
                return asked
            result = asked
        if result.route in _DONE and not result.is_error:
            return result
        raise _error(result)

    async def _quarantined(self, name: str) -> Refusal | None:
        upstreams = self.gateway.upstreams
        if upstreams is None or name not in upstreams.quarantined():
            return None
        await self.gateway.recheck(force=True)  # approved meanwhile, perhaps elsewhere
        found = upstreams.quarantined().get(name)
        return self.gateway.refusal(found) if found is not None else None

    async def _listing(self, ctx: ServerRequestContext[Any, Any]) -> Context:
        self.gateway.remember(ctx)
        await self.gateway.recheck()
        identity = self.gateway.identity()
        return identity.context(run_id(identity, None))

    async def _servers(self, ctx: ServerRequestContext[Any, Any]) -> list[Any]:
        """The servers whose resources the caller may read."""
        context = await self._listing(ctx)
        upstreams = self.gateway.upstreams
        if upstreams is None:
            return []
        readers = {t.name for t in self.gateway.offered(context) if _kind(t) == "resources"}
        return [s for s in upstreams.config.servers if reader_name(s) in readers]


def _source(gateway: Gateway, name: str) -> str | None:
    tool = gateway.catalog.resolve(name)
    return tool.source if tool is not None else None


def _kind(tool: Tool) -> str | None:
    kind = tool.metadata.get(KIND_META)
    return kind if isinstance(kind, str) else None


def _prompt(tool: Tool) -> mcp_types.Prompt:
    decl = tool.metadata.get("mcp_declaration") or {}
    return mcp_types.Prompt(
        name=tool.name.removeprefix(PROMPT_TOOL_PREFIX),
        title=decl.get("title"),
        description=decl.get("description") or None,
        arguments=[mcp_types.PromptArgument.model_validate(a) for a in decl.get("arguments", ())],
    )


def _listed(decl: Any) -> dict[str, Any]:
    return {
        "name": decl["name"],
        "title": decl.get("title"),
        "description": decl.get("description") or None,
        "mime_type": decl.get("mimeType"),
    }


def _data(result: ToolResult) -> dict[str, Any]:
    data: dict[str, Any] = {ROUTE_META: result.route.value}
    if result.rule_id:
        data[RULE_META] = result.rule_id
    if result.approval_id:
        data["callgate/approval-id"] = result.approval_id
    if result.findings:
        data[FINDINGS_META] = list(result.findings)
    return data


def _error(result: ToolResult) -> MCPError:
    """A read that did not complete, as the JSON-RPC error a client gets."""
    text = held_text(result) if result.route is Route.HELD else result.content
    refused = result.route in (Route.DENIED, Route.HELD)
    return MCPError(INVALID_REQUEST if refused else INTERNAL_ERROR, text, _data(result))
