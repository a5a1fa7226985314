"""Agent runs as DBOS workflows in this process (SQLite, DBOS's development setting): every
route and receipt as with the plain loop, held calls woken by a message or found by a poll,
and a run whose wait ran out paused and resumed as a new workflow."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from callgate import Approve, Context, Gate, ToolCall
from callgate.loop import RunResult
from callgate.store import Store, open_store
from tests.cli.helpers import assert_error, callgate, cli
from tests.durable import apps
from tests.durable.conftest import need


@pytest.fixture(autouse=True)
def effects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The transfer tool's own ledger (`apps.transfer` counts its effects there)."""
    path = tmp_path / "effects.db"
    monkeypatch.setenv("CALLGATE_TEST_EFFECTS", str(path))
    return path


@pytest.fixture
def dbos(tmp_path: Path) -> Iterator[Callable[[], None]]:
    """Launch DBOS on a SQLite system database (once the agents are made); destroyed after."""
    need("dbos", "dbos")
    from dbos import DBOS

    launched = False

    def launch() -> None:
        nonlocal launched
        DBOS(config={"name": "callgate-tests", "system_database_url": f"sqlite:///{tmp_path}/d.db"})
        DBOS.launch()
        launched = True

    yield launch
    if launched:
        DBOS.destroy(destroy_registry=True)


async def _held(store: Store) -> str:
    for _ in range(400):
        pending = store.approvals.list()
        if pending:
            return pending[0].id
        await asyncio.sleep(0.05)
    raise AssertionError("no call was held")


async def test_a_workflow_run_routes_and_records_exactly_as_the_plain_loop(
    tmp_path: Path, dbos: Callable[[], None], effects: Path
) -> None:
    from callgate.durable import ApprovalWait, DBOSAgent, notify_approval

    with open_store(f"sqlite:///{tmp_path}/plain.db") as plain_store:
        async with apps.orders_agent(plain_store) as plain:
            paused = await plain.run(apps.ORDERS_PROMPT, run_id="run-1")
            assert paused.status == "paused"
            await plain.gate.decide(paused.pending[0].approval_id, Approve(by="ana"))
            expected = await plain.resume("run-1")
        assert len(apps.transfers(effects)) == 1
        expected_receipts = apps.receipts(plain_store)

    with open_store(f"sqlite:///{tmp_path}/durable.db") as store:
        agent = apps.orders_agent(store)
        durable = DBOSAgent(
            agent, name="orders", approval_wait=ApprovalWait(first=600, longest=600)
        )
        dbos()
        run = await durable.start(apps.ORDERS_PROMPT, run_id="run-1")
        approval_id = await _held(store)
        await agent.gate.decide(approval_id, Approve(by="ana"))
        assert await notify_approval("run-1", approval_id) == 1
        result = await run.result()
        got_receipts = apps.receipts(store)
        agent.close()
    assert len(apps.transfers(effects)) == 2  # one for each run

    assert isinstance(result, RunResult)
    assert result.status == expected.status == "finished"
    assert result.answer == expected.answer
    routes = [(r.call.name, r.route.value) for r in result.calls]
    assert routes == [(r.call.name, r.route.value) for r in expected.calls]
    assert routes == apps.ORDERS_ROUTES
    assert got_receipts == expected_receipts
    assert [m.role for m in result.transcript] == [m.role for m in expected.transcript]


async def test_a_decision_recorded_without_a_message_is_found_by_the_poll(
    tmp_path: Path, dbos: Callable[[], None]
) -> None:
    from callgate.durable import ApprovalWait, DBOSAgent

    with open_store(f"sqlite:///{tmp_path}/durable.db") as store:
        agent = apps.orders_agent(store)
        durable = DBOSAgent(
            agent, name="orders", approval_wait=ApprovalWait(first=0.2, longest=0.2)
        )
        dbos()
        run = await durable.start(apps.ORDERS_PROMPT, run_id="run-2")
        approval_id = await _held(store)
        store.approvals.decide(approval_id, Approve(by="cli"))  # what `callgate approvals` does
        result = await run.result()
        agent.close()
    assert result.status == "finished"
    assert [r.route.value for r in result.calls][-2:] == ["held", "completed"]


async def test_a_run_whose_wait_ran_out_pauses_and_resumes_as_a_new_workflow(
    tmp_path: Path, dbos: Callable[[], None]
) -> None:
    from dbos import DBOS

    from callgate.durable import ApprovalWait, DBOSAgent

    with open_store(f"sqlite:///{tmp_path}/durable.db") as store:
        agent = apps.orders_agent(store)
        wait = ApprovalWait(total=0.3, first=0.1, longest=0.1)
        durable = DBOSAgent(agent, name="orders", approval_wait=wait)
        dbos()
        paused = await durable.run(apps.ORDERS_PROMPT, run_id="run-3")
        assert paused.status == "paused" and len(paused.pending) == 1
        approval_id = paused.pending[0].approval_id

        resumed = await durable.resume("run-3", {approval_id: Approve(by="ana")})
        result = await resumed.result()
        agent.close()

        assert resumed.run_id.startswith("run-3:resume:")
        assert result.run_id == "run-3" and result.status == "finished"
        assert [r.route.value for r in result.calls][-2:] == ["held", "completed"]
        saved = store.runs.load("run-3")
        assert saved is not None and saved.status == "finished"
    ids = sorted(w.workflow_id for w in await DBOS.list_workflows_async())
    assert ids == ["run-3", resumed.run_id]


def test_a_decision_from_the_command_line_that_cannot_wake_its_workflow_says_so(
    tmp_path: Path,
) -> None:
    need("dbos", "dbos")
    url = f"sqlite:///{tmp_path}/callgate.db"
    with open_store(url) as store:
        gate = Gate(apps.tools(), store=store)
        calls = [
            ToolCall(id=f"c{n}", name="transfer", arguments={"recipient": "ana", "amount": n})
            for n in range(4)
        ]
        loose = gate.call_sync(calls[0])
        in_run = [gate.call_sync(c, context=Context(run_id="run-9")) for c in calls[1:]]
        gate.close()
    ids = [r.approval_id or "" for r in (loose, *in_run)]

    missing = tmp_path / "dbos.db"
    ran = cli("approvals", "approve", ids[0], "--store", url, "--wake-dbos", f"sqlite:///{missing}")
    assert_error(ran, ids[0], "belongs to no run")
    ran = cli("approvals", "approve", ids[1], "--store", url, "--wake-dbos", "not a url")
    assert_error(ran, ids[1], "not a database URL", "next poll")
    ran = cli("approvals", "deny", ids[2], "--store", url, "--wake-dbos", f"sqlite:///{missing}")
    assert_error(ran, ids[2], f"no DBOS system database at {missing}")
    assert not missing.exists()
    down = "postgresql://postgres@127.0.0.1:9/dbos"  # nothing listens on port 9
    # In a real process: DBOS's own log of the failure must not add lines either.
    ran = callgate("approvals", "deny", ids[3], "--store", url, "--wake-dbos", down)
    assert_error(ran, ids[3], "OperationalError", "not woken", "next poll")

    with open_store(url) as store:  # the decisions stand all the same
        states = [store.approvals.get(i) for i in ids]
        assert [a.state if a else None for a in states] == [
            "approved",
            "approved",
            "denied",
            "denied",
        ]
