"""`callgate ui`: what it refuses to start with, and the page it serves as a process."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from callgate.ui import CONTENT_SECURITY_POLICY
from tests.cli.helpers import assert_error, cli
from tests.ui.scenario import APPROVER_TOKEN, SETTINGS, Scenario
from tests.ui.server import callgate_ui


@pytest.fixture
def store_url(held: Scenario) -> str:
    return held.url


def _config(tmp_path: Path, text: str) -> str:
    path = tmp_path / "ui.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_without_a_config_nobody_could_sign_in(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert_error(cli("ui", "--store", store_url), "nobody could sign in", "--config")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[gateway]\n", "no [[gateway.clients]]"),
        ("[gateway\n", "cannot read settings"),
        ('[[gateway.clients]]\nprincipal = "bo"\ntoken = "plain-text-token-123"\n', "plain token"),
        ("[ui]\n", "unknown top-level"),
    ],
)
def test_a_config_that_cannot_be_used_is_one_line(
    store_url: str, tmp_path: Path, text: str, says: str
) -> None:
    assert_error(cli("ui", "--store", store_url, "--config", _config(tmp_path, text)), says)


def test_a_store_that_does_not_exist_is_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    ran = cli("ui", "--store", str(missing), "--config", _config(tmp_path, SETTINGS))
    assert_error(ran, "does not exist")
    assert not missing.exists()


def test_a_catalog_that_cannot_be_loaded_is_one_line(store_url: str, tmp_path: Path) -> None:
    config = _config(tmp_path, SETTINGS)
    for spec in ("nope", "tests.ui.scenario:missing", "no_such_module:x"):
        ran = cli("ui", "--store", store_url, "--config", config, "--tools", spec)
        assert_error(ran, "--tools")


def test_the_command_serves_the_page(held: Scenario, tmp_path: Path) -> None:
    config = Path(_config(tmp_path, SETTINGS))
    with callgate_ui(held.url, config) as address, httpx.Client(base_url=address) as http:
        form = http.get("login")
        assert form.status_code == 200
        assert form.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        csrf = re.search(r'name="csrf" value="([^"]+)"', form.text)
        assert csrf is not None
        signed = http.post("login", data={"csrf": csrf.group(1), "token": APPROVER_TOKEN})
        assert signed.status_code == 303
        inbox = http.get("inbox")
        assert inbox.status_code == 200 and "Editing needs the tool catalog" in inbox.text
        assert '<span class="count">2</span>' in inbox.text
        rebound = http.get("inbox", headers={"host": "rebound.example"})  # DNS rebinding
        assert rebound.status_code == 400 and "host name" in rebound.text


def test_an_address_in_use_is_one_line(store_url: str, tmp_path: Path) -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = str(taken.getsockname()[1])
        ran = cli(
            "ui", "--store", store_url, "--config", _config(tmp_path, SETTINGS), "--port", port
        )
    assert_error(ran, "cannot listen on 127.0.0.1", "in use")
