"""Runs on a real Temporal server (the `temporal` CLI's development server on loopback).

Workers are real processes the tests kill with SIGKILL and start again; the client is a
process too. Transfers are counted in the tool's own ledger, outside callgate.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from callgate import Approve
from callgate.loop import RunResult
from callgate.store import open_store
from tests.durable import apps
from tests.durable.conftest import ROOT, WAIT, Process, temporal_cli, wait_for

pytestmark = pytest.mark.slow


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    yield {
        "CALLGATE_TEST_STORE": f"sqlite:///{tmp_path}/callgate.db",
        "CALLGATE_TEST_EFFECTS": str(tmp_path / "effects.db"),
    }


@pytest.fixture
def queue() -> str:
    return f"callgate-test-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def run_id() -> str:
    """Unique on the shared server: a workflow id is taken while its run is open."""
    return f"run-{uuid.uuid4().hex[:8]}"


def _worker(
    processes: Callable[..., Process], address: str, queue: str, env: dict[str, str]
) -> Process:
    worker = processes("tests/durable/temporal_app.py", address, queue, "worker", env=env)
    worker.event("ready")
    return worker


def _client(address: str, queue: str, env: dict[str, str], *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "tests/durable/temporal_app.py", address, queue, *args],
        cwd=ROOT,
        env={**_base_env(), **env},
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            data: dict[str, Any] = json.loads(line)
            return data
    raise AssertionError(f"the client said nothing:\n{done.stderr[-3000:]}")


def _base_env() -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _started(env: dict[str, str]) -> bool:
    return Path(env["CALLGATE_TEST_EFFECTS"] + ".started").exists()


@pytest.mark.parametrize("killed", ["before", "after"])
def test_a_worker_killed_during_a_write_does_not_repeat_it(
    processes: Callable[..., Process],
    temporal_address: str,
    queue: str,
    env: dict[str, str],
    run_id: str,
    killed: str,
) -> None:
    env = {**env, "CALLGATE_TEST_POLICY": "allow"}
    first = _worker(processes, temporal_address, queue, {**env, "CALLGATE_TEST_HANG": killed})
    assert _client(temporal_address, queue, env, "start", run_id)["event"] == "started"
    wait_for(lambda: _started(env), "the transfer to start")
    first.kill()
    assert len(apps.transfers(env["CALLGATE_TEST_EFFECTS"])) == (killed == "after")

    _worker(processes, temporal_address, queue, env)
    done = _client(temporal_address, queue, env, "result", run_id)

    assert done["event"] == "finished", done
    assert done["run_id"] == run_id and done["status"] == "finished"
    assert done["routes"] == ["completed"]
    assert apps.transfers(env["CALLGATE_TEST_EFFECTS"]) == [
        (f"-:{run_id}/call_1:transfer", "ana", 25)
    ]
    with open_store(env["CALLGATE_TEST_STORE"]) as store:
        assert store.receipts.verify().ok
        assert [(r.route, r.idempotency_key) for r in store.receipts.list()] == [
            ("completed", f"-:{run_id}/call_1:transfer")
        ]
    if killed == "after":
        assert "already taken effect" in done["answer"]


def test_an_approval_update_resumes_a_held_call_after_a_worker_restart(
    processes: Callable[..., Process],
    temporal_address: str,
    queue: str,
    env: dict[str, str],
    run_id: str,
) -> None:
    env = {**env, "CALLGATE_TEST_POLL": "600"}  # only the update can wake the run in time
    first = _worker(processes, temporal_address, queue, env)
    _client(temporal_address, queue, env, "start", run_id)
    with open_store(env["CALLGATE_TEST_STORE"]) as store:
        held = wait_for(lambda: store.approvals.list(), "the transfer to be held")[0]
    # Killed only once the held step is in the history: killed between the store's write
    # and the history's, the step would run again and record the call held twice.
    assert _client(temporal_address, queue, env, "waiting", run_id) == {"event": "waiting"}
    first.kill()
    _worker(processes, temporal_address, queue, env)

    # An edit the schema refuses is refused to the one who decided; the call stays held.
    bad = {"kind": "edit", "arguments": {"recipient": "ana", "amount": "lots"}}
    refused = _client(temporal_address, queue, env, "decide", run_id, held.id, json.dumps(bad))
    assert refused["event"] == "refused", refused
    assert "UserError" in refused["message"] and "amount" in refused["message"]
    assert apps.transfers(env["CALLGATE_TEST_EFFECTS"]) == []

    approve = json.dumps({"kind": "approve", "by": "ana"})
    assert _client(temporal_address, queue, env, "decide", run_id, held.id, approve) == {
        "event": "decided",
        "state": "approved",
    }
    done = _client(temporal_address, queue, env, "result", run_id)

    assert done["status"] == "finished" and done["routes"] == ["held", "completed"]
    assert [k for k, _, _ in apps.transfers(env["CALLGATE_TEST_EFFECTS"])] == [
        f"-:{run_id}/call_1:transfer"
    ]
    with open_store(env["CALLGATE_TEST_STORE"]) as store:
        assert store.receipts.verify().ok
        assert [r.route for r in store.receipts.list()] == ["held", "completed"]
        approval = store.approvals.get(held.id)
        assert approval is not None and approval.state == "used" and approval.decided_by == "ana"


@pytest.mark.parametrize("signal", ["client", "temporal CLI"])
def test_a_decision_from_the_command_line_and_a_signal_resume_a_held_call(
    processes: Callable[..., Process],
    temporal_address: str,
    queue: str,
    env: dict[str, str],
    run_id: str,
    signal: str,
) -> None:
    env = {**env, "CALLGATE_TEST_POLL": "600"}
    _worker(processes, temporal_address, queue, env)
    _client(temporal_address, queue, env, "start", run_id)
    with open_store(env["CALLGATE_TEST_STORE"]) as store:
        held = wait_for(lambda: store.approvals.list(), "the transfer to be held")[0]
    deny = subprocess.run(
        [
            sys.executable,
            "-m",
            "callgate.cli",
            "approvals",
            "deny",
            held.id,
            "--note",
            "not this month",
            "--store",
            env["CALLGATE_TEST_STORE"],
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )
    assert deny.returncode == 0, deny.stderr
    if signal == "client":
        notified = _client(temporal_address, queue, env, "notify", run_id, held.id)
        assert notified["event"] == "notified"
    else:
        _temporal_signal(temporal_address, run_id, held.id)
    done = _client(temporal_address, queue, env, "result", run_id)

    assert done["routes"] == ["held", "declined"]
    assert done["answer"].startswith("done: declined")
    assert apps.transfers(env["CALLGATE_TEST_EFFECTS"]) == []


def test_a_workflow_run_routes_and_records_exactly_as_the_plain_loop(
    processes: Callable[..., Process],
    temporal_address: str,
    queue: str,
    env: dict[str, str],
    run_id: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CALLGATE_TEST_EFFECTS", str(tmp_path / "plain-effects.db"))
    expected, expected_receipts = asyncio.run(
        _plain_orders(f"sqlite:///{tmp_path}/plain.db", run_id)
    )

    env = {**env, "CALLGATE_TEST_AGENT": "orders", "CALLGATE_TEST_POLL": "600"}
    _worker(processes, temporal_address, queue, env)
    _client(temporal_address, queue, env, "start", run_id)
    with open_store(env["CALLGATE_TEST_STORE"]) as store:
        held = wait_for(lambda: store.approvals.list(), "the transfer to be held")[0]
    approve = json.dumps({"kind": "approve", "by": "ana"})
    assert _client(temporal_address, queue, env, "decide", run_id, held.id, approve)["event"] == (
        "decided"
    )
    done = _client(temporal_address, queue, env, "result", run_id)

    assert done["status"] == expected.status == "finished"
    assert done["answer"] == expected.answer
    calls = [(r.call.name, r.route.value) for r in expected.calls]
    assert [tuple(c) for c in done["calls"]] == calls == apps.ORDERS_ROUTES
    with open_store(env["CALLGATE_TEST_STORE"]) as store:
        assert apps.receipts(store) == expected_receipts
    assert len(apps.transfers(env["CALLGATE_TEST_EFFECTS"])) == 1


def _temporal_signal(address: str, run_id: str, approval_id: str) -> None:
    """The signal as docs/durable.md gives it, with the `temporal` CLI."""
    sent = subprocess.run(
        [
            temporal_cli(),
            "workflow",
            "signal",
            "--address",
            address,
            "--workflow-id",
            run_id,
            "--name",
            "callgate.notify",
            "--input",
            json.dumps(approval_id),
        ],
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )
    assert sent.returncode == 0, sent.stderr


async def _plain_orders(url: str, run_id: str) -> tuple[RunResult, list[tuple[Any, ...]]]:
    """The orders run on the plain loop: paused at the held transfer, approved, resumed."""
    with open_store(url) as store:
        async with apps.orders_agent(store) as agent:
            paused = await agent.run(apps.ORDERS_PROMPT, run_id=run_id)
            await agent.gate.decide(paused.pending[0].approval_id, Approve(by="ana"))
            result = await agent.resume(run_id)
        return result, apps.receipts(store)
