"""Idempotency records: claim, replay, leases, unknown outcomes, key reuse."""

from __future__ import annotations

import pytest

from callgate.store import ClaimRequest, RecordNotFound, Store, StoreConflict
from tests.store._calls import claim, finish
from tests.store.conftest import FakeClock


def test_first_claim_wins_and_second_sees_in_progress(store: Store) -> None:
    first = claim(store, "t:1:pay", request_hash="h1", owner="a")
    second = claim(store, "t:1:pay", request_hash="h1", owner="b")
    assert first.status == "claimed"
    assert first.record.state == "started" and first.record.owner == "a"
    assert second.status == "in_progress"
    assert second.record.owner == "a"


def test_finished_key_replays_its_outcome(store: Store) -> None:
    claim(store, "k", owner="a")
    done = finish(store, "k", owner="a", state="completed", outcome={"id": 7})
    again = claim(store, "k", owner="b")
    assert done.state == "completed"
    assert again.status == "replay"
    assert again.record.outcome == {"id": 7}
    assert again.record.state == "completed"


def test_failed_outcome_replays_too(store: Store) -> None:
    claim(store, "k", owner="a")
    finish(store, "k", owner="a", state="failed", outcome={"error": "card declined"})
    again = claim(store, "k", owner="b")
    assert (again.status, again.record.state) == ("replay", "failed")
    assert again.record.outcome == {"error": "card declined"}


def test_key_reused_for_another_request_is_a_mismatch(store: Store) -> None:
    claim(store, "k", request_hash="h1", owner="a")
    finish(store, "k", owner="a", outcome=1)
    other = claim(store, "k", request_hash="h2", owner="b")
    assert other.status == "mismatch"
    assert other.record.request_hash == "h1"
    assert store.idempotency.get("k") == other.record


def test_expired_lease_turns_into_unknown_once(store: Store, clock: FakeClock) -> None:
    claim(store, "k", owner="a")
    clock.advance(31)
    seen = claim(store, "k", owner="b")
    again = claim(store, "k", owner="c")
    assert seen.status == "unknown" and seen.record.state == "unknown"
    assert again.status == "unknown"
    stored = store.idempotency.get("k")
    assert stored is not None and stored.state == "unknown" and stored.owner == "a"


def test_live_lease_is_not_unknown_at_its_last_moment(store: Store, clock: FakeClock) -> None:
    claim(store, "k", owner="a")
    clock.advance(29.5)
    assert claim(store, "k", owner="b").status == "in_progress"


def test_only_the_owner_can_finish(store: Store) -> None:
    claim(store, "k", owner="a")
    with pytest.raises(StoreConflict, match="owned by 'a'"):
        finish(store, "k", owner="b", outcome=None)
    record = store.idempotency.get("k")
    assert record is not None and record.state == "started"
    assert store.receipts.head().seq == 0  # the refused finish wrote no receipt either


def test_finish_twice_is_refused(store: Store) -> None:
    claim(store, "k", owner="a")
    finish(store, "k", owner="a", outcome=1)
    with pytest.raises(StoreConflict, match="'completed'"):
        finish(store, "k", owner="a", state="failed", outcome=2)
    record = store.idempotency.get("k")
    assert record is not None and (record.state, record.outcome) == ("completed", 1)


def test_finish_of_a_missing_key_is_not_found(store: Store) -> None:
    with pytest.raises(RecordNotFound):
        finish(store, "nope", owner="a", outcome=None)
    assert store.receipts.head().seq == 0


def test_finish_rejects_a_state_that_does_not_end_an_attempt(store: Store) -> None:
    claim(store, "k", owner="a")
    with pytest.raises(ValueError, match="finish with state 'started'"):
        finish(store, "k", owner="a", state="started", outcome=None)  # type: ignore[arg-type]
    record = store.idempotency.get("k")
    assert record is not None and record.state == "started"
    assert store.receipts.head().seq == 0


def test_late_finish_after_lease_loss_records_the_truth(store: Store, clock: FakeClock) -> None:
    claim(store, "k", owner="a")
    clock.advance(60)
    assert claim(store, "k", owner="b").status == "unknown"
    late = finish(store, "k", owner="a", outcome="ok")
    assert late.state == "completed"
    assert claim(store, "k", owner="b").status == "replay"


def test_owner_marks_its_attempt_unknown(store: Store) -> None:
    claim(store, "k", owner="a")
    marked = finish(store, "k", owner="a", state="unknown")
    assert marked.state == "unknown"
    assert claim(store, "k", owner="b").status == "unknown"
    with pytest.raises(StoreConflict):
        finish(store, "k", owner="b", state="unknown")


def _reclaim(owner: str, request_hash: str = "h") -> ClaimRequest:
    return ClaimRequest(key="k", request_hash=request_hash, owner=owner, lease_seconds=30)


def test_reclaim_after_unknown_has_one_winner(store: Store) -> None:
    claim(store, "k", owner="a")
    finish(store, "k", owner="a", state="unknown")
    won = store.idempotency.reclaim(_reclaim("b"))
    assert (won.state, won.owner, won.attempts) == ("started", "b", 2)
    with pytest.raises(StoreConflict):
        store.idempotency.reclaim(_reclaim("c"))
    with pytest.raises(StoreConflict):  # the old owner lost the key
        finish(store, "k", owner="a", outcome=None)
    done = finish(store, "k", owner="b", outcome="reconciled")
    assert done.outcome == "reconciled"


def test_reclaim_needs_the_same_request(store: Store, clock: FakeClock) -> None:
    claim(store, "k", owner="a")
    finish(store, "k", owner="a", state="unknown")
    with pytest.raises(StoreConflict, match="'unknown'"):
        store.idempotency.reclaim(_reclaim("b", request_hash="another request"))
    record = store.idempotency.get("k")
    assert record is not None and (record.state, record.owner) == ("unknown", "a")
    clock.advance(1)
    won = store.idempotency.reclaim(_reclaim("b"))
    assert (won.owner, won.lease_expires_at) == ("b", clock.now + 30)


@pytest.mark.parametrize("state", ["started", "completed", "missing"])
def test_reclaim_takes_over_only_an_unknown_key(store: Store, state: str) -> None:
    if state != "missing":
        claim(store, "k", owner="a")
    if state == "completed":
        finish(store, "k", owner="a", outcome=1)
    error = RecordNotFound if state == "missing" else StoreConflict
    with pytest.raises(error):
        store.idempotency.reclaim(_reclaim("b"))
    record = store.idempotency.get("k")
    assert (record.owner if record else None) == (None if state == "missing" else "a")


def test_get_of_unknown_key_is_none(store: Store) -> None:
    assert store.idempotency.get("missing") is None


def test_outcome_round_trips_json(store: Store) -> None:
    outcome = {"text": "héllo", "n": [1, 2.5, None, True], "nested": {"b": 1, "a": 2}}
    claim(store, "k", owner="a")
    finish(store, "k", owner="a", outcome=outcome)
    record = store.idempotency.get("k")
    assert record is not None and record.outcome == outcome
