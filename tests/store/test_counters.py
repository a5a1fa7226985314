"""Counters of rate limits and budgets: a window never holds more than its limit, several
counters are taken all or none, and processes racing on one counter together stay within it."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from multiprocessing.context import SpawnContext, SpawnProcess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callgate.store import Count, Store
from tests.conftest import WAIT
from tests.store import _counting
from tests.store._workers import StoreSpec
from tests.store.conftest import FakeClock


def count(key: str = "k", slot: int = 1, limit: int = 3, expires_at: float = 2e9) -> Count:
    return Count(key=key, slot=slot, limit=limit, expires_at=expires_at)


def test_a_window_holds_at_most_its_limit_and_the_next_starts_empty(store: Store) -> None:
    assert [store.counters.take([count()]) for _ in range(5)] == [None, None, None, 0, 0]
    assert store.counters.used("k", 1) == 3
    assert store.counters.take([count(slot=2)]) is None
    assert store.counters.used("k", 2) == 1
    assert store.counters.used("other", 1) == 0


def test_several_counters_are_taken_all_or_none(store: Store) -> None:
    minute, day = count("minute", limit=5), count("day", limit=2)
    assert store.counters.take([minute, day]) is None
    assert store.counters.take([minute, day]) is None
    assert store.counters.take([minute, day]) == 1  # the day's budget is spent
    assert store.counters.used("minute", 1) == 2  # and nothing was taken from the minute
    assert store.counters.take([]) is None
    assert store.counters.take([count("zero", limit=0)]) == 0


def test_expired_counters_are_purged(store: Store, clock: FakeClock) -> None:
    store.counters.take([count("old", expires_at=clock.now + 10)])
    store.counters.take([count("new", expires_at=clock.now + 100)])
    assert store.counters.purge() == 0
    clock.advance(50)
    assert store.counters.purge() == 1
    assert (store.counters.used("old", 1), store.counters.used("new", 1)) == (0, 1)


_KEY = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=200)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    key=_KEY,
    limit=st.integers(min_value=1, max_value=6),
    tries=st.integers(min_value=0, max_value=10),
    slot=st.integers(min_value=-(2**62), max_value=2**62),
)
def test_any_key_and_slot_counts_exactly(
    store: Store, key: str, limit: int, tries: int, slot: int
) -> None:
    before = store.counters.used(key, slot)  # the store outlives one example
    room = max(0, limit - before)
    taken = sum(store.counters.take([count(key, slot, limit)]) is None for _ in range(tries))
    assert taken == min(tries, room)
    assert store.counters.used(key, slot) == before + taken


@pytest.fixture
def spec(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> StoreSpec:
    if backend == "sqlite":
        return ("sqlite", str(tmp_path / "shared.db"), None)
    dsn, schema = request.getfixturevalue("pg_schema")
    return ("postgres", dsn, schema)


def test_processes_racing_on_one_counter_take_exactly_the_limit(
    spec: StoreSpec, spawn: Callable[..., SpawnProcess]
) -> None:
    ctx: SpawnContext = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(4, timeout=WAIT)
    results = ctx.Queue()
    children = [spawn(_counting.take_many, spec, barrier, results, 60, 150) for _ in range(4)]
    taken = [results.get(timeout=WAIT) for _ in children]
    assert sum(taken) == 150  # 240 attempts, 150 units: never one more
