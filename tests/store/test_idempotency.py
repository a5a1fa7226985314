"""Idempotency records: claim, replay, leases, unknown outcomes, key reuse."""

from __future__ import annotations

import pytest

from callgate.store import RecordNotFound, Store, StoreConflict
from tests.store.conftest import FakeClock


def test_first_begin_claims_and_second_sees_in_progress(store: Store) -> None:
    first = store.idempotency.begin("t:1:pay", request_hash="h1", owner="a", lease_seconds=30)
    second = store.idempotency.begin("t:1:pay", request_hash="h1", owner="b", lease_seconds=30)
    assert first.status == "claimed"
    assert first.record.state == "started" and first.record.owner == "a"
    assert second.status == "in_progress"
    assert second.record.owner == "a"


def test_finished_key_replays_its_outcome(store: Store) -> None:
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    done = store.idempotency.finish("k", owner="a", state="completed", outcome={"id": 7})
    again = store.idempotency.begin("k", request_hash="h", owner="b", lease_seconds=30)
    assert done.state == "completed"
    assert again.status == "replay"
    assert again.record.outcome == {"id": 7}
    assert again.record.state == "completed"


def test_failed_outcome_replays_too(store: Store) -> None:
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    store.idempotency.finish("k", owner="a", state="failed", outcome={"error": "card declined"})
    again = store.idempotency.begin("k", request_hash="h", owner="b", lease_seconds=30)
    assert (again.status, again.record.state) == ("replay", "failed")
    assert again.record.outcome == {"error": "card declined"}


def test_key_reused_for_another_request_is_a_mismatch(store: Store) -> None:
    store.idempotency.begin("k", request_hash="h1", owner="a", lease_seconds=30)
    store.idempotency.finish("k", owner="a", state="completed", outcome=1)
    other = store.idempotency.begin("k", request_hash="h2", owner="b", lease_seconds=30)
    assert other.status == "mismatch"
    assert other.record.request_hash == "h1"
    assert store.idempotency.get("k") == other.record


def test_expired_lease_turns_into_unknown_once(store: Store, clock: FakeClock) -> None:
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    clock.advance(31)
    seen = store.idempotency.begin("k", request_hash="h", owner="b", lease_seconds=30)
    again = store.idempotency.begin("k", request_hash="h", owner="c", lease_seconds=30)
    assert seen.status == "unknown" and seen.record.state == "unknown"
    assert again.status == "unknown"
    stored = store.idempotency.get("k")
    assert stored is not None and stored.state == "unknown" and stored.owner == "a"


def test_live_lease_is_not_unknown_at_its_last_moment(store: Store, clock: FakeClock) -> None:
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    clock.advance(29.5)
    assert (
        store.idempotency.begin("k", request_hash="h", owner="b", lease_seconds=30).status
        == "in_progress"
    )


def test_only_the_owner_can_finish(store: Store) -> None:
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    with pytest.raises(StoreConflict, match="owned by 'a'"):
        store.idempotency.finish("k", owner="b", state="completed", outcome=None)
    record = store.idempotency.get("k")
    assert record is not None and record.state == "started"


def test_finish_twice_is_refused(store: Store) -> None:
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    store.idempotency.finish("k", owner="a", state="completed", outcome=1)
    with pytest.raises(StoreConflict, match="'completed'"):
        store.idempotency.finish("k", owner="a", state="failed", outcome=2)
    record = store.idempotency.get("k")
    assert record is not None and (record.state, record.outcome) == ("completed", 1)


def test_finish_of_a_missing_key_is_not_found(store: Store) -> None:
    with pytest.raises(RecordNotFound):
        store.idempotency.finish("nope", owner="a", state="completed", outcome=None)


def test_finish_rejects_a_non_final_state(store: Store) -> None:
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    with pytest.raises(ValueError, match="completed"):
        store.idempotency.finish("k", owner="a", state="unknown", outcome=None)  # type: ignore[arg-type]


def test_late_finish_after_lease_loss_records_the_truth(store: Store, clock: FakeClock) -> None:
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    clock.advance(60)
    assert (
        store.idempotency.begin("k", request_hash="h", owner="b", lease_seconds=30).status
        == "unknown"
    )
    late = store.idempotency.finish("k", owner="a", state="completed", outcome="ok")
    assert late.state == "completed"
    assert (
        store.idempotency.begin("k", request_hash="h", owner="b", lease_seconds=30).status
        == "replay"
    )


def test_mark_unknown_by_owner(store: Store) -> None:
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    marked = store.idempotency.mark_unknown("k", owner="a")
    assert marked.state == "unknown"
    assert (
        store.idempotency.begin("k", request_hash="h", owner="b", lease_seconds=30).status
        == "unknown"
    )
    with pytest.raises(StoreConflict):
        store.idempotency.mark_unknown("k", owner="b")


def test_reclaim_after_unknown_has_one_winner(store: Store) -> None:
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    store.idempotency.mark_unknown("k", owner="a")
    won = store.idempotency.reclaim("k", owner="b", lease_seconds=30)
    assert (won.state, won.owner, won.attempts) == ("started", "b", 2)
    with pytest.raises(StoreConflict):
        store.idempotency.reclaim("k", owner="c", lease_seconds=30)
    with pytest.raises(StoreConflict):  # the old owner lost the key
        store.idempotency.finish("k", owner="a", state="completed", outcome=None)
    done = store.idempotency.finish("k", owner="b", state="completed", outcome="reconciled")
    assert done.outcome == "reconciled"


def test_renew_extends_a_live_lease(store: Store, clock: FakeClock) -> None:
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    clock.advance(20)
    renewed = store.idempotency.renew("k", owner="a", lease_seconds=30)
    assert renewed.lease_expires_at == clock.now + 30
    clock.advance(20)
    assert (
        store.idempotency.begin("k", request_hash="h", owner="b", lease_seconds=30).status
        == "in_progress"
    )
    with pytest.raises(StoreConflict):
        store.idempotency.renew("k", owner="b", lease_seconds=30)


def test_get_of_unknown_key_is_none(store: Store) -> None:
    assert store.idempotency.get("missing") is None


def test_outcome_round_trips_json(store: Store) -> None:
    outcome = {"text": "héllo", "n": [1, 2.5, None, True], "nested": {"b": 1, "a": 2}}
    store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
    store.idempotency.finish("k", owner="a", state="completed", outcome=outcome)
    record = store.idempotency.get("k")
    assert record is not None and record.outcome == outcome
