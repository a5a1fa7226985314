"""Who calls the gateway: API keys and bearer tokens mapped to principal, tenant and roles.

Tokens are kept only as sha256 digests: a config names either `token_sha256` (the digest,
from `callgate serve --hash-token`) or `token = "${ENV_VAR}"`, hashed as soon as it is read.
Over HTTP every request must carry one (`Authorization: Bearer ...` or `X-API-Key`), or an
OAuth access token when `[gateway.oauth]` is configured (`_oauth.py`); anything else is
answered 401 before MCP sees it. The caller's `Identity` rides on the SDK's access token to
the request handlers. Over stdio the one client is the `stdio` identity of the config.
"""

from __future__ import annotations

import getpass
import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from starlette.types import ASGIApp, Receive, Scope, Send

from callgate._errors import UserError
from callgate.contract import Context

__all__ = ["Authenticate", "CallerToken", "Credentials", "Identity", "TokenCheck", "hash_token"]

_MAX_TOKEN = 4096


def hash_token(token: str) -> str:
    """The sha256 hex digest a config stores for `token`."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, kw_only=True, slots=True)
class Identity:
    """A client of the gateway, as the gate sees it."""

    principal: str
    tenant: str | None = None
    roles: frozenset[str] = frozenset()
    scopes: frozenset[str] = frozenset()
    attributes: Mapping[str, Any] = field(default_factory=dict)
    elicit: bool = True
    """Held calls may be put to this client by elicitation, when it can elicit (off for a
    client whose answers are not a person's)."""

    def context(self, run_id: str | None) -> Context:
        return Context(
            principal=self.principal,
            tenant=self.tenant,
            roles=self.roles,
            scopes=self.scopes,
            run_id=run_id,
            attributes=dict(self.attributes),
        )

    @classmethod
    def local(cls) -> Identity:
        """The stdio client when the config names none: the user running the gateway."""
        try:
            user = getpass.getuser()
        except (KeyError, OSError):
            user = "local"
        return cls(principal=user)

    @classmethod
    def from_table(cls, data: Mapping[str, Any], where: str) -> Identity:
        principal = data.get("principal")
        if not isinstance(principal, str) or not principal or len(principal) > 256:
            raise UserError(f"{where}: 'principal' must be a non-empty string")
        tenant = data.get("tenant")
        if tenant is not None and not isinstance(tenant, str):
            raise UserError(f"{where}: 'tenant' must be a string")
        attributes = data.get("attributes", {})
        if not isinstance(attributes, Mapping):
            raise UserError(f"{where}: 'attributes' must be a table")
        elicit = data.get("elicitation", True)
        if not isinstance(elicit, bool):
            raise UserError(f"{where}: 'elicitation' must be true or false")
        return cls(
            principal=principal,
            tenant=tenant,
            roles=_names(data.get("roles", []), f"{where}: 'roles'"),
            scopes=_names(data.get("scopes", []), f"{where}: 'scopes'"),
            attributes=dict(attributes),
            elicit=elicit,
        )


class Credentials:
    """Token digests -> identities."""

    def __init__(self, entries: Mapping[str, Identity] | None = None) -> None:
        self._by_digest = dict(entries or {})

    @classmethod
    def from_tables(cls, tables: Iterable[Any], secret_of: Any) -> Credentials:
        """`[[gateway.clients]]` tables; `secret_of(text, where)` expands `${...}`."""
        entries: dict[str, Identity] = {}
        for index, table in enumerate(tables):
            where = f"gateway.clients[{index}]"
            if not isinstance(table, Mapping):
                raise UserError(f"{where} must be a table")
            unknown = set(table) - {
                "principal",
                "tenant",
                "roles",
                "scopes",
                "attributes",
                "elicitation",
                "token",
                "token_sha256",
            }
            if unknown:
                raise UserError(f"{where}: unknown key(s) {sorted(unknown)}")
            digest = _digest(table, where, secret_of)
            if digest in entries:
                raise UserError(f"{where}: the same token is given to two clients")
            entries[digest] = Identity.from_table(table, where)
        return cls(entries)

    def __len__(self) -> int:
        return len(self._by_digest)

    def lookup(self, token: str) -> Identity | None:
        if not token or len(token) > _MAX_TOKEN:
            return None
        digest = hash_token(token)
        for known, identity in self._by_digest.items():
            if hmac.compare_digest(known, digest):
                return identity
        return None


class CallerToken(AccessToken):
    """The SDK's access token of an authenticated request, carrying the caller's identity
    to the request handlers (`token` is a digest, never the token itself)."""

    identity: Identity


class TokenCheck(Protocol):
    """Validates a token that is no configured API key (an OAuth access token)."""

    async def identity(self, token: str) -> Identity | None: ...


class Authenticate:
    """ASGI middleware: 401 for any HTTP request without a known token.

    A known token becomes the SDK's authenticated user (its `client_id` the principal), so
    the SDK also refuses a session that another principal tries to continue. `public`
    paths (the OAuth metadata) are served without a token; `metadata_url` is named in the
    401's `WWW-Authenticate`, so an OAuth client knows where to get a token.
    """

    def __init__(
        self,
        app: ASGIApp,
        credentials: Credentials,
        *,
        tokens: TokenCheck | None = None,
        public: frozenset[str] = frozenset(),
        metadata_url: str | None = None,
    ) -> None:
        self.app = app
        self.credentials = credentials
        self.tokens = tokens
        self.public = public
        self.metadata_url = metadata_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or (  # lifespan events: no request
            scope["type"] == "http" and scope.get("path") in self.public
        ):
            await self.app(scope, receive, send)
            return
        token = _presented(scope)
        identity = self.credentials.lookup(token) if token else None
        if identity is None and token and self.tokens is not None:
            identity = await self.tokens.identity(token)
        if identity is None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await _unauthorized(
                    send, "a valid bearer token or API key is required", self.metadata_url
                )
            return
        user = AuthenticatedUser(
            CallerToken(
                token=_key_id(hash_token(token or "")),
                client_id=identity.principal,
                scopes=sorted(identity.scopes),
                identity=identity,
            )
        )
        scope["user"] = user
        reset = auth_context_var.set(user)
        try:
            await self.app(scope, receive, send)
        finally:
            auth_context_var.reset(reset)


def _presented(scope: Scope) -> str | None:
    headers: dict[str, str] = {
        k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]
    }
    auth = headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip()
    return headers.get("x-api-key") or None


