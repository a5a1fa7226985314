"""`callgate.toml`: the gateway's clients and callgate's settings for each upstream server.

[gateway]
stdio = { principal = "ann", tenant = "acme", roles = ["developer"] }
elicitation = true                   # ask clients that can elicit about held calls
elicitation_timeout = 300            # seconds a handshake-era question may wait
run_idle = 3600                      # seconds after which an idle run is forgotten
lease_margin = 5                     # seconds a dead process's write is waited for
                                     # beyond the tool's timeout

[[gateway.limits]]                   # rate limits and budgets (see `_limits.py`)
id = "per-minute"
calls = 60
per = "1m"

[gateway.oauth]                      # OAuth access tokens too (see `_oauth.py`)
issuer = "https://auth.example.com"
audience = "https://gateway.example.com/mcp"
jwks_url = "https://auth.example.com/.well-known/jwks.json"

[[gateway.clients]]                  # HTTP clients, one table each
principal = "review-bot"
tenant = "acme"
roles = ["developer"]
token = "${REVIEW_BOT_TOKEN}"        # or token_sha256 = "<64 hex digits>"

[servers.logs]                       # see `callgate.mcp` for every setting
read_only = true
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from callgate._errors import UserError
from callgate._files import read_config
from callgate.gateway._identity import Credentials, Identity
from callgate.gateway._limits import Limit, parse_limits
from callgate.gateway._oauth import OAuthSettings, parse_oauth
from callgate.mcp import expand

__all__ = ["GatewaySettings", "load_settings"]


@dataclass(frozen=True, kw_only=True, slots=True)
class GatewaySettings:
    servers: Mapping[str, Any] = field(default_factory=dict)
    """Per-server callgate settings, by server name (checked by `callgate.mcp`)."""
    credentials: Credentials = field(default_factory=Credentials)
    stdio: Identity = field(default_factory=Identity.local)
    secrets: frozenset[str] = field(default=frozenset(), repr=False)
    limits: tuple[Limit, ...] = ()
    elicitation: bool = True
    """Ask clients that declared the elicitation capability about held calls."""
    elicitation_timeout: float = 300.0
    run_idle: float = 3600.0
    """Seconds without a call after which a run's labels and grants are forgotten."""
    lease_margin: float = 5.0
    """Seconds beyond a tool's timeout before a write whose process died counts as unknown."""
    oauth: OAuthSettings | None = None


def load_settings(
    path: str | os.PathLike[str] | None, *, environ: Mapping[str, str] | None = None
) -> GatewaySettings:
    """Read `callgate.toml`; `None` gives the defaults (no HTTP clients, the local user)."""
    if path is None:
        return GatewaySettings()
    source = os.fspath(path)
    try:
        data = tomllib.loads(read_config(source, f"settings {source}"))
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"cannot read settings {source}: {exc}") from exc
    try:
        return parse_settings(
            data, environ=os.environ if environ is None else environ, base=Path(source).parent
        )
    except UserError as exc:
        raise UserError(f"settings {source}: {exc}") from None


def parse_settings(
    data: Mapping[str, Any], *, environ: Mapping[str, str], base: Path | None = None
) -> GatewaySettings:
    """Settings from parsed TOML; `base` is the folder relative file names start from."""
    unknown = set(data) - {"gateway", "servers"}
    if unknown:
        raise UserError(f"unknown top-level table(s) {sorted(unknown)}; use [gateway], [servers]")
    gateway = data.get("gateway", {})
    servers = data.get("servers", {})
    if not isinstance(gateway, Mapping) or not isinstance(servers, Mapping):
        raise UserError("[gateway] and [servers] must be tables")
    extra = set(gateway) - {"stdio", "clients", "limits", "oauth", *_SECONDS, "elicitation"}
    if extra:
        raise UserError(f"[gateway]: unknown key(s) {sorted(extra)}")
    elicitation = gateway.get("elicitation", True)
    if not isinstance(elicitation, bool):
        raise UserError("gateway.elicitation must be true or false")
    secrets: set[str] = set()

    def secret_of(text: str, where: str) -> str:
        done = expand(text, environ, server="", where=where)
        secrets.update(done.secrets)
        return done.text

    clients = gateway.get("clients", [])
    if not isinstance(clients, list):
        raise UserError("gateway.clients must be an array of tables ([[gateway.clients]])")
    stdio = gateway.get("stdio")
    if stdio is not None and not isinstance(stdio, Mapping):
        raise UserError("gateway.stdio must be a table")
    return GatewaySettings(
        servers=dict(servers),
        credentials=Credentials.from_tables(clients, secret_of),
        stdio=Identity.from_table(stdio, "gateway.stdio") if stdio else Identity.local(),
        secrets=frozenset(secrets),
        limits=parse_limits(gateway.get("limits", [])),
        oauth=parse_oauth(gateway["oauth"], base=base) if "oauth" in gateway else None,
        elicitation=elicitation,
        **{key: _seconds(gateway, key, *bounds) for key, bounds in _SECONDS.items()},
    )


_SECONDS = {
    "elicitation_timeout": (1.0, 24 * 3600.0),
    "run_idle": (1.0, 366 * 86400.0),
    "lease_margin": (0.1, 3600.0),
}


def _seconds(table: Mapping[str, Any], key: str, low: float, high: float) -> Any:
    value = table.get(key, GatewaySettings.__dataclass_fields__[key].default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise UserError(f"gateway.{key} must be a number of seconds from {low:g} to {high:g}")
    return float(value)
