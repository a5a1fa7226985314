"""Pins with their review: a whole row written against the version read, so a stale writer
never overwrites a decision; hostile text round trips; a pin written by migration 1 survives
the rebuild of the table."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callgate.store import MIGRATIONS, Pin, PostgresStore, SQLiteStore, Store, StoreConflict
from callgate.store._db import Database
from callgate.store._migrations import migrate
from callgate.store._postgres import PostgresDatabase
from callgate.store._sql_store import SQLStore
from callgate.store._sqlite import SQLiteDatabase
from tests.store.conftest import FakeClock, StoreFactory

HELD = Pin(
    source="mcp:tracker",
    tool_name="list_issues",
    fingerprint=None,
    state="new",
    observed_fingerprint="f1",
    observed={"fingerprint": "f1", "contract": {"description": "List. <IMPORTANT>"}},
    reasons=("scan S101 (high): hidden instructions",),
    findings=({"rule": "S101", "severity": "high"},),
)


def test_a_review_is_created_once_and_replaced_by_version(store: Store, clock: FakeClock) -> None:
    created = store.pins.save(HELD, expected_version=None)
    assert (created.version, created.updated_at, created.held) == (1, clock.now, True)
    assert store.pins.get("mcp:tracker", "list_issues") == created
    with pytest.raises(StoreConflict):
        store.pins.save(HELD, expected_version=None)
    clock.advance(1)
    approved = dataclasses.replace(
        created, state="pinned", fingerprint="f1", pinned=created.observed, decided_by="ops",
        observed=None, observed_fingerprint=None, reasons=(), findings=(),
    )  # fmt: skip
    saved = store.pins.save(approved, expected_version=1)
    assert (saved.version, saved.held, saved.decided_by) == (2, False, "ops")
    stale = dataclasses.replace(HELD, state="changed")
    with pytest.raises(StoreConflict, match="read it again"):
        store.pins.save(stale, expected_version=1)  # the approval stands
    assert store.pins.get("mcp:tracker", "list_issues") == saved
    assert store.pins.list("mcp:tracker") == [saved] and store.pins.list("mcp:other") == []


def test_upsert_pins_whatever_was_there(store: Store, clock: FakeClock) -> None:
    store.pins.save(HELD, expected_version=None)
    pinned = store.pins.upsert(Pin(source="mcp:tracker", tool_name="list_issues", fingerprint="f2"))
    assert (pinned.state, pinned.fingerprint, pinned.version, pinned.pinned_at) == (
        "pinned",
        "f2",
        2,
        clock.now,
    )


def test_two_stores_on_one_database_cannot_both_create_a_review(
    make_store: StoreFactory,
) -> None:
    first, second = make_store(), make_store()
    first.pins.save(HELD, expected_version=None)
    with pytest.raises(StoreConflict):
        second.pins.save(dataclasses.replace(HELD, state="changed"), expected_version=None)
    found = second.pins.get("mcp:tracker", "list_issues")
    assert found is not None and found.state == "new"


_TEXT = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=80)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=10,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    tool=_TEXT.filter(bool),
    reasons=st.lists(_TEXT, max_size=3),
    observed=_JSON,
    findings=st.lists(_JSON, max_size=2),
)
def test_any_review_round_trips(
    store: Store, tool: str, reasons: list[str], observed: object, findings: list[object]
) -> None:
    pin = dataclasses.replace(
        HELD, tool_name=tool, reasons=tuple(reasons), observed=observed, findings=tuple(findings)
    )
    current = store.pins.get(pin.source, tool)  # the store outlives one example
    saved = store.pins.save(pin, expected_version=current.version if current else None)
    assert store.pins.get(pin.source, tool) == saved
    assert (saved.reasons, saved.observed, saved.findings) == (
        tuple(reasons),
        observed,
        tuple(findings),
    )


def test_pins_and_reviews_of_migration_3_survive_the_upgrade(
    backend: str, tmp_path: Path, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    """A pin written before migration 4 keeps its fingerprint; the reviews the gateway kept
    in the runs table then are dropped (the tools are assessed again from their pins)."""
    if backend == "sqlite":
        old_db: Database = SQLiteDatabase(str(tmp_path / "old.db"), busy_timeout=5, durable=False)
        reopen: Callable[[], SQLStore] = lambda: SQLiteStore(tmp_path / "old.db", clock=clock)  # noqa: E731
    else:
        dsn, schema = request.getfixturevalue("pg_schema")
        old_db = PostgresDatabase(dsn, schema=schema, max_size=2, timeout=5)
        reopen = lambda: PostgresStore(dsn, schema=schema, clock=clock)  # noqa: E731
    try:
        assert migrate(old_db, clock=clock, migrations=MIGRATIONS[:3]) == [1, 2, 3]
        with old_db.transaction(write=True) as tx:
            tx.run(
                "INSERT INTO callgate_pins (source, tool_name, fingerprint, tool_version,"
                " pinned_by, pinned_at) VALUES ('mcp:gl', 'create_issue', 'abc', NULL, 'ops', 5)"
            )
            for run_id, status in (("callgate-pin/gl/create_issue", "pin-review"), ("r", "done")):
                tx.run(
                    "INSERT INTO callgate_runs (run_id, version, status, state_format, state,"
                    " created_at, updated_at) VALUES (?, 1, ?, 1, '{}', 1, 1)",
                    (run_id, status),
                )
    finally:
        old_db.close()
    with reopen() as store:
        pin = store.pins.get("mcp:gl", "create_issue")
        assert pin is not None
        assert (pin.fingerprint, pin.state, pin.pinned_by, pin.pinned_at) == (
            "abc",
            "pinned",
            "ops",
            5,
        )
        assert [r.run_id for r in store.runs.list()] == ["r"]