async def _unauthorized(send: Send, message: str, metadata_url: str | None) -> None:
    body = json.dumps({"error": "unauthorized", "message": message}).encode()
    challenge = 'Bearer realm="callgate"'
    if metadata_url is not None:
        challenge += f', resource_metadata="{metadata_url}"'
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"www-authenticate", challenge.encode("latin-1")),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _digest(table: Mapping[str, Any], where: str, secret_of: Any) -> str:
    given, raw = table.get("token_sha256"), table.get("token")
    if (given is None) == (raw is None):
        raise UserError(f"{where}: give exactly one of 'token_sha256' and 'token'")
    if given is not None:
        if not isinstance(given, str) or len(given) != 64 or not _hex(given):
            raise UserError(f"{where}: 'token_sha256' must be 64 hex digits")
        return given.lower()
    if not isinstance(raw, str):
        raise UserError(f"{where}: 'token' must be a string such as \"${{CLIENT_TOKEN}}\"")
    if "${" not in raw:
        raise UserError(
            f'{where}: write the token as an environment reference ("${{VAR}}") or give '
            "its 'token_sha256'; a plain token does not belong in a config file"
        )
    token: str = secret_of(raw, f"{where}.token")
    if len(token) < 16:
        raise UserError(f"{where}: the token is shorter than 16 characters")
    return hash_token(token)


def _names(value: Any, where: str) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UserError(f"{where} must be a list of strings")
    return frozenset(value)


def _hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)


def _key_id(digest: str) -> str:
    return f"key-{digest[:16]}"
