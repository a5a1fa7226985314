"""Identities from callgate.toml: hashed tokens, one clear error per hostile file, 401s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from callgate import UserError
from callgate.gateway import Authenticate, hash_token, load_settings, parse_settings

TOKEN = "bot-token-0123456789abcdef"


def test_tokens_from_the_environment_are_kept_only_as_digests() -> None:
    settings = parse_settings(
        {
            "gateway": {
                "stdio": {"principal": "ann", "roles": ["dev"]},
                "clients": [
                    {"principal": "bot", "tenant": "acme", "roles": ["dev"], "token": "${T}"},
                    {"principal": "ci", "token_sha256": hash_token("ci-token-0123456789abcd")},
                ],
            }
        },
        environ={"T": TOKEN},
    )
    bot = settings.credentials.lookup(TOKEN)
    assert bot is not None and bot.principal == "bot" and bot.roles == {"dev"}
    assert settings.credentials.lookup("ci-token-0123456789abcd") is not None
    assert settings.credentials.lookup("wrong") is None and settings.credentials.lookup("") is None
    assert settings.stdio.principal == "ann"
    assert TOKEN not in repr(settings.credentials.__dict__)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"gatway": {}}, "unknown top-level"),
        ({"gateway": {"clients": {}}}, "array of tables"),
        ({"gateway": {"clients": [{"principal": "a"}]}}, "exactly one of"),
        ({"gateway": {"clients": [{"principal": "a", "token": "plain-token-in-file"}]}}, "plain"),
        ({"gateway": {"clients": [{"principal": "a", "token": "${MISSING}"}]}}, "MISSING"),
        ({"gateway": {"clients": [{"principal": "a", "token": "${SHORT}"}]}}, "shorter than 16"),
        ({"gateway": {"clients": [{"principal": "a", "token_sha256": "xyz"}]}}, "64 hex"),
        ({"gateway": {"clients": [{"token_sha256": "a" * 64}]}}, "principal"),
        (
            {"gateway": {"clients": [{"principal": "a", "token_sha256": "a" * 64, "roles": "x"}]}},
            "list of strings",
        ),
        (
            {"gateway": {"clients": [{"principal": "a", "token_sha256": "a" * 64, "x": 1}]}},
            "unknown key",
        ),
        (
            {
                "gateway": {
                    "clients": [
                        {"principal": "a", "token_sha256": "a" * 64},
                        {"principal": "b", "token_sha256": "a" * 64},
                    ]
                }
            },
            "two clients",
        ),
        ({"gateway": {"stdio": "ann"}}, "must be a table"),
    ],
)
def test_hostile_settings_get_one_clear_error(data: dict[str, Any], message: str) -> None:
    with pytest.raises(UserError, match=message) as caught:
        parse_settings(data, environ={"SHORT": "abc"})
    assert "\n" not in str(caught.value)


def test_a_broken_toml_file_names_itself(tmp_path: Path) -> None:
    path = tmp_path / "callgate.toml"
    path.write_text("[gateway\n")
    with pytest.raises(UserError, match=r"callgate\.toml"):
        load_settings(path)


def test_requests_without_a_known_token_get_401() -> None:
    settings = parse_settings(
        {"gateway": {"clients": [{"principal": "bot", "token": "${T}"}]}}, environ={"T": TOKEN}
    )

    async def whoami(request: Request) -> PlainTextResponse:
        return PlainTextResponse(request.scope["user"].display_name)

    app = Authenticate(Starlette(routes=[Route("/mcp", whoami)]), settings.credentials)
    client = TestClient(app)
    assert client.get("/mcp").status_code == 401
    assert client.get("/mcp", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert (
        client.get("/mcp", headers={"Authorization": "Bearer " + "x" * 10_000}).status_code == 401
    )
    answer = client.get("/mcp", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200 and answer.text == "bot"
    assert client.get("/mcp", headers={"X-API-Key": TOKEN}).text == "bot"
