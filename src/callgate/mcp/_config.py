"""The `mcpServers` config users already have, and callgate's settings for each server.

Read: Claude Desktop / Claude Code `.mcp.json` and Cursor (`mcpServers`), VS Code
(`servers`). Stdio servers have `command`, `args`, `env`, `cwd`; remote ones `type: "http"`
(or just a `url`) with `headers`. Keys other clients define for themselves (`disabled`,
`autoApprove`, ...) are ignored, except `disabled: true`, which leaves the server out.

callgate's own settings for a server come from a `callgate` key in its entry or from a
`[servers.NAME]` table of `callgate.toml` (not both):

    prefix = "gl"                    # public names are PREFIX_TOOL (default: the server name)
    allow = ["list_*", "get_*"]      # only these tools (globs); deny = [...] wins over allow
    read_only = true                 # expose only tools whose effect is read
    labels = ["private_data"]        # Rule of Two labels; default: untrusted_output when the
                                     # server is remote or the tool reaches an open world
    startup_timeout = 30             # seconds for the server to start and answer
    call_timeout = 30                # seconds per call (a tool's own timeout wins)
    [servers.NAME.tools."create_*"]  # per tool, exact name or glob, first match wins
    effect = "irreversible"          # read | write | irreversible
    labels = ["public_sink"]         # replaces the server's labels for this tool
    timeout = 60
    reconcile = "get_status"         # asks whether a write of unknown outcome took effect
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

import pydantic

from callgate._errors import UserError
from callgate._files import read_config
from callgate.contract import Effect, Label
from callgate.mcp._expand import expand

__all__ = [
    "ServerConfig",
    "ServerSettings",
    "ToolSettings",
    "UpstreamConfig",
    "load_upstreams",
    "parse_upstreams",
]

MAX_SERVERS = 256
_PREFIX = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$")

Seconds = Annotated[float, pydantic.Field(gt=0, le=24 * 3600, allow_inf_nan=False)]
Transport = Literal["stdio", "http"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolSettings:
    """Settings for the tools of a server whose name matches a key of `ServerSettings.tools`."""

    __pydantic_config__: ClassVar = pydantic.ConfigDict(extra="forbid")

    effect: Effect | None = None
    """Overrides what the server's annotations imply."""
    labels: tuple[Label, ...] | None = None
    """Replaces the server's labels for these tools."""
    timeout: Seconds | None = None
    reconcile: str | None = None
    """An upstream tool of the same server that says whether an earlier attempt of a write
    took effect: called with `{reconcile_argument: KEY}` (the idempotency key the write was
    sent with, in `_meta["callgate/idempotency-key"]`), it answers `{"applied": true}`,
    `false` or `null` (or `"applied"`, `"not_applied"`, `"unknown"`). Without it a write
    whose outcome is unknown is never retried automatically."""
    reconcile_argument: str = "idempotency_key"


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerSettings:
    """callgate's settings for one upstream server (format in this module's docstring)."""

    __pydantic_config__: ClassVar = pydantic.ConfigDict(extra="forbid")

    prefix: str | None = None
    allow: tuple[str, ...] | None = None
    deny: tuple[str, ...] = ()
    read_only: bool = False
    labels: tuple[Label, ...] | None = None
    startup_timeout: Seconds = 30.0
    call_timeout: Seconds = 30.0
    tools: Mapping[str, ToolSettings] = field(default_factory=dict)

    def admits(self, tool: str) -> bool:
        """Whether the allow and deny lists let `tool` (the upstream name) through."""
        if any(fnmatch.fnmatchcase(tool, p) for p in self.deny):
            return False
        return self.allow is None or any(fnmatch.fnmatchcase(tool, p) for p in self.allow)

    def for_tool(self, tool: str) -> ToolSettings:
        """The settings of the exact name, else of the first glob that matches."""
        if tool in self.tools:
            return self.tools[tool]
        return next(
            (s for p, s in self.tools.items() if fnmatch.fnmatchcase(tool, p)), ToolSettings()
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerConfig:
    """One upstream server with every `${...}` expanded."""

    name: str
    transport: Transport
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    cwd: str | None = None
    url: str | None = field(default=None, repr=False)
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    settings: ServerSettings = field(default_factory=ServerSettings)
    secrets: frozenset[str] = field(default=frozenset(), repr=False)
    """Values that came from the environment: redacted wherever they could surface."""

    @property
    def prefix(self) -> str:
        return self.settings.prefix or re.sub(r"[^A-Za-z0-9_-]", "_", self.name)[:40]

    @property
    def remote(self) -> bool:
        return self.transport == "http"

    def describe(self) -> str:
        """A one-line description for logs and errors, with expanded values redacted."""
        if self.transport == "http":
            target = self.url or ""
        else:
            target = " ".join([self.command or "", *self.args])
        for secret in sorted(self.secrets, key=len, reverse=True):
            target = target.replace(secret, "[REDACTED]")
        return f"{self.name} ({self.transport}: {target[:200]})"


@dataclass(frozen=True, kw_only=True, slots=True)
class UpstreamConfig:
    servers: tuple[ServerConfig, ...]
    source: str

    @property
    def secrets(self) -> frozenset[str]:
        return frozenset().union(*(s.secrets for s in self.servers))

    def server(self, name: str) -> ServerConfig:
        for server in self.servers:
            if server.name == name:
                return server
        raise UserError(f"no upstream server {name!r} in {self.source}")


_SETTINGS = pydantic.TypeAdapter(ServerSettings)


def load_upstreams(
    path: str | os.PathLike[str],
    *,
    settings: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> UpstreamConfig:
    """Read an `mcpServers` (or VS Code `servers`) JSON file; `settings` maps server names
    to callgate settings (the `servers` table of `callgate.toml`)."""
    source = os.fspath(path)
    text = read_config(source, f"config {source}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"config {source} is not valid JSON: {exc}") from exc
    except RecursionError:
        raise UserError(f"config {source} is nested too deeply") from None
    return parse_upstreams(data, source=source, settings=settings, environ=environ)


def parse_upstreams(
    data: Any,
    *,
    source: str = "<config>",
    settings: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> UpstreamConfig:
    """The servers of an already parsed config document."""
    env = os.environ if environ is None else environ
    if not isinstance(data, Mapping):
        raise UserError(f"config {source}: expected a JSON object with 'mcpServers'")
    entries = data.get("mcpServers", data.get("servers"))
    if not isinstance(entries, Mapping):
        raise UserError(f"config {source}: no 'mcpServers' (or 'servers') object")
    if len(entries) > MAX_SERVERS:
        raise UserError(f"config {source}: more than {MAX_SERVERS} servers")
    extra = dict(settings or {})
    unknown = sorted(set(extra) - set(entries))
    if unknown:
        raise UserError(f"callgate settings name servers {unknown} that {source} does not define")
    servers = []
    for name, entry in entries.items():
        try:
            server = _server(str(name), entry, extra.get(name), env)
        except UserError as exc:
            exc.args = (f"config {source}: {exc}",)  # keeps the type (UnsetVariable)
            raise
        if server is not None:
            servers.append(server)
    _check_prefixes(servers, source)
    return UpstreamConfig(servers=tuple(servers), source=source)


def _server(name: str, entry: Any, extra: Any, env: Mapping[str, str]) -> ServerConfig | None:
    if not name or len(name) > 64 or not _printable(name):
        raise UserError(f"server name {name[:70]!r} must be 1 to 64 printable characters")
    if not isinstance(entry, Mapping):
        raise UserError(f"server {name!r} must be an object")
    if entry.get("disabled") is True:
        return None
    settings = _settings(name, entry.get("callgate"), extra)
    kind = entry.get("type")
    if kind is None:
        kind = "http" if "url" in entry and "command" not in entry else "stdio"
    if kind in ("http", "streamable-http", "streamableHttp"):
        return _remote(name, entry, settings, env)
    if kind == "stdio":
        return _stdio(name, entry, settings, env)
    if kind == "sse":
        raise UserError(
            f"server {name!r}: the SSE transport is deprecated and not supported; "
            "use type 'http' (streamable HTTP)"
        )
    raise UserError(f"server {name!r}: unknown type {str(kind)[:40]!r} (use stdio or http)")


def _stdio(
    name: str, entry: Mapping[str, Any], settings: ServerSettings, env: Mapping[str, str]
) -> ServerConfig:
    expander = _Expander(name, env)
    command = expander.string(entry.get("command"), "command", required=True)
    args = entry.get("args", [])
    if not isinstance(args, list):
        raise UserError(f"server {name!r}: 'args' must be a list of strings")
    child_env = entry.get("env", {})
    if not isinstance(child_env, Mapping):
        raise UserError(f"server {name!r}: 'env' must be an object of strings")
    cwd = entry.get("cwd")
    return ServerConfig(
        name=name,
        transport="stdio",
        command=command,
        args=tuple(expander.string(a, f"args[{i}]") for i, a in enumerate(args)),
        env={expander.key(k, "env"): expander.string(v, f"env.{k}") for k, v in child_env.items()},
        cwd=expander.string(cwd, "cwd") if cwd is not None else None,
        settings=settings,
        secrets=frozenset(expander.secrets),
    )


def _remote(
    name: str, entry: Mapping[str, Any], settings: ServerSettings, env: Mapping[str, str]
) -> ServerConfig:
    expander = _Expander(name, env)
    url = expander.string(entry.get("url"), "url", required=True)
    if not re.match(r"^https?://[^\s/]+", url):
        raise UserError(f"server {name!r}: 'url' must start with http:// or https://")
    headers = entry.get("headers", {})
    if not isinstance(headers, Mapping):
        raise UserError(f"server {name!r}: 'headers' must be an object of strings")
    expanded = {}
    for key, value in headers.items():
        header = expander.key(key, "headers")
        if not _HEADER_NAME.match(header):
            raise UserError(f"server {name!r}: {header[:40]!r} is not a valid header name")
        text = expander.string(value, f"headers.{header}")
        if "\r" in text or "\n" in text:
            raise UserError(f"server {name!r}: header {header!r} contains a line break")
        expanded[header] = text
    return ServerConfig(
        name=name,
        transport="http",
        url=url,
        headers=expanded,
        settings=settings,
        secrets=frozenset(expander.secrets),
    )


class _Expander:
    """Expands one server's strings, collecting the secrets it substituted."""

    def __init__(self, server: str, env: Mapping[str, str]) -> None:
        self.server = server
        self.env = env
        self.secrets: set[str] = set()

    def string(self, value: Any, where: str, *, required: bool = False) -> str:
        if value is None and required:
            raise UserError(f"server {self.server!r}: {where!r} is required")
        if not isinstance(value, str):
            raise UserError(f"server {self.server!r}: {where} must be a string")
        if len(value) > 32_768 or "\x00" in value or not _encodable(value):
            raise UserError(
                f"server {self.server!r}: {where} is too long or holds a NUL byte or a "
                "lone surrogate"
            )
        done = expand(value, self.env, server=self.server, where=where)
        self.secrets |= done.secrets
        if "\x00" in done.text or not _encodable(done.text):
            raise UserError(f"server {self.server!r}: {where} expands to an unusable value")
        return done.text

    def key(self, key: Any, where: str) -> str:
        if not isinstance(key, str) or not key or "\x00" in key or "=" in key:
            raise UserError(f"server {self.server!r}: {where} has an invalid name {key!r}")
        return key


def _settings(name: str, inline: Any, extra: Any) -> ServerSettings:
    if inline is not None and extra is not None:
        raise UserError(
            f"server {name!r}: callgate settings are given twice (a 'callgate' key and "
            "callgate.toml); keep one"
        )
    raw = inline if inline is not None else extra
    if raw is None:
        return ServerSettings()
    if not isinstance(raw, Mapping):
        raise UserError(f"server {name!r}: callgate settings must be an object")
    try:
        settings = _SETTINGS.validate_python(raw)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(settings)"
        raise UserError(
            f"server {name!r}: callgate setting {where}: {first['msg']}"
            + (f" ({exc.error_count() - 1} more)" if exc.error_count() > 1 else "")
        ) from None
    if settings.prefix is not None and not _PREFIX.match(settings.prefix):
        raise UserError(
            f"server {name!r}: prefix {settings.prefix[:50]!r} must be 1 to 40 letters, "
            "digits, '_' or '-'"
        )
    return settings


def _check_prefixes(servers: list[ServerConfig], source: str) -> None:
    seen: dict[str, str] = {}
    for server in servers:
        other = seen.setdefault(server.prefix, server.name)
        if other != server.name:
            raise UserError(
                f"config {source}: servers {other!r} and {server.name!r} share the tool "
                f"prefix {server.prefix!r}; give one of them another prefix"
            )


def _printable(text: str) -> bool:
    return text.isprintable() and _encodable(text)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
