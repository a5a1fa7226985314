"""Every limit ends the run cleanly: state saved, a clear error naming the limit, resumable;
or, when asked, one last tool-less turn for an answer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from callgate import ToolError, UserError, tool
from callgate.loop import Agent, LimitExceeded, Limits, Price
from callgate.models import ScriptedModel, Turn, Usage
from callgate.store import Store, open_store

RAN: list[str] = []


@tool(effect="read")
def search(q: str) -> str:
    """Search the notes."""
    RAN.append(q)
    return f"found {q}"


@tool(effect="read")
def flaky(q: str) -> str:
    """Fails unless asked for "ok"."""
    RAN.append(f"flaky {q}")
    if q != "ok":
        raise ToolError("backend unavailable")
    return "fine"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    RAN.clear()
    with open_store(f"sqlite:///{tmp_path / 'runs.db'}") as s:
        yield s


def _searches(n: int, **usage: int) -> list[Turn]:
    kwargs: dict[str, Any] = {"usage": Usage(**usage)} if usage else {}
    return [Turn.call(("search", {"q": f"q{i}"}), **kwargs) for i in range(n)]


class Clock:
    """A clock that moves only when the model is asked (no timing in tests)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def _stopped(agent: Agent, limit: str) -> LimitExceeded:
    with pytest.raises(LimitExceeded) as caught:
        await agent.run("search")
    error = caught.value
    assert error.limit == limit
    assert limit in str(error) and error.run_id in str(error)
    saved = agent.store.runs.load(error.run_id) if agent.store else None
    assert saved is not None and saved.status == "stopped"
    assert saved.state["limit"] == limit
    return error


async def test_step_limit_default_is_ten_and_resume_continues(store: Store) -> None:
    model = ScriptedModel(_searches(12))
    agent = Agent(model, [search], store=store)
    error = await _stopped(agent, "steps")
    assert error.state.spent.steps == 10 and len(RAN) == 10
    model.add_turns(Turn.say("all found"))
    result = await agent.resume(error.run_id, limits=Limits(steps=20))
    assert result.status == "finished" and result.answer == "all found"
    assert result.steps == 13 and len(RAN) == 12
    assert len(model.requests) == 13


async def test_tool_call_limit_stops_before_the_batch_and_resume_runs_it(store: Store) -> None:
    turns = [
        Turn.call(("search", {"q": "a"}), ("search", {"q": "b"})),
        Turn.call(("search", {"q": "c"}), ("search", {"q": "d"})),
    ]
    model = ScriptedModel(turns)
    agent = Agent(model, [search], store=store, limits=Limits(tool_calls=3))
    error = await _stopped(agent, "tool_calls")
    assert RAN == ["a", "b"]  # the second batch (2 more calls) would pass 3: not started
    assert error.state.pending is not None and len(error.state.pending.calls) == 2
    model.add_turns(Turn.say("done"))
    result = await agent.resume(error.run_id, limits=Limits(tool_calls=10))
    assert result.answer == "done" and RAN == ["a", "b", "c", "d"]
    assert result.state.spent.tool_calls == 4


async def test_wall_time_limit(store: Store) -> None:
    clock = Clock()

    def slow_turn(_request: object) -> Turn:
        clock.now += 40.0  # each model turn takes 40 s of running time
        return Turn.call(("search", {"q": "x"}))

    model = ScriptedModel([slow_turn] * 5)
    agent = Agent(model, [search], store=store, limits=Limits(wall_time=100), clock=clock)
    error = await _stopped(agent, "wall_time")
    assert error.state.spent.steps == 3 and error.state.spent.elapsed == 120.0
    model.add_turns(Turn.say("late"))
    result = await agent.resume(error.run_id, limits=Limits(wall_time=1000))
    assert result.answer == "late"


async def test_token_budget(store: Store) -> None:
    model = ScriptedModel(_searches(5, input_tokens=300, output_tokens=100))
    agent = Agent(model, [search], store=store, limits=Limits(tokens=1000))
    error = await _stopped(agent, "tokens")
    assert error.state.spent.usage.total_tokens == 1200  # 3 turns; checked before the 4th
    assert "1200 of 1000 tokens" in str(error)


