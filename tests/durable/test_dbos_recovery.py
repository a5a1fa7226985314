"""DBOS runs killed with SIGKILL and recovered by DBOS in the next process.

Each test starts `dbos_app.py` as a real process, kills it at the worst moment, starts
another and lets DBOS recover the workflow there. Transfers are counted in a ledger of the
tool's own, outside callgate. On SQLite (DBOS's development setting) and on PostgreSQL (the
CI's server, a fresh database per test holding callgate's tables and DBOS's schema).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from callgate.store import open_store
from tests.durable import apps
from tests.durable.conftest import ROOT, WAIT, Process, need, wait_for

pytestmark = pytest.mark.slow


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def env(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    need("dbos", "dbos")
    if request.param == "sqlite":
        store, system = f"sqlite:///{tmp_path}/callgate.db", f"sqlite:///{tmp_path}/dbos.db"
    else:
        store = system = request.getfixturevalue("pg_database")
    yield {
        "CALLGATE_TEST_STORE": store,
        "CALLGATE_TEST_DBOS": system,
        "CALLGATE_TEST_EFFECTS": str(tmp_path / "effects.db"),
    }


def _app(processes: Callable[..., Process], mode: str, env: dict[str, str]) -> Process:
    return processes("tests/durable/dbos_app.py", mode, "run-1", env=env)


def _started(env: dict[str, str]) -> bool:
    return Path(env["CALLGATE_TEST_EFFECTS"] + ".started").exists()


@pytest.mark.parametrize("killed", ["before", "after"])
def test_a_run_killed_during_a_write_runs_it_exactly_once(
    processes: Callable[..., Process], env: dict[str, str], killed: str
) -> None:
    env = {**env, "CALLGATE_TEST_POLICY": "allow"}
    first = _app(processes, "start", {**env, "CALLGATE_TEST_HANG": killed})
    first.event("launched")
    wait_for(lambda: _started(env), "the transfer to start")
    first.kill()
    assert len(apps.transfers(env["CALLGATE_TEST_EFFECTS"])) == (killed == "after")

    second = _app(processes, "serve", env)
    done = second.event("finished")

    assert done["run_id"] == "run-1" and done["status"] == "finished"
    assert done["routes"] == ["completed"]
    ledger = apps.transfers(env["CALLGATE_TEST_EFFECTS"])
    assert ledger == [("-:run-1/call_1:transfer", "ana", 25)]
    with open_store(env["CALLGATE_TEST_STORE"]) as store:
        assert store.receipts.verify().ok
        receipts = store.receipts.list()
        assert [(r.route, r.call_id, r.idempotency_key) for r in receipts] == [
            ("completed", "call_1", "-:run-1/call_1:transfer")
        ]
        saved = store.runs.load("run-1")
        assert saved is not None and saved.status == "finished"
    if killed == "after":
        assert "already taken effect" in done["answer"]  # reconciled, not run again


def test_a_held_call_approved_after_a_restart_resumes_the_same_workflow(
    processes: Callable[..., Process], env: dict[str, str]
) -> None:
    # Polls far apart: only the wake-up can make the run go on within the test's time.
    env = {**env, "CALLGATE_TEST_POLL": "600"}
    first = _app(processes, "start", env)
    first.event("launched")
    with open_store(env["CALLGATE_TEST_STORE"]) as store:
        held = wait_for(lambda: store.approvals.list(), "the transfer to be held")
    # Killed once the workflow waits: its held call is checkpointed, DBOS.recv has set its
    # deadline (a `DBOS.sleep` step).
    wait_for(lambda: "DBOS.sleep" in _steps(env["CALLGATE_TEST_DBOS"]), "the run to wait")
    first.kill()
    assert apps.transfers(env["CALLGATE_TEST_EFFECTS"]) == []

    second = _app(processes, "serve", env)
    second.event("launched")
    # The decision goes where decisions go (the command line), which wakes the workflow.
    approve = subprocess.run(
        [
            sys.executable,
            "-m",
            "callgate.cli",
            "approvals",
            "approve",
            held[0].id,
            "--store",
            env["CALLGATE_TEST_STORE"],
            "--wake-dbos",
            env["CALLGATE_TEST_DBOS"],
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )
    assert approve.returncode == 0, approve.stderr
    assert approve.stdout.strip().endswith("; woke 1 workflow(s) of run run-1")
    done = second.event("finished")

    assert done["run_id"] == "run-1" and done["status"] == "finished"
    assert done["routes"] == ["held", "completed"]
    assert [k for k, _, _ in apps.transfers(env["CALLGATE_TEST_EFFECTS"])] == [
        "-:run-1/call_1:transfer"
    ]
    with open_store(env["CALLGATE_TEST_STORE"]) as store:
        assert store.receipts.verify().ok
        assert [r.route for r in store.receipts.list()] == ["held", "completed"]
        approval = store.approvals.get(held[0].id)
        assert approval is not None and approval.state == "used"
    assert _workflows(env["CALLGATE_TEST_DBOS"]) == [("run-1", "SUCCESS")]


def _steps(system: str) -> list[str]:
    from dbos import DBOSClient

    client = DBOSClient(system_database_url=system)
    try:
        return [s["function_name"] for s in client.list_workflow_steps("run-1", load_output=False)]
    finally:
        client.destroy()


def _workflows(system: str) -> list[tuple[str, str]]:
    from dbos import DBOSClient

    client = DBOSClient(system_database_url=system)
    try:
        return [(w.workflow_id, w.status) for w in client.list_workflows()]
    finally:
        client.destroy()
