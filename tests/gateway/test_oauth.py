"""OAuth access tokens validated as a resource server, with keys generated here: a JWKS
file or a JWKS URL served on 127.0.0.1, `callgate serve --transport http` as a process, and
every kind of bad token refused with 401 (never a tool)."""

from __future__ import annotations

import contextlib
import http.server
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from callgate import UserError
from callgate.gateway import AccessTokens, parse_oauth, parse_settings
from tests.gateway.test_serve import http_gateway_with
from tests.mcp._support import http_client, tracker

try:
    import jwt
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, rsa
except ImportError:  # pragma: no cover - the skip says what to install
    pytest.skip(
        "OAuth tokens need PyJWT and cryptography: pip install 'callgate[oauth]'",
        allow_module_level=True,
    )

ISSUER = "https://auth.example.com"
AUDIENCE = "http://127.0.0.1/mcp"
POLICY = """
[[rules]]
id = "developers-file-issues"
action = "deny"
reason = "only developers file issues"
tools = ["tracker_create_issue"]
lacks_roles = ["developer"]
"""


def _rsa() -> Any:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


KEY, OTHER = _rsa(), _rsa()
EC_KEY = ec.generate_private_key(ec.SECP256R1())


def jwks() -> dict[str, Any]:
    rsa_jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(KEY.public_key()))
    ec_jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(EC_KEY.public_key()))
    return {"keys": [{**rsa_jwk, "kid": "k1", "use": "sig"}, {**ec_jwk, "kid": "k2"}]}


def token(
    key: Any = None, *, alg: str = "RS256", kid: str = "k1", headers: Any = None, **claims: Any
) -> str:
    now = int(time.time())
    body = {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": "ann",
        "org": "acme",
        "roles": ["developer"],
        "scope": "mcp:tools profile",
        "iat": now,
        "exp": now + 300,
    }
    body.update(claims)
    body = {k: v for k, v in body.items() if v is not None}
    signed: str = jwt.encode(
        body, KEY if key is None else key, algorithm=alg, headers={"kid": kid, **(headers or {})}
    )
    return signed


def settings_toml(jwks_line: str) -> str:
    return (
        "[gateway.oauth]\n"
        f'issuer = "{ISSUER}"\naudience = "{AUDIENCE}"\n{jwks_line}\n'
        'tenant_claim = "org"\nroles_claim = "roles"\nrequired_scopes = ["mcp:tools"]\n'
    )


@contextlib.contextmanager
def jwks_server() -> Iterator[str]:
    body = json.dumps(jwks()).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/jwks.json"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(params=["file", "url"])
def gateway_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with contextlib.ExitStack() as stack:
        if request.param == "file":
            (tmp_path / "jwks.json").write_text(json.dumps(jwks()))
            line = 'jwks_file = "jwks.json"'
        else:
            line = f'jwks_url = "{stack.enter_context(jwks_server())}"'
        url, _child = stack.enter_context(
            http_gateway_with(tmp_path, {"tracker": tracker()}, settings_toml(line), POLICY)
        )
        yield url


LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


async def test_a_valid_token_names_the_caller_and_bad_ones_get_401(gateway_url: str) -> None:
    pem = KEY.public_key().public_bytes(
        encoding=serialization.Encoding.PEM,
        format=serialization.PublicFormat.SubjectPublicKeyInfo,
    )
    bad = {
        "expired": token(exp=int(time.time()) - 3600),
        "another audience": token(aud="https://other.example/mcp"),
        "another issuer": token(iss="https://evil.example"),
        "another key": token(OTHER),
        "unknown kid": token(kid="nope"),
        "no subject": token(sub=None),
        "no expiry": token(exp=None),
        "missing scope": token(scope="profile"),
        "alg none": jwt.encode(
            {"sub": "ann", "iss": ISSUER, "aud": AUDIENCE},
            None,  # type: ignore[arg-type]  # what an attacker sends
            "none",
        ),
        "hmac with the public key": _hmac(pem),
        "not a jwt": "a.b.c",
        "garbage": "x" * 5000,
    }
    async with httpx.AsyncClient(timeout=30) as raw:
        for name, value in bad.items():
            answer = await raw.post(
                gateway_url, json=LIST, headers={**HEADERS, "Authorization": f"Bearer {value}"}
            )
            assert answer.status_code == 401, name
            assert "tools" not in answer.text, name
            challenge = answer.headers["www-authenticate"]
            assert "resource_metadata=" in challenge, name
        metadata_url = challenge.split('resource_metadata="')[1].rstrip('"')
        assert metadata_url.endswith("/.well-known/oauth-protected-resource/mcp")
        base = gateway_url.removesuffix("/mcp")
        metadata = await raw.get(base + "/.well-known/oauth-protected-resource/mcp")
        assert metadata.status_code == 200
        assert metadata.json()["authorization_servers"] == [ISSUER]

    async with http_client(gateway_url, token()) as dev:
        names = {t.name for t in (await dev.list_tools()).tools}
        assert "tracker_create_issue" in names  # the roles claim made ann a developer
    async with http_client(gateway_url, token(EC_KEY, alg="ES256", kid="k2", roles=[])) as plain:
        names = {t.name for t in (await plain.list_tools()).tools}
        assert "tracker_create_issue" not in names and "tracker_list_issues" in names


