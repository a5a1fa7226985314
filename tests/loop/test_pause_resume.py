"""Pause on held calls, resume with decisions, in this process or in another one."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from callgate import UserError
from callgate.contract import ToolCall, ToolResult
from callgate.loop import Agent, ApprovalDecision, Approve, Decline, Edit, RunState
from callgate.models import ScriptedModel, Turn
from callgate.store import Store, open_store
from tests.loop import agents

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "writes.log"
    path.touch()
    monkeypatch.setattr(agents, "LOG", path)
    return path


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(f"sqlite:///{tmp_path / 'callgate.db'}") as s:
        yield s


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


async def _paused(store: Store) -> tuple[Agent, str, str]:
    model = ScriptedModel(agents.first_turns())
    agent = Agent(model, gate=agents.gate(store), store=store)
    result = await agent.run("Pay acme 5 and note it.")
    assert result.status == "paused"
    assert [(c.call.name, c.route.value) for c in result.calls] == [
        ("lookup", "completed"),
        ("log_note", "completed"),
        ("pay", "held"),
    ]
    assert [p.call.name for p in result.pending] == ["pay"]
    saved = store.runs.load(result.run_id)
    assert saved is not None and saved.status == "paused"
    return agent, result.run_id, result.pending[0].approval_id


@pytest.mark.parametrize(
    ("decision", "route", "paid"),
    [
        (Approve(by="ana"), "completed", ["pay 5"]),
        (Decline(by="ana", note="not this month"), "declined", []),
        (Edit(arguments={"amount": 7}, by="ana"), "completed", ["pay 7"]),
    ],
)
async def test_resume_with_a_decision_runs_nothing_twice(
    store: Store, log: Path, decision: ApprovalDecision, route: str, paid: list[str]
) -> None:
    agent, run_id, approval = await _paused(store)
    assert _lines(log) == ["log_note paying acme"]
    model = ScriptedModel([Turn.say("Done.")])
    agent.model = model
    result = await agent.resume(run_id, {approval: decision})
    assert result.status == "finished" and result.answer == "Done."
    assert result.calls[-1].call.name == "pay" and result.calls[-1].route.value == route
    assert _lines(log) == ["log_note paying acme", *paid]
    # The model saw every call of the batch answered once, under its own id.
    sent = model.requests[0].messages[-1]
    assert sent.role == "tool"
    assert [r.name for r in sent.results] == ["lookup", "log_note", "pay"]
    assert [r.route.value for r in sent.results] == ["completed", "completed", route]
    agent.gate.close()


async def test_an_invalid_edit_is_refused_and_the_run_stays_paused(store: Store, log: Path) -> None:
    agent, run_id, approval = await _paused(store)
    with pytest.raises(UserError, match="edited arguments are invalid"):
        await agent.resume(run_id, {approval: Edit(arguments={"amount": "seven"})})
    saved = store.runs.load(run_id)
    assert saved is not None and saved.status == "paused"
    agent.model = ScriptedModel([Turn.say("Done.")])
    result = await agent.resume(run_id, {approval: Edit(arguments={"amount": 6})})
    assert result.answer == "Done."
    assert _lines(log) == ["log_note paying acme", "pay 6"]
    agent.gate.close()


async def test_resume_without_a_decision_stays_paused(store: Store, log: Path) -> None:
    agent, run_id, approval = await _paused(store)
    again = await agent.resume(run_id)
    assert again.status == "paused" and again.pending[0].approval_id == approval
    assert _lines(log) == ["log_note paying acme"]
    agent.gate.close()


async def test_resume_from_a_state_object_round_tripped_through_json(
    store: Store, log: Path
) -> None:
    agent, run_id, approval = await _paused(store)
    record = store.runs.load(run_id)
    assert record is not None
    state = RunState.from_json(RunState.from_dict(record.state).to_json())
    agent.model = ScriptedModel([Turn.say("ok")])
    result = await agent.resume(state, {approval: Approve()})
    assert result.answer == "ok"
    assert _lines(log) == ["log_note paying acme", "pay 5"]
    agent.gate.close()


async def test_an_approver_decides_in_process_without_pausing(store: Store, log: Path) -> None:
    asked: list[str] = []

    async def approver(call: ToolCall, held: ToolResult) -> ApprovalDecision:
        asked.append(f"{call.name} {held.approval_id is not None}")
        return Approve(by="terminal")

    model = ScriptedModel([*agents.first_turns(), Turn.say("Paid.")])
    agent = Agent(model, gate=agents.gate(store), store=store, approver=approver)
    result = await agent.run("Pay acme 5 and note it.")
    assert result.status == "finished" and asked == ["pay True"]
    assert _lines(log) == ["log_note paying acme", "pay 5"]
    agent.gate.close()


def _python(*args: str, log: Path) -> str:
    env = {**os.environ, "CALLGATE_TEST_LOG": str(log), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-W", "error", "-m", "tests.loop.agents", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=50,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_pause_in_one_process_resume_in_another(tmp_path: Path) -> None:
    """The completed write of the paused batch ran exactly once over both processes."""
    db, log = tmp_path / "runs.db", tmp_path / "writes.log"
    log.touch()
    status, run_id, approval = _python("start", str(db), log=log).split()
    assert status == "paused"
    assert _lines(log) == ["log_note paying acme"]
    assert _python("resume", str(db), run_id, approval, log=log) == "finished Paid and noted."
    assert _lines(log) == ["log_note paying acme", "pay 5"]
    with open_store(f"sqlite:///{db}") as s:
        saved = s.runs.load(run_id)
        assert saved is not None and saved.status == "finished"
        assert saved.version >= 2


async def test_a_decision_made_elsewhere_is_picked_up_on_resume(store: Store, log: Path) -> None:
    agent, run_id, approval = await _paused(store)
    # As `callgate approvals approve` would, from another process: straight to the gate.
    await agent.gate.decide(approval, Approve(by="ops"))
    agent.model = ScriptedModel([Turn.say("Done.")])
    result = await agent.resume(run_id)
    assert result.answer == "Done." and result.calls[-1].route.value == "completed"
    assert _lines(log) == ["log_note paying acme", "pay 5"]
    agent.gate.close()
