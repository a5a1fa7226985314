"""`callgate serve --transport http --ui`: the operator page beside the gateway's MCP
endpoint, over the gateway's own store and catalog. An agent's call held by the gateway is
decided on the page, and the agent's repeated call then runs once."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import mcp_types
import pytest

from callgate.ui import CONTENT_SECURITY_POLICY
from tests.mcp._support import WAIT, callgate_command, http_client, tracker
from tests.ui.scenario import APPROVER_TOKEN
from tests.ui.server import callgate_serve_ui

pytestmark = pytest.mark.slow  # the gateway and its upstream server as processes

BOT_TOKEN = "agent-bot-token-0123456789abcdef"
SETTINGS = """
[[gateway.clients]]
principal = "agent-bot"
tenant = "acme"
roles = ["developer"]
token = "${BOT_TOKEN}"

[[gateway.clients]]
principal = "bo"
roles = ["approver"]
token = "${APPROVER_TOKEN}"
"""
ENV = {"BOT_TOKEN": BOT_TOKEN, "APPROVER_TOKEN": APPROVER_TOKEN}
ARGUMENTS = {"project": "OPS", "title": "disk full on db-1"}


def _serve(tmp_path: Path) -> tuple[Path, list[str]]:
    ledger = tmp_path / "ledger.jsonl"
    servers = {"tracker": tracker({"TRACKER_LEDGER": str(ledger)})}
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    (tmp_path / "callgate.toml").write_text(SETTINGS)
    store = f"sqlite:///{tmp_path / 'gw.db'}"
    return ledger, ["--mcp-config", ".mcp.json", "--store", store]


async def _sign_in(page: httpx.AsyncClient) -> str:
    form = await page.get("login")
    csrf = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert csrf is not None
    signed = await page.post("login", data={"csrf": csrf.group(1), "token": APPROVER_TOKEN})
    assert signed.status_code == 303 and signed.headers["location"] == "/ui/inbox"
    found = re.search(r'name="csrf" value="([^"]+)"', (await page.get("inbox")).text)
    assert found is not None
    return found.group(1)


def _meta(result: mcp_types.CallToolResult) -> dict[str, object]:
    return dict(result.meta or {})


async def test_a_call_held_by_the_gateway_is_decided_on_its_page(tmp_path: Path) -> None:
    ledger, arguments = _serve(tmp_path)
    with callgate_serve_ui(tmp_path, ENV, *arguments) as (endpoint, site):
        assert endpoint.endswith("/mcp") and site == endpoint.removesuffix("mcp") + "ui/"
        async with (
            http_client(endpoint, BOT_TOKEN) as agent,
            httpx.AsyncClient(base_url=site, timeout=WAIT) as page,
        ):
            held = await agent.call_tool("tracker_create_issue", ARGUMENTS)
            assert _meta(held)["callgate/route"] == "held"
            approval = str(_meta(held)["callgate/approval-id"])

            assert (await page.get("inbox")).headers["location"] == "/ui/login?next=%2Finbox"
            csrf = await _sign_in(page)
            inbox = await page.get("inbox")
            assert inbox.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
            assert f'id="approval-{approval}"' in inbox.text and "agent-bot" in inbox.text
            decided = await page.post(
                f"approvals/{approval}/decide", data={"csrf": csrf, "action": "approve"}
            )
            assert decided.status_code == 303
            assert not ledger.exists()  # the page decides; the agent's call runs it

            done = await agent.call_tool("tracker_create_issue", ARGUMENTS)
            assert _meta(done)["callgate/route"] == "completed", done
            again = await agent.call_tool("tracker_create_issue", ARGUMENTS)
            assert _meta(again).get("callgate/replayed") is True
            shown = (await page.get(f"approvals/{approval}")).text
            assert 'class="state state-used"' in shown  # approved, then taken by the call
            assert "<dt>decided by</dt><dd>bo</dd>" in shown
            assert "Intact:" in (await page.get("verify")).text
    assert len(ledger.read_text().splitlines()) == 1  # exactly once


async def test_the_page_and_the_endpoint_keep_their_own_sign_in(tmp_path: Path) -> None:
    _, arguments = _serve(tmp_path)
    with callgate_serve_ui(tmp_path, ENV, *arguments) as (endpoint, site):
        async with httpx.AsyncClient(timeout=WAIT) as raw:
            body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
            assert (await raw.post(endpoint, json=body)).status_code == 401
            bot = {"Authorization": f"Bearer {BOT_TOKEN}"}
            assert (await raw.get(site + "inbox", headers=bot)).status_code == 303
            form = await raw.get(site + "login")
            csrf = re.search(r'name="csrf" value="([^"]+)"', form.text)
            assert csrf is not None
            agent = await raw.post(site + "login", data={"csrf": csrf.group(1), "token": BOT_TOKEN})
            assert agent.status_code == 401  # an agent's token does not open the page
            assert "callgate_session" not in agent.headers.get("set-cookie", "")
            rebound = await raw.get(site + "login", headers={"host": "rebound.example"})
            assert rebound.status_code == 400  # on loopback, another name is a rebinding


def test_the_page_needs_the_http_transport(tmp_path: Path) -> None:
    import subprocess

    _, arguments = _serve(tmp_path)
    done = subprocess.run(
        [*callgate_command(), "serve", "--ui", *arguments],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: --ui needs --transport http: the page is served beside the HTTP endpoint"
    )