def _hmac(secret: bytes) -> str:
    """The algorithm-confusion attack: HS256 keyed with the public key's PEM."""
    import base64
    import hashlib
    import hmac

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    header = b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": "k1"}).encode())
    claims = {"sub": "ann", "iss": ISSUER, "aud": AUDIENCE, "exp": int(time.time()) + 300}
    body = b64(json.dumps(claims).encode())
    signature = hmac.new(secret, f"{header}.{body}".encode(), hashlib.sha256).digest()
    return f"{header}.{body}.{b64(signature)}"


_BASE = {"issuer": ISSUER, "audience": AUDIENCE, "jwks_url": "https://x"}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"issuer": ISSUER, "audience": AUDIENCE}, "exactly one of"),
        ({"issuer": ISSUER, "audience": AUDIENCE, "jwks_url": "x", "jwks_file": "y"}, "exactly"),
        ({"issuer": ISSUER, "audience": AUDIENCE, "jwks_url": "file:///etc/x"}, "http"),
        ({**_BASE, "algorithms": ["HS256"]}, "not allowed"),
        ({**_BASE, "algorithms": []}, "not allowed"),
        ({"issuer": ISSUER, "jwks_url": "https://x"}, "audience"),
        ({**_BASE, "leeway": -1}, "leeway"),
        ({**_BASE, "leeway": 1e9}, "leeway"),
        ({**_BASE, "typo": 1}, "typo"),
    ],
)
def test_bad_oauth_settings_are_refused(table: dict[str, Any], message: str) -> None:
    with pytest.raises(UserError, match=message):
        parse_oauth(table)


def test_a_jwks_file_that_is_no_jwks_is_a_startup_error(tmp_path: Path) -> None:
    (tmp_path / "jwks.json").write_text('{"keys": "nope"}')
    settings = parse_settings(
        {"gateway": {"oauth": {"issuer": ISSUER, "audience": AUDIENCE, "jwks_file": "jwks.json"}}},
        environ={},
        base=tmp_path,
    )
    assert settings.oauth is not None
    with pytest.raises(UserError, match="not a readable JWKS"):
        AccessTokens(settings.oauth)


@pytest.fixture(scope="module")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> AccessTokens:
    folder = tmp_path_factory.mktemp("jwks")
    (folder / "jwks.json").write_text(json.dumps(jwks()))
    return AccessTokens(
        parse_oauth(
            {
                "issuer": ISSUER,
                "audience": AUDIENCE,
                "jwks_file": "jwks.json",
                "tenant_claim": "org",
                "roles_claim": "roles",
            },
            base=folder,
        )
    )


_PART = r"[A-Za-z0-9_-]{0,40}"


@given(st.text(max_size=300) | st.from_regex(rf"{_PART}\.{_PART}\.{_PART}", fullmatch=True))
def test_no_string_but_a_signed_token_names_anyone(verifier: AccessTokens, value: str) -> None:
    assert anyio.run(verifier.identity, value) is None


def test_claims_of_any_shape_never_raise(verifier: AccessTokens) -> None:
    for claims in ({"sub": 7}, {"sub": ""}, {"sub": "x" * 300}, {"org": 3}, {"org": None}):
        assert anyio.run(verifier.identity, token(**claims)) is None
    found = anyio.run(verifier.identity, token(roles="a b", scp=["x"]))
    assert found is not None and found.roles == {"a", "b"} and found.scopes >= {"x", "mcp:tools"}
    assert found.tenant == "acme"
    odd = anyio.run(verifier.identity, token(roles={"admin": True}))
    assert odd is not None and odd.roles == frozenset()  # roles it cannot read: none