async def test_cost_budget_with_a_price_table(store: Store) -> None:
    prices = {"scripted": Price(input=2.0, output=10.0)}  # per million tokens
    model = ScriptedModel(_searches(5, input_tokens=100_000, output_tokens=10_000))
    agent = Agent(model, [search], store=store, limits=Limits(cost=0.5, prices=prices))
    error = await _stopped(agent, "cost")
    assert error.state.spent.cost == pytest.approx(0.6)  # 0.3 a turn, checked before turn 3
    model.add_turns(Turn.say("cheap enough"))
    result = await agent.resume(error.run_id, limits=Limits(cost=5, prices=prices))
    # 3 more search turns, then the answer turn at the default usage of 10 in, 5 out.
    assert result.answer == "cheap enough"
    assert result.cost == pytest.approx(0.6 + 3 * 0.3 + (10 * 2 + 5 * 10) / 1e6)


def test_a_cost_limit_needs_a_price() -> None:
    with pytest.raises(UserError, match="price"):
        Agent(ScriptedModel([]), [search], limits=Limits(cost=1.0))


async def test_final_answer_at_a_limit_is_one_tool_less_turn(store: Store) -> None:
    model = ScriptedModel([*_searches(2), Turn.say("Best answer so far: q0, q1.")])
    agent = Agent(model, [search], store=store, limits=Limits(steps=2, final_answer=True))
    result = await agent.run("search")
    assert result.status == "limited" and result.limit == "steps"
    assert result.answer == "Best answer so far: q0, q1."
    last = model.requests[-1]
    assert last.allow_calls is False and last.tools  # declared, but calls not allowed
    saved = store.runs.load(result.run_id)
    assert saved is not None and saved.status == "limited"


async def test_final_answer_closes_a_batch_that_was_not_run(store: Store) -> None:
    turns = [Turn.call(("search", {"q": "a"}), ("search", {"q": "b"})), Turn.say("partial")]
    model = ScriptedModel(turns)
    agent = Agent(model, [search], store=store, limits=Limits(tool_calls=1, final_answer=True))
    result = await agent.run("search")
    assert result.answer == "partial" and RAN == []
    answered = model.requests[-1].messages[-1]
    assert answered.role == "tool" and len(answered.results) == 2
    assert all("tool_calls limit" in r.content for r in answered.results)


async def test_breaker_stops_the_same_failing_call_and_tells_the_model(store: Store) -> None:
    same = [Turn.call(("flaky", {"q": "x"})) for _ in range(3)]
    model = ScriptedModel([*same, Turn.say("flaky is broken")])
    agent = Agent(
        model,
        [search, flaky],
        store=store,
        limits=Limits(same_failing_call=3, same_tool_failures=10),
    )
    result = await agent.run("go")
    assert result.answer == "flaky is broken"
    assert RAN == ["flaky x"] * 3
    told = model.requests[-1].messages[-1].results[0].content
    assert "stopped for the rest of this run" in told and "same arguments" in told
    assert result.state.breaker.stopped.keys() == {"flaky"}


async def test_breaker_same_tool_failing_in_a_row_then_insisting_ends_the_run(store: Store) -> None:
    turns = [Turn.call(("flaky", {"q": f"q{i}"})) for i in range(3)]
    model = ScriptedModel(turns)
    agent = Agent(model, [search, flaky], store=store, limits=Limits(same_tool_failures=2))
    error = await _stopped(agent, "circuit_breaker")
    assert RAN == ["flaky q0", "flaky q1"]  # the third call was never executed
    assert "flaky" in error.detail
    # Resumable: the insisting call is answered with "stopped" and the model goes on.
    model.add_turns(Turn.say("I could not reach flaky."))
    result = await agent.resume(error.run_id)
    assert result.answer == "I could not reach flaky."
    assert RAN == ["flaky q0", "flaky q1"]
    assert result.calls[-1].route.value == "denied"
    assert "stopped" in result.calls[-1].result.content


async def test_success_resets_the_in_a_row_count(store: Store) -> None:
    turns = [
        Turn.call(("flaky", {"q": "a"})),
        Turn.call(("flaky", {"q": "ok"})),
        Turn.call(("flaky", {"q": "b"})),
        Turn.say("done"),
    ]
    agent = Agent(
        ScriptedModel(turns), [search, flaky], store=store, limits=Limits(same_tool_failures=2)
    )
    result = await agent.run("go")
    assert result.answer == "done"
    assert [r.route.value for r in result.calls] == ["failed", "completed", "failed"]
    assert not result.state.breaker.stopped


def test_limits_must_be_positive() -> None:
    with pytest.raises(UserError):
        Limits(steps=0)
    with pytest.raises(UserError):
        Limits(same_failing_call=0)
