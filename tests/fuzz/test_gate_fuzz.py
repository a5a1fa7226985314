"""Fuzz the gate and the loop with hostile variants of valid calls.

Properties, for every example: nothing but the library's documented errors escapes; every
call gets exactly one result, in order, with a route from the closed set and text that
encodes as UTF-8; a tool runs only for a call routed as executed, and what it receives is
valid against its schema; no example runs past the deadline of `_harness.within`.

Budget: `HYPOTHESIS_PROFILE=long` runs the long profile (see `tests/fuzz/_harness.py`).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from callgate import (
    Agent,
    Gate,
    Policy,
    Route,
    RunResult,
    ToolCall,
    ToolResult,
)
from callgate.gate import Rule
from callgate.testing import ScriptedCall, ScriptedModel, Turn
from tests.fuzz._harness import FUZZ, QUIET_REPR, scaled, within_async
from tests.fuzz._mutate import HOSTILE_VALUES, HUGE_INT, DeepDict, DeepList, json_text, mutated
from tests.fuzz._tools import CATALOG, PLAIN, VALID, check_results, ran

pytestmark = QUIET_REPR

_ids = itertools.count()

NAMES = st.sampled_from(
    sorted(VALID) * 4 + ["Note", "notes.note", "forecast ", "", "x" * 100_000, "note\ud800"]
)


def _arguments(name: str, hostile: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    valid = VALID.get(name, VALID["note"])
    return st.one_of(
        st.just(dict(valid)),
        mutated(valid, hostile),
        json_text(valid),
        st.sampled_from([None, "", "   ", 42, [1], True, b'{"text": "bytes"}', b"\xff\xfe"]),
    )


@st.composite
def calls(draw: st.DrawFn, hostile: st.SearchStrategy[Any] = HOSTILE_VALUES) -> ToolCall:
    name = draw(NAMES)
    return ToolCall(id=f"c{next(_ids)}", name=name, arguments=draw(_arguments(name, hostile)))


batches = st.lists(calls(), min_size=1, max_size=4)


@FUZZ
@given(batches)
def test_run_batch_without_a_store(batch: list[ToolCall]) -> None:
    results = within_async(lambda: PLAIN.run_batch(batch))
    assert results is not None, "run_batch raised"
    check_results(batch, results)


@FUZZ
@given(calls())
def test_call_without_a_store(call: ToolCall) -> None:
    result = within_async(lambda: PLAIN.call(call))
    assert result is not None, "call raised"
    check_results([call], [result])


def _no_known_store_defect(value: Any) -> bool:
    # Excluded until fixed in the gate, whose _record_invalid falls back to repr():
    # tests/core/test_hostile_input.py::test_hostile_arguments_with_a_store_are_recorded_
    # as_invalid[huge-int-object] and test_found_defects.py::test_deep_arguments_with_a_store.
    if isinstance(value, DeepDict | DeepList):
        return value.levels < 900
    return not (isinstance(value, int) and abs(value) >= HUGE_INT)


@st.composite
def store_calls(draw: st.DrawFn) -> ToolCall:
    call = draw(calls(HOSTILE_VALUES.filter(_no_known_store_defect)))
    # Also excluded until fixed in the gate/store: non-object arguments
    # (test_non_object_arguments_with_a_store_are_invalid) and names with a lone surrogate
    # (test_an_unknown_name_with_a_lone_surrogate_is_recorded).
    arguments: Any = call.arguments  # typed str | Mapping | None; the fuzz sends anything
    if not isinstance(arguments, str | Mapping | None):
        arguments = {}
    return ToolCall(id=call.id, name=call.name.replace("\ud800", "_"), arguments=arguments)


@scaled(25)
@given(st.lists(store_calls(), min_size=1, max_size=4))
def test_run_batch_with_a_store_and_a_permissive_policy(batch: list[ToolCall]) -> None:
    async def run() -> list[ToolResult]:
        gate = Gate(CATALOG, store="sqlite://:memory:", policy=Policy(rules=[Rule.allow(id="all")]))
        return await gate.run_batch(batch)

    results = within_async(run)
    assert results is not None, "run_batch raised"
    check_results(batch, results)


def _no_known_loop_defect(text: str) -> bool:
    # Excluded until fixed in the loop: test_found_defects.py::
    # test_the_circuit_breaker_survives_deeply_nested_argument_text.
    return text.count("[") + text.count("{") < 900


@st.composite
def scripted_turns(draw: st.DrawFn) -> list[ScriptedCall]:
    out = []
    for _ in range(draw(st.integers(1, 3))):
        # Names with a lone surrogate are excluded until fixed in the loop:
        # test_found_defects.py::test_the_breaker_notice_is_encodable_text.
        name = draw(NAMES).replace("\ud800", "_")
        valid = VALID.get(name, VALID["note"])
        arguments = draw(json_text(valid).filter(_no_known_loop_defect))
        out.append(ScriptedCall(name=name, arguments=arguments, id=f"c{next(_ids)}"))
    return out


@scaled(30)
@given(st.lists(scripted_turns(), min_size=1, max_size=2))
def test_agent_run_with_the_scripted_model(turns: list[list[ScriptedCall]]) -> None:
    model = ScriptedModel([*(Turn.call(*t) for t in turns), Turn.say("done")])

    async def run() -> RunResult:
        return await Agent(model, CATALOG).run("Plan my day")

    result = within_async(run)
    if result is None:
        return  # a documented error (a limit, a model failure)
    sent = [record.call for record in result.calls]
    check_results(sent, [record.result for record in result.calls])
    assert result.answer == "done"


def test_the_happy_path_runs_every_tool() -> None:
    ran.clear()
    batch = [ToolCall(id=f"h{n}", name=n, arguments=json.dumps(a)) for n, a in VALID.items()]
    results = within_async(lambda: PLAIN.run_batch(batch))
    assert results is not None and [r.route for r in results] == [Route.COMPLETED] * 3
    assert set(ran) == {"h" + n for n in VALID}
    check_results(batch, results)
