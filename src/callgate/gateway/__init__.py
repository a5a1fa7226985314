"""`callgate serve`: one MCP endpoint in front of upstream MCP servers and the host's own
tools, with every call through the gate.

    gateway = Gateway(upstreams=load_upstreams(".mcp.json"), tools=my_tools,
                      policy=Policy.from_toml("policy.toml"), store="sqlite:///callgate.db",
                      settings=load_settings("callgate.toml"), transport="http")
    await serve_http(gateway, host="127.0.0.1", port=8765)     # or serve_stdio(gateway)

Needs the `mcp` extra (and `server` for HTTP).
"""

from callgate._extras import require as _require

_require("mcp", extra="mcp")

from callgate.gateway._elicitation import APPROVAL_INPUT, APPROVAL_SCHEMA  # noqa: E402
from callgate.gateway._gateway import (  # noqa: E402
    QUARANTINE_RULE,
    Gateway,
    GatewayTransport,
)
from callgate.gateway._identity import (  # noqa: E402
    Authenticate,
    CallerToken,
    Credentials,
    Identity,
    TokenCheck,
    hash_token,
)
from callgate.gateway._limits import (  # noqa: E402
    LIMIT_RULE_PREFIX,
    CallLimits,
    Limit,
    parse_limits,
)
from callgate.gateway._oauth import AccessTokens, OAuthSettings, parse_oauth  # noqa: E402
from callgate.gateway._results import (  # noqa: E402
    FINDINGS_META,
    RETRY_AFTER_META,
    ROUTE_META,
    RULE_META,
    held_text,
    to_call_result,
)
from callgate.gateway._runs import RUN_META, request_id, run_id  # noqa: E402
from callgate.gateway._serve import serve_http, serve_stdio  # noqa: E402
from callgate.gateway._settings import GatewaySettings, load_settings, parse_settings  # noqa: E402

__all__ = [
    "APPROVAL_INPUT",
    "APPROVAL_SCHEMA",
    "FINDINGS_META",
    "LIMIT_RULE_PREFIX",
    "QUARANTINE_RULE",
    "RETRY_AFTER_META",
    "ROUTE_META",
    "RULE_META",
    "RUN_META",
    "AccessTokens",
    "Authenticate",
    "CallLimits",
    "CallerToken",
    "Credentials",
    "Gateway",
    "GatewaySettings",
    "GatewayTransport",
    "Identity",
    "Limit",
    "OAuthSettings",
    "TokenCheck",
    "hash_token",
    "held_text",
    "load_settings",
    "parse_limits",
    "parse_oauth",
    "parse_settings",
    "request_id",
    "run_id",
    "serve_http",
    "serve_stdio",
    "to_call_result",
]
