"""The loop's durable points, engine-free: the plain loop is `InProcess`; a run recorded
step by step replays from its answers alone; and what crosses a process boundary (decisions,
outcomes, step arguments) is checked like any other input."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from callgate import Approve, Decline, Edit, MissingExtraError, UserError, tool
from callgate.durable import (
    STEP_KINDS,
    ApprovalWait,
    DBOSAgent,
    InProcess,
    TemporalAgent,
    decode_outcome,
    encode_outcome,
)
from callgate.gate import Gate
from callgate.loop import Agent, LimitExceeded, Limits, ModelFailed, RunResult
from callgate.loop._codec import decode_decision, encode_decision
from callgate.loop._durable import JSON, Perform, StepKind
from callgate.loop._perform import Effects, perform, save_arg
from callgate.models import ScriptedModel, Turn
from callgate.store import AsyncStore, StoreConflict, open_store

RUNS: list[str] = []


@tool(effect="write")
def book(room: str) -> str:
    """Book a room."""
    RUNS.append(room)
    return f"booked {room}"


class Recording:
    """Records every step's answer by the order steps start in (as an engine numbers them:
    the calls of a batch run concurrently and finish in any order); with `answers`, replays
    them instead of performing."""

    def __init__(self, answers: dict[int, JSON] | None = None) -> None:
        self.steps: list[tuple[StepKind, str]] = []
        self.answers: dict[int, JSON] = {}
        self._replay = answers

    def run_id(self) -> str | None:
        return "run-r"

    async def step(self, kind: StepKind, key: str, arg: JSON, perform: Perform) -> JSON:
        index = len(self.steps)
        self.steps.append((kind, key))
        json.dumps(arg)  # what an engine must carry: JSON, nothing else
        if self._replay is not None:
            return self._replay[index]
        answer = await perform(arg)
        self.answers[index] = json.loads(json.dumps(answer))
        return answer

    async def wait(self, topic: str, seconds: float) -> bool:
        return False

    @property
    def approval_wait(self) -> ApprovalWait | None:
        return None

    @property
    def clock(self) -> Any:
        return None


def _agent(turns: list[Turn]) -> Agent:
    return Agent(ScriptedModel(turns), gate=Gate([book]), limits=Limits(steps=4))


async def test_a_run_replays_from_its_recorded_answers_without_running_anything() -> None:
    RUNS.clear()
    turns = [Turn.call(("book", {"room": "K2"}), ("book", {"room": 7})), Turn.say("Booked.")]
    recording = Recording()
    async with _agent(turns) as agent:
        first = await agent.run("Book K2.", durable=recording)
    assert RUNS == ["K2"]
    assert recording.steps == [
        ("model_turn", "run-r/turn/1"),
        ("tool_call", "run-r/call_1"),
        ("tool_call", "run-r/call_2"),
        ("model_turn", "run-r/turn/2"),
    ]

    replay = Recording(dict(recording.answers))
    async with _agent([]) as agent:  # a model with nothing to say: every turn is replayed
        again = await agent.run("Book K2.", durable=replay)
    assert RUNS == ["K2"]  # nothing ran again
    assert replay.steps == recording.steps
    assert again.answer == first.answer == "Booked."
    assert again.state.to_dict() | {"spent": None} == first.state.to_dict() | {"spent": None}


async def test_the_plain_loop_is_in_process() -> None:
    points = InProcess()
    assert points.run_id() is None and points.approval_wait is None and points.clock is None
    assert await points.wait("a1", 10.0) is False

    async def double(arg: JSON) -> JSON:
        return {"n": arg["n"] * 2}

    assert await points.step("save", "k", {"n": 2}, double) == {"n": 4}
    assert STEP_KINDS == ("model_turn", "tool_call", "approvals", "save", "decide")


def test_an_approval_wait_must_make_sense() -> None:
    with pytest.raises(ValueError, match="first <= longest"):
        ApprovalWait(first=10, longest=1)
    with pytest.raises(ValueError):
        ApprovalWait(first=0)
    with pytest.raises(ValueError):
        ApprovalWait(total=-1)


@pytest.mark.parametrize(
    "decision",
    [
        Approve(by="ana", note="ok", grant=True),
        Decline(by="bo", note=None),
        Edit(arguments={"a": [1]}),
    ],
)
def test_decisions_cross_as_json_and_come_back_the_same(decision: Any) -> None:
    assert decode_decision(json.loads(json.dumps(encode_decision(decision)))) == decision


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(
    st.one_of(
        JSON_VALUES,
        st.fixed_dictionaries(
            {"kind": st.sampled_from(["approve", "decline", "edit", "grant", ""])},
            optional={
                "by": JSON_VALUES,
                "note": JSON_VALUES,
                "grant": JSON_VALUES,
                "arguments": JSON_VALUES,
                "\ud800": JSON_VALUES,
            },
        ),
    )
)
def test_any_decision_from_outside_is_a_decision_or_a_clear_error(data: Any) -> None:
    try:
        decision = decode_decision(data)
    except UserError as exc:
        assert "decision" in str(exc) or "edit" in str(exc)
        return
    assert isinstance(decision, Approve | Decline | Edit)
    assert decode_decision(encode_decision(decision)) == decision


async def test_outcomes_cross_as_json_and_come_back_the_same() -> None:
    async with _agent([Turn.say("Hi.")]) as agent:
        done = await agent.run("Hello", run_id="o-1")
    back = decode_outcome(json.loads(json.dumps(encode_outcome(done))))
    assert isinstance(back, RunResult)
    assert (back.status, back.answer, back.state) == (done.status, done.answer, done.state)

    async with _agent([Turn.call(("book", {"room": "K2"}))] * 6) as agent:
        with pytest.raises(LimitExceeded) as stopped:
            await agent.run("Book", run_id="o-2")  # past the limit of 4 steps
    # A limit crosses too: the caller gets the same error with the same state.
    with pytest.raises(LimitExceeded) as again:
        decode_outcome(encode_outcome(stopped.value))
    assert again.value.limit == stopped.value.limit and again.value.state == stopped.value.state

    async with _agent([Turn.fail(400)]) as agent:
        with pytest.raises(ModelFailed) as failed:
            await agent.run("Hello", run_id="o-3")
    with pytest.raises(ModelFailed) as failed_again:
        decode_outcome(json.loads(json.dumps(encode_outcome(failed.value))))
    assert str(failed_again.value) == str(failed.value)

    junk: Any
    for junk in (None, [], {"result": {}}, "state"):
        with pytest.raises(UserError):
            decode_outcome(junk)


async def test_steps_refuse_arguments_no_loop_would_build() -> None:
    gate = Gate([book])
    effects = Effects(model=ScriptedModel([]), gate=gate)
    with pytest.raises(UserError, match="JSON object"):
        await perform(effects, "tool_call", ["not", "an", "object"])
    with pytest.raises(UserError, match="unknown step kind"):
        await perform(effects, "launch", {})  # type: ignore[arg-type]
    turn = {"messages": [], "tools": ["rm_rf"], "instructions": None, "allow_calls": True}
    with pytest.raises(UserError, match="rm_rf"):
        await perform(effects, "model_turn", turn)
    with pytest.raises(UserError, match="store"):
        await perform(effects, "save", save_arg("r", {}, expected_version=None, status="running"))
    gate.close()


async def test_a_save_that_ran_twice_is_one_save() -> None:
    with open_store("sqlite://:memory:") as store:
        io = AsyncStore(store)
        effects = Effects(model=ScriptedModel([]), gate=Gate([book]), store=io)
        state = {"format": 2, "messages": [1], "spent": {"elapsed": 1.0}}
        arg = save_arg("r", state, expected_version=None, status="running")
        assert await perform(effects, "save", arg) == {"version": 1}
        # The same step again (its process died before the engine recorded the answer),
        # with the running time measured differently: the same save.
        retried = save_arg(
            "r", {**state, "spent": {"elapsed": 2.5}}, expected_version=None, status="running"
        )
        assert await perform(effects, "save", retried) == {"version": 1}
        other = save_arg(
            "r", {**state, "messages": [1, 2]}, expected_version=None, status="running"
        )
        with pytest.raises(StoreConflict):
            await perform(effects, "save", other)
        effects.gate.close()
        io.close()


@pytest.mark.parametrize(
    ("module", "extra", "engine"),
    [("dbos", "dbos", DBOSAgent), ("temporalio", "temporal", TemporalAgent)],
)
def test_a_missing_engine_names_its_install_command(
    monkeypatch: pytest.MonkeyPatch, module: str, extra: str, engine: Any
) -> None:
    for name in [m for m in sys.modules if m == module or m.startswith(f"{module}.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, module, None)
    agent = _agent([])
    with pytest.raises(MissingExtraError, match=rf"pip install 'callgate\[{extra}\]'"):
        engine(agent, name="a")
    agent.close()
