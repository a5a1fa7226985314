"""OAuth 2.1 access tokens, validated as a resource server: a JWT signed by a key of the
configured JWKS (a file, or a URL fetched and cached), issued by the configured issuer for
this gateway (`aud`), not expired. Its claims name the caller:

    [gateway.oauth]
    issuer = "https://auth.example.com"
    audience = "https://gateway.example.com/mcp"    # the `aud` the tokens must carry
    jwks_url = "https://auth.example.com/.well-known/jwks.json"   # or jwks_file = "jwks.json"
    algorithms = ["RS256", "ES256"]       # asymmetric only: a shared secret is refused
    principal_claim = "sub"
    tenant_claim = "org"                  # optional; when set, every token must carry it
    roles_claim = "roles"                 # optional: a list, or words in one string
    required_scopes = ["mcp:tools"]       # optional: every one must be in `scope` / `scp`
    leeway = 30                           # seconds of clock skew allowed

The gateway publishes the RFC 9728 protected resource metadata (the authorization server
to ask) at `/.well-known/oauth-protected-resource/mcp`, and its 401 answers point there.
Validation uses PyJWT with `cryptography` (`pip install 'callgate[oauth]'`); a token that
fails any check, or whose keys cannot be fetched, is refused (401): never let through.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import anyio.to_thread
import pydantic

from callgate._errors import UserError
from callgate._extras import require
from callgate._files import MAX_CONFIG_BYTES, read_bytes
from callgate.gateway._identity import Identity

__all__ = ["AccessTokens", "OAuthSettings"]

log = logging.getLogger("callgate.gateway")

_ASYMMETRIC = frozenset(
    {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}
)
_MAX_JWT = 16_384


@dataclass(frozen=True, kw_only=True, slots=True)
class OAuthSettings:
    """`[gateway.oauth]` (format in this module's docstring)."""

    __pydantic_config__: ClassVar = pydantic.ConfigDict(extra="forbid")

    issuer: str
    audience: str
    jwks_url: str | None = None
    jwks_file: str | None = None
    algorithms: tuple[str, ...] = ("RS256", "ES256")
    principal_claim: str = "sub"
    tenant_claim: str | None = None
    roles_claim: str | None = None
    required_scopes: tuple[str, ...] = ()
    leeway: pydantic.NonNegativeFloat = 30.0
    elicitation: bool = True
    """Held calls of token holders may be asked of their client (see `Identity.elicit`)."""


_SETTINGS = pydantic.TypeAdapter(OAuthSettings)


def parse_oauth(raw: Any, *, base: Path | None = None) -> OAuthSettings:
    """`[gateway.oauth]`; a relative `jwks_file` is read from `base` (the settings' folder)."""
    if not isinstance(raw, Mapping):
        raise UserError("gateway.oauth must be a table")
    try:
        settings = _SETTINGS.validate_python(raw)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UserError(f"gateway.oauth.{where}: {first['msg']}") from None
    if (settings.jwks_url is None) == (settings.jwks_file is None):
        raise UserError("gateway.oauth: give exactly one of 'jwks_url' and 'jwks_file'")
    if settings.leeway > 300:
        raise UserError("gateway.oauth.leeway: at most 300 seconds")
    unsafe = sorted(set(settings.algorithms) - _ASYMMETRIC)
    if unsafe or not settings.algorithms:
        raise UserError(
            f"gateway.oauth.algorithms: {unsafe or 'none given'} not allowed; use asymmetric "
            f"ones ({', '.join(sorted(_ASYMMETRIC))})"
        )
    if settings.jwks_url is not None and not settings.jwks_url.startswith(("https://", "http://")):
        raise UserError("gateway.oauth.jwks_url must be an http(s) URL")
    if settings.jwks_file is not None and base is not None:
        path = Path(settings.jwks_file)
        if not path.is_absolute():
            settings = _with_file(settings, str(base / path))
    return settings


def _with_file(settings: OAuthSettings, path: str) -> OAuthSettings:
    import dataclasses

    return dataclasses.replace(settings, jwks_file=path)


class AccessTokens:
    """Validates access tokens against one `OAuthSettings`; `identity(token)` is the caller
    a valid token names, None for any other token."""

    def __init__(self, settings: OAuthSettings) -> None:
        self.jwt = require("jwt", extra="oauth", package="PyJWT")
        require("cryptography", extra="oauth")
        self.settings = settings
        self._client: Any = None
        self._keys: Any = None
        if settings.jwks_url is not None:
            self._client = self.jwt.PyJWKClient(
                settings.jwks_url, cache_keys=True, lifespan=300, timeout=5
            )
        else:
            assert settings.jwks_file is not None
            self._keys = _key_set(self.jwt, settings.jwks_file)

    async def identity(self, token: str) -> Identity | None:
        if len(token) > _MAX_JWT or token.count(".") != 2:
            return None
        return await anyio.to_thread.run_sync(self._verified, token)

    def _verified(self, token: str) -> Identity | None:
        jwt, settings = self.jwt, self.settings
        try:
            header = jwt.get_unverified_header(token)
            if header.get("alg") not in settings.algorithms:
                raise jwt.InvalidAlgorithmError(f"algorithm {header.get('alg')!r} not allowed")
            claims = jwt.decode(
                token,
                self._key(token, header),
                algorithms=list(settings.algorithms),
                audience=settings.audience,
                issuer=settings.issuer,
                leeway=settings.leeway,
                options={"require": ["exp", "iss", "aud"]},
            )
            return self._mapped(claims)
        except (jwt.PyJWTError, ValueError, TypeError, KeyError) as exc:
            log.info("access token refused: %s", type(exc).__name__)
            return None

    def _key(self, token: str, header: Mapping[str, Any]) -> Any:
        if self._client is not None:
            return self._client.get_signing_key_from_jwt(token).key
        kid = header.get("kid")
        keys = self._keys.keys
        if kid is None and len(keys) == 1:
            return keys[0].key
        return self._keys[str(kid)].key

    def _mapped(self, claims: Mapping[str, Any]) -> Identity:
        settings = self.settings
        principal = claims.get(settings.principal_claim)
        if not isinstance(principal, str) or not 0 < len(principal) <= 256:
            raise ValueError(f"claim {settings.principal_claim!r} is not a name")
        scopes = _words(claims.get("scope")) | _words(claims.get("scp"))
        missing = set(settings.required_scopes) - scopes
        if missing:
            raise ValueError(f"scopes {sorted(missing)} missing")
        tenant = claims.get(settings.tenant_claim) if settings.tenant_claim else None
        if settings.tenant_claim and (not isinstance(tenant, str) or not tenant):
            raise ValueError(f"claim {settings.tenant_claim!r} is missing or not a name")
        roles = _words(claims.get(settings.roles_claim)) if settings.roles_claim else frozenset()
        return Identity(
            principal=principal,
            tenant=tenant,
            roles=roles,
            scopes=scopes,
            elicit=settings.elicitation,
        )


def _words(value: Any) -> frozenset[str]:
    """A claim of names: a list of strings, or names separated by spaces."""
    if isinstance(value, str):
        return frozenset(value.split())
    if isinstance(value, list):
        return frozenset(v for v in value if isinstance(v, str) and v)
    return frozenset()


def _key_set(jwt: Any, path: str) -> Any:
    try:
        data = json.loads(read_bytes(path, limit=MAX_CONFIG_BYTES).decode("utf-8"))
        keys = jwt.PyJWKSet.from_dict(data)
    except (OSError, ValueError, jwt.PyJWTError) as exc:
        raise UserError(f"gateway.oauth.jwks_file {path}: not a readable JWKS ({exc})") from None
    if not keys.keys:
        raise UserError(f"gateway.oauth.jwks_file {path}: no usable key")
    return keys
