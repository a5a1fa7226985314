"""`callgate._fast`: faster construction of the frozen values made on every call's path."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from callgate._fast import fast_builder
from callgate.contract import Route, Timings, ToolResult

build_result = fast_builder(ToolResult)
build_timings = fast_builder(Timings)
build_by_position = fast_builder(ToolResult, "call_id", "name", "route", "content")

texts = st.text(max_size=20)
results = st.fixed_dictionaries(
    {"call_id": texts, "name": texts, "route": st.sampled_from(list(Route)), "content": texts},
    optional={
        "structured": st.none() | st.dictionaries(texts, st.integers(), max_size=3),
        "is_error": st.booleans(),
        "reason": st.none() | texts,
        "findings": st.lists(texts, max_size=3).map(tuple),
        "idempotency_key": st.none() | texts,
    },
)


@given(results)
def test_a_built_result_is_the_result_the_class_makes(kwargs: dict[str, Any]) -> None:
    built, made = build_result(**kwargs), ToolResult(**kwargs)
    assert type(built) is ToolResult
    assert built == made
    assert repr(built) == repr(made)
    assert pickle.loads(pickle.dumps(built)) == made
    assert dataclasses.replace(built, content="other") == dataclasses.replace(made, content="other")


@given(results)
def test_fields_given_by_position_build_the_same_result(kwargs: dict[str, Any]) -> None:
    rest = dict(kwargs)
    first = [rest.pop(name) for name in ("call_id", "name", "route", "content")]
    built = build_by_position(*first, **rest)
    assert type(built) is ToolResult and built == ToolResult(**kwargs)


def test_a_fixed_field_is_the_same_in_every_value_built() -> None:
    completed = fast_builder(ToolResult, "call_id", "content", route=Route.COMPLETED)
    built = completed("c1", "done", name="t")
    assert built == ToolResult(call_id="c1", name="t", route=Route.COMPLETED, content="done")
    with pytest.raises(TypeError):
        completed("c1", "done", name="t", route=Route.FAILED)  # not a parameter
    with pytest.raises(TypeError):
        fast_builder(ToolResult, "route", route=Route.COMPLETED)  # positional and fixed


def test_only_the_named_fields_are_positional() -> None:
    with pytest.raises(TypeError):
        build_by_position("c1", "t", Route.COMPLETED, "x", None)  # structured: keyword-only
    for bad in (("call_id", "nope"), ("call_id", "call_id")):
        with pytest.raises(TypeError):
            fast_builder(ToolResult, *bad)


def test_a_built_value_is_frozen_and_hashable() -> None:
    timings = build_timings(started_at=1.0, total_ms=2.0, execute_ms=2.0)
    assert hash(timings) == hash(Timings(started_at=1.0, total_ms=2.0, execute_ms=2.0))
    with pytest.raises(dataclasses.FrozenInstanceError):
        timings.total_ms = 0.0  # type: ignore[misc]


def test_a_builder_takes_the_same_arguments_as_the_class() -> None:
    with pytest.raises(TypeError):
        build_timings(total_ms=2.0)  # started_at is required
    with pytest.raises(TypeError):
        build_timings(1.0, 2.0)  # keyword-only, as the class


def test_classes_a_builder_cannot_reproduce_are_refused() -> None:
    @dataclass(frozen=True, kw_only=True, slots=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("negative")

    @dataclass(frozen=True, kw_only=True, slots=True)
    class Factory:
        items: list[int] = field(default_factory=list)

    @dataclass(frozen=True, kw_only=True)
    class Unslotted:
        n: int

    for cls in (Checked, Factory, Unslotted):
        with pytest.raises(TypeError):
            fast_builder(cls)


def test_a_positional_field_without_a_default_after_one_with_is_refused() -> None:
    @dataclass(frozen=True, kw_only=True, slots=True)
    class Pair:
        a: int = 0
        b: int

    with pytest.raises(TypeError, match="without a default follows one with"):
        fast_builder(Pair, "a", "b")
    assert fast_builder(Pair, "b", "a")(2) == Pair(b=2)
