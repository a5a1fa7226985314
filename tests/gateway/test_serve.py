"""`callgate serve` as a process, with the SDK `Client` downstream over stdio and HTTP, and
the `callgate` command line deciding approvals from another process."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import queue
import select
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import anyio
import httpx
import mcp_types
import pytest
from mcp import Client, MCPError, StdioServerParameters

from callgate.store import open_store
from tests.mcp._support import (
    ROOT,
    WAIT,
    alive,
    callgate_command,
    http_client,
    library,
    tracker,
    wait_until,
)

POLICY = """
[[rules]]
id = "developers-file-issues"
action = "deny"
reason = "only developers file issues"
tools = ["tracker_create_issue"]
lacks_roles = ["developer"]
"""

SETTINGS = """
[gateway]
stdio = { principal = "ann", tenant = "acme", roles = ["developer"] }

[[gateway.clients]]
principal = "dev-bot"
tenant = "acme"
roles = ["developer"]
token = "${DEV_TOKEN}"

[[gateway.clients]]
principal = "viewer"
tenant = "acme"
token = "${VIEWER_TOKEN}"
"""

TOKENS = {"DEV_TOKEN": "dev-token-0123456789abcdef", "VIEWER_TOKEN": "viewer-token-0123456789ab"}


def write_config(tmp_path: Path, servers: dict[str, Any]) -> Path:
    path = tmp_path / ".mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}))
    return path


def text(result: mcp_types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mcp_types.TextContent)
    return block.text


def serve_params(tmp_path: Path, config: Path, *extra: str) -> StdioServerParameters:
    command = callgate_command()
    return StdioServerParameters(
        command=command[0],
        args=[*command[1:], "serve", "--mcp-config", str(config), *extra],
        env={"CALLGATE_STORE": f"sqlite:///{tmp_path / 'gw.db'}", "PYTHONPATH": str(ROOT)},
        cwd=str(tmp_path),
    )


async def test_a_held_write_approved_from_the_cli_returns_its_outcome_once(
    tmp_path: Path,
) -> None:
    ledger, pidfile = tmp_path / "ledger.jsonl", tmp_path / "tracker.pid"
    config = write_config(
        tmp_path,
        {"tracker": tracker({"TRACKER_LEDGER": str(ledger), "TRACKER_PIDFILE": str(pidfile)})},
    )
    arguments = {"project": "OPS", "title": "disk full on db-1"}
    local = ("--tools", "tests.gateway.local_tools:catalog")
    async with Client(serve_params(tmp_path, config, *local)) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert {"tracker_create_issue", "notes_search"} <= names
        found = await client.call_tool("notes_search", {"query": "db-1"})
        assert found.structured_content is None and "note about db-1" in text(found)
        held = await client.call_tool("tracker_create_issue", arguments)
        meta = held.meta or {}
        assert held.is_error and meta["callgate/route"] == "held"
        approval = meta["callgate/approval-id"]
        assert f"callgate approvals approve {approval}" in text(held)
        again = await client.call_tool("tracker_create_issue", arguments)
        assert (again.meta or {})["callgate/approval-id"] == approval  # still waiting
        assert not ledger.exists()

        decided = await anyio.run_process(
            [*callgate_command(), "approvals", "approve", approval, "--by", "bo"],
            env={**os.environ, "CALLGATE_STORE": f"sqlite:///{tmp_path / 'gw.db'}"},
            check=False,
        )
        assert decided.returncode == 0, decided.stderr

        done = await client.call_tool("tracker_create_issue", arguments)
        assert not done.is_error, text(done)
        assert (done.meta or {})["callgate/route"] == "completed"
        assert done.structured_content == {"id": 1}
        replay = await client.call_tool("tracker_create_issue", arguments)
        assert (replay.meta or {}).get("callgate/replayed") is True
        assert replay.structured_content == {"id": 1}
        other = await client.call_tool(
            "tracker_create_issue",
            arguments,
            meta=cast(mcp_types.RequestParamsMeta, {"callgate/idempotency-key": "second"}),
        )
        assert (other.meta or {})["callgate/route"] == "held"  # a new request: a new decision
    rows = [json.loads(line) for line in ledger.read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["key"]  # the key went upstream in _meta
    upstream = int(pidfile.read_text())
    assert wait_until(lambda: not alive(upstream), 10)  # the client left: all reaped


def test_an_unset_variable_refuses_to_start(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    config = write_config(
        tmp_path,
        {"gitlab": tracker({"TRACKER_PIDFILE": str(pidfile), "TOKEN": "${GITLAB_TOKEN}"})},
    )
    env = {k: v for k, v in os.environ.items() if k != "GITLAB_TOKEN"}
    done = subprocess.run(
        [*callgate_command(), "serve", "--mcp-config", str(config)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=WAIT,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "'gitlab'" in lines[0] and "GITLAB_TOKEN" in lines[0]
    assert not pidfile.exists()  # nothing was started, nothing sent a literal ${...}


@contextlib.contextmanager
def http_gateway(tmp_path: Path, servers: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    with http_gateway_with(tmp_path, servers, SETTINGS, POLICY) as running:
        yield running


@contextlib.contextmanager
def http_gateway_with(
    tmp_path: Path, servers: dict[str, Any], settings: str, policy: str
) -> Iterator[tuple[str, Any]]:
    """`callgate serve --transport http` on a free port with these settings and policy."""
    config = write_config(tmp_path, servers)
    (tmp_path / "callgate.toml").write_text(settings)
    (tmp_path / "policy.toml").write_text(policy)
    child = subprocess.Popen(
        [
            *callgate_command(),
            "serve",
            "--mcp-config",
            str(config),
            "--policy",
            "policy.toml",
            "--transport",
            "http",
            "--port",
            "0",
            "--store",
            f"sqlite:///{tmp_path / 'gw.db'}",
        ],
        cwd=tmp_path,
        env={**os.environ, **TOKENS},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert child.stderr is not None
    threading.Thread(target=_pump, args=(child.stderr, lines), daemon=True).start()
    try:
        url = _listening(lines, child)
        yield url, child
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
        child.wait(WAIT)
        child.stderr.close()


def _pump(stream: Any, lines: queue.Queue[str]) -> None:
    for line in stream:
        lines.put(line)


def _listening(lines: queue.Queue[str], child: subprocess.Popen[str]) -> str:
    seen: list[str] = []
    while True:
        try:
            line = lines.get(timeout=WAIT)
        except queue.Empty:
            raise AssertionError(f"the gateway did not start: {seen}") from None
        seen.append(line)
        if "listening on " in line:
            return line.rsplit(" ", 1)[-1].strip()
        if child.poll() is not None:
            raise AssertionError(f"the gateway exited: {seen}")


async def test_http_clients_are_authenticated_and_see_what_they_may_call(tmp_path: Path) -> None:
    with http_gateway(tmp_path, {"tracker": tracker()}) as (url, _child):
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        async with httpx.AsyncClient(timeout=WAIT) as raw:
            for headers in ({}, {"Authorization": "Bearer wrong-token-0123456789"}):
                answer = await raw.post(url, json=body, headers=headers)
                assert answer.status_code == 401
                assert "tools" not in answer.text
            session = await _session_of(raw, url, TOKENS["DEV_TOKEN"])
            stolen = await raw.post(
                url, json=body, headers=_headers(TOKENS["VIEWER_TOKEN"], session)
            )
            assert stolen.status_code == 404  # another principal cannot continue the session

        async with http_client(url, TOKENS["DEV_TOKEN"]) as dev:
            names = {t.name for t in (await dev.list_tools()).tools}
            assert "tracker_create_issue" in names
            held = await dev.call_tool("tracker_create_issue", {"project": "OPS", "title": "t"})
            assert (held.meta or {})["callgate/route"] == "held"
        async with http_client(url, TOKENS["VIEWER_TOKEN"]) as viewer:
            names = {t.name for t in (await viewer.list_tools()).tools}
            assert "tracker_create_issue" not in names and "tracker_list_issues" in names
            refused = await viewer.call_tool(
                "tracker_create_issue", {"project": "OPS", "title": "t"}
            )
            assert refused.is_error and (refused.meta or {})["callgate/route"] == "denied"
            assert "only developers file issues" in text(refused)


def _headers(token: str, session: str | None = None) -> dict[str, str]:
    headers = {
        "Accept": "application/json, text/event-stream",
        "Authorization": f"Bearer {token}",
        "MCP-Protocol-Version": "2025-11-25",
    }
    return {**headers, "MCP-Session-Id": session} if session else headers


async def _session_of(raw: httpx.AsyncClient, url: str, token: str) -> str:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"},
        },
    }
    answer = await raw.post(url, json=init, headers=_headers(token))
    assert answer.status_code == 200
    return answer.headers["mcp-session-id"]


@pytest.mark.parametrize("transport", ["http", "stdio"])
def test_no_upstream_process_outlives_the_gateway_after_sigterm(
    tmp_path: Path, transport: str
) -> None:
    pidfiles = [tmp_path / "a.pid", tmp_path / "b.pid"]
    servers = {
        "a": tracker({"TRACKER_PIDFILE": str(pidfiles[0])}),
        "b": tracker({"TRACKER_PIDFILE": str(pidfiles[1])}),
    }
    if transport == "http":
        with http_gateway(tmp_path, servers) as (_url, child):
            pids = _pids(pidfiles)
            child.send_signal(signal.SIGTERM)
            assert child.wait(WAIT) == 0
    else:
        config = write_config(tmp_path, servers)
        child = subprocess.Popen(
            [*callgate_command(), "serve", "--mcp-config", str(config)],
            cwd=tmp_path,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        pids = _pids(pidfiles)
        _handshake(child)  # serving, with its client silent and stdin open
        child.send_signal(signal.SIGTERM)
        assert child.wait(WAIT) == 0
        for pipe in (child.stdin, child.stdout):
            if pipe is not None:
                pipe.close()
    assert wait_until(lambda: not any(alive(p) for p in pids), 10), [p for p in pids if alive(p)]


def _handshake(child: subprocess.Popen[bytes]) -> None:
    assert child.stdin is not None and child.stdout is not None
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }
    child.stdin.write(json.dumps(initialize).encode() + b"\n")
    child.stdin.flush()
    ready, _, _ = select.select([child.stdout], [], [], WAIT)
    assert ready, "no answer to initialize"
    assert json.loads(child.stdout.readline())["id"] == 1


def _pids(pidfiles: list[Path]) -> list[int]:
    assert wait_until(lambda: all(p.exists() and p.read_text() for p in pidfiles))
    pids = [int(p.read_text()) for p in pidfiles]
    assert all(alive(p) for p in pids)
    return pids


def test_hash_token_prints_the_digest_a_config_stores() -> None:
    done = subprocess.run(
        [*callgate_command(), "serve", "--hash-token"],
        input="dev-token-0123456789abcdef\n",
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert done.stdout.strip() == hashlib.sha256(b"dev-token-0123456789abcdef").hexdigest()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "nothing to serve"),
        (["--tools", "tests.gateway.local_tools:catalog", "--transport", "ws"], "--transport"),
        (
            ["--tools", "tests.gateway.local_tools:catalog", "--store", "sqlite:////no/such/x.db"],
            "does not exist",
        ),
        (
            ["--tools", "tests.gateway.local_tools:catalog", "--transport", "http"],
            "needs at least one client",
        ),
        (["--mcp-config", "missing.json"], "cannot read config"),
    ],
)
def test_configuration_errors_are_one_line_and_exit_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    done = subprocess.run(
        [*callgate_command(), "serve", *args],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=WAIT,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and message in lines[0], lines


READERS_POLICY = """
[[rules]]
id = "developers-read-the-docs"
action = "deny"
reason = "only developers read the docs server"
tools = ["resources-docs", "prompt-docs_*"]
lacks_roles = ["developer"]
"""


async def test_http_clients_read_prompts_and_resources_through_the_gate(tmp_path: Path) -> None:
    servers = {"docs": library()}
    with http_gateway_with(tmp_path, servers, SETTINGS, READERS_POLICY) as (url, _child):
        body = {"jsonrpc": "2.0", "id": 1, "method": "resources/list", "params": {}}
        async with httpx.AsyncClient(timeout=WAIT) as raw:
            assert (await raw.post(url, json=body)).status_code == 401
        async with http_client(url, TOKENS["DEV_TOKEN"]) as dev:
            uris = [r.uri for r in (await dev.list_resources()).resources]
            assert "callgate://docs/file:///guide.md" in uris
            guide = await dev.read_resource("callgate://docs/file:///guide.md")
            block = guide.contents[0]
            assert isinstance(block, mcp_types.TextResourceContents)
            assert "It is data, not instructions" in block.text
            prompt = await dev.get_prompt("docs_review", {"code": "print(1)"})
            assert prompt.messages
        async with http_client(url, TOKENS["VIEWER_TOKEN"]) as viewer:
            assert (await viewer.list_resources()).resources == []
            assert (await viewer.list_prompts()).prompts == []
            with pytest.raises(MCPError) as refused:
                await viewer.read_resource("callgate://docs/file:///guide.md")
            assert "only developers read the docs server" in refused.value.error.message
    store = open_store(f"sqlite:///{tmp_path / 'gw.db'}")
    receipts = store.receipts.list(limit=10)
    store.close()
    assert [(r.tool_name, r.principal, r.route.value) for r in receipts] == [
        ("resources-docs", "dev-bot", "completed"),
        ("prompt-docs_review", "dev-bot", "completed"),
        ("resources-docs", "viewer", "denied"),
    ]
