"""`callgate serve`: one MCP endpoint in front of upstream MCP servers and the host's own
tools, with every call through the gate.

    gateway = Gateway(upstreams=load_upstreams(".mcp.json"), tools=my_tools,
                      policy=Policy.from_toml("policy.toml"), store="sqlite:///callgate.db",
                      settings=load_settings("callgate.toml"), transport="http")
    await serve_http(gateway, host="127.0.0.1", port=8765)     # or serve_stdio(gateway)

Needs the `mcp` extra (and `server` for HTTP).
"""

from callgate.gateway._gateway import Gateway, GatewayTransport, request_id
from callgate.gateway._identity import Authenticate, Credentials, Identity, hash_token
from callgate.gateway._results import ROUTE_META, held_text, quarantined_result, to_call_result
from callgate.gateway._serve import serve_http, serve_stdio
from callgate.gateway._settings import GatewaySettings, load_settings, parse_settings

__all__ = [
    "ROUTE_META",
    "Authenticate",
    "Credentials",
    "Gateway",
    "GatewaySettings",
    "GatewayTransport",
    "Identity",
    "hash_token",
    "held_text",
    "load_settings",
    "parse_settings",
    "quarantined_result",
    "request_id",
    "serve_http",
    "serve_stdio",
    "to_call_result",
]
