"""Saved runs (optimistic versions) and tool pins."""

from __future__ import annotations

import pytest

from callgate.store import Pin, Store, StoreConflict
from tests.store.conftest import FakeClock


def test_save_load_and_update(store: Store, clock: FakeClock) -> None:
    created = store.runs.save("run-1", {"messages": ["hi"]}, expected_version=None)
    assert (created.version, created.status, created.state_format) == (1, "running", 1)
    clock.advance(5)
    updated = store.runs.save(
        "run-1", {"messages": ["hi", "ok"]}, expected_version=1, status="paused", state_format=2
    )
    assert (updated.version, updated.status, updated.state_format) == (2, "paused", 2)
    assert (updated.created_at, updated.updated_at) == (created.created_at, clock.now)
    assert store.runs.load("run-1") == updated
    assert store.runs.load("nope") is None


def test_stale_save_is_refused(store: Store) -> None:
    store.runs.save("run-1", {"n": 1}, expected_version=None)
    store.runs.save("run-1", {"n": 2}, expected_version=1)
    with pytest.raises(StoreConflict, match="version 1"):
        store.runs.save("run-1", {"n": 3}, expected_version=1)
    with pytest.raises(StoreConflict, match="no saved run"):
        store.runs.save("run-1", {"n": 4}, expected_version=None)
    with pytest.raises(StoreConflict):
        store.runs.save("run-2", {"n": 1}, expected_version=1)
    loaded = store.runs.load("run-1")
    assert loaded is not None and loaded.state == {"n": 2}


def test_list_runs_by_status(store: Store, clock: FakeClock) -> None:
    for name in ("a", "b", "c"):
        clock.advance(1)
        store.runs.save(name, {}, expected_version=None, status="paused" if name != "b" else "done")
    assert [r.run_id for r in store.runs.list()] == ["c", "b", "a"]
    assert [r.run_id for r in store.runs.list(status="paused")] == ["c", "a"]
    assert [r.run_id for r in store.runs.list(limit=1, offset=1)] == ["b"]


def test_pins_upsert_get_list(store: Store, clock: FakeClock) -> None:
    first = store.pins.upsert(Pin(source="github", tool_name="create_issue", fingerprint="f1"))
    assert first.pinned_at == clock.now
    store.pins.upsert(
        Pin(
            source="local",
            tool_name="notes_search",
            fingerprint="n1",
            tool_version="2",
            pinned_by="ops",
        )
    )
    clock.advance(1)
    moved = store.pins.upsert(
        Pin(source="github", tool_name="create_issue", fingerprint="f2", pinned_by="ops")
    )
    assert store.pins.get("github", "create_issue") == moved
    assert moved.fingerprint == "f2" and moved.pinned_at == clock.now
    assert store.pins.get("github", "nope") is None
    assert [(p.source, p.tool_name) for p in store.pins.list()] == [
        ("github", "create_issue"),
        ("local", "notes_search"),
    ]
    local = store.pins.list("local")
    assert [p.tool_version for p in local] == ["2"]
