"""The MCP client: the servers of an `mcpServers` config as callgate tools.

    config = load_upstreams(".mcp.json")        # ${VAR} expanded, failing closed
    upstreams = Upstreams(config, pins=PinBook(store))
    await task_group.start(upstreams.run)       # connected, listed, scanned, pinned
    upstreams.tools()                           # Tools named PREFIX_TOOL, calling upstream
    upstreams.quarantined()                     # changed, poisoned or colliding tools
    upstreams.shelf("docs")                     # its listed resources and templates

Needs the `mcp` extra (`pip install 'callgate[mcp]'`).
"""

from callgate._extras import require as _require

_require("mcp", extra="mcp")

from callgate._files import MAX_CONFIG_BYTES  # noqa: E402
from callgate.mcp._config import (  # noqa: E402
    ServerConfig,
    ServerSettings,
    ToolSettings,
    UpstreamConfig,
    load_upstreams,
    parse_upstreams,
)
from callgate.mcp._connection import Connection, ConnectionState, UpstreamError  # noqa: E402
from callgate.mcp._declaration import HINT_DEFAULTS, declaration, public_name  # noqa: E402
from callgate.mcp._expand import Expanded, UnsetVariable, expand  # noqa: E402
from callgate.mcp._hub import IDEMPOTENCY_META, Quarantined, Upstreams  # noqa: E402
from callgate.mcp._pins import PinBook, Sighting, Verdict, pin_source  # noqa: E402
from callgate.mcp._results import outcome  # noqa: E402

__all__ = [
    "HINT_DEFAULTS",
    "IDEMPOTENCY_META",
    "MAX_CONFIG_BYTES",
    "Connection",
    "ConnectionState",
    "Expanded",
    "PinBook",
    "Quarantined",
    "ServerConfig",
    "ServerSettings",
    "Sighting",
    "ToolSettings",
    "UnsetVariable",
    "UpstreamConfig",
    "UpstreamError",
    "Upstreams",
    "Verdict",
    "declaration",
    "expand",
    "load_upstreams",
    "outcome",
    "parse_upstreams",
    "pin_source",
    "public_name",
]
