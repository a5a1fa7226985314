"""Approvals: one decision, single use, bound to the request hash, expiry, grants."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import pytest

from callgate.contract import Approve, Decline, Edit
from callgate.store import ApprovalDraft, RecordNotFound, Store, StoreConflict, StoreError
from tests.store.conftest import FakeClock, StoreFactory


def held(clock: FakeClock, **changes: Any) -> ApprovalDraft:
    base = ApprovalDraft(
        request_hash="req-1",
        tool_name="supplier_commit_change",
        arguments={"supplier": "s-9", "iban": "DE00 1234"},
        principal="agent-7",
        tenant="acme",
        run_id="run-1",
        call_id="call-1",
        reason="writes need approval",
        rule_id="writes-ask",
        expires_at=clock.now + 600,
    )
    return replace(base, **changes)


def test_create_then_get(store: Store, clock: FakeClock) -> None:
    created = store.approvals.create(held(clock))
    assert created.state == "pending" and created.created_at == clock.now
    assert len(created.id) == 16
    assert store.approvals.get(created.id) == created
    assert created.arguments == {"supplier": "s-9", "iban": "DE00 1234"}
    assert store.approvals.get("missing") is None


def test_list_pending_and_all(store: Store, clock: FakeClock) -> None:
    first = store.approvals.create(held(clock))
    clock.advance(1)
    second = store.approvals.create(held(clock, request_hash="req-2"))
    clock.advance(1)
    short = store.approvals.create(held(clock, request_hash="req-3", expires_at=clock.now + 5))
    store.approvals.decide(first.id, Decline(by="bob"))
    assert [a.id for a in store.approvals.list()] == [second.id, short.id]
    clock.advance(10)
    assert [a.id for a in store.approvals.list()] == [second.id]
    everything = store.approvals.list(pending_only=False)
    assert [(a.id, a.state) for a in everything] == [
        (first.id, "denied"),
        (second.id, "pending"),
        (short.id, "expired"),
    ]
    assert [a.id for a in store.approvals.list(pending_only=False, limit=1, offset=1)] == [
        second.id
    ]


def test_decide_once(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock))
    clock.advance(3)
    decided = store.approvals.decide(approval.id, Approve(by="bob", note="ok"))
    assert (decided.state, decided.decided_by, decided.note) == ("approved", "bob", "ok")
    assert decided.decided_at == clock.now
    with pytest.raises(StoreConflict, match="approved, not pending"):
        store.approvals.decide(approval.id, Decline(by="carol"))
    assert store.approvals.get(approval.id) == decided


def test_decide_unknown_id(store: Store) -> None:
    with pytest.raises(RecordNotFound):
        store.approvals.decide("nope", Approve(by="bob"))


def test_decide_after_expiry_is_refused(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock, expires_at=clock.now + 60))
    clock.advance(60)
    with pytest.raises(StoreConflict, match="expired"):
        store.approvals.decide(approval.id, Approve(by="bob"))
    current = store.approvals.get(approval.id)
    assert current is not None and current.state == "expired"


def test_consume_is_single_use(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock))
    store.approvals.decide(approval.id, Approve(by="bob"))
    first = store.approvals.consume(approval.id, request_hash="req-1")
    second = store.approvals.consume(approval.id, request_hash="req-1")
    assert first.status == "consumed"
    assert first.approval is not None and first.approval.state == "used"
    assert first.approval.used_at == clock.now
    assert second.status == "used"


def test_consume_is_bound_to_the_request_hash(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock))
    store.approvals.decide(approval.id, Approve(by="bob"))
    assert store.approvals.consume(approval.id, request_hash="other").status == "mismatch"
    assert store.approvals.consume(approval.id, request_hash="req-1").status == "consumed"


@pytest.mark.parametrize(("decision", "status"), [(None, "pending"), (Decline(), "denied")])
def test_consume_needs_an_approval(
    store: Store, clock: FakeClock, decision: Decline | None, status: str
) -> None:
    approval = store.approvals.create(held(clock))
    if decision is not None:
        store.approvals.decide(approval.id, decision)
    assert store.approvals.consume(approval.id, request_hash="req-1").status == status


def test_consume_after_expiry(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock, expires_at=clock.now + 60))
    store.approvals.decide(approval.id, Approve(by="bob"))
    clock.advance(61)
    result = store.approvals.consume(approval.id, request_hash="req-1")
    assert result.status == "expired"
    assert store.approvals.consume("missing", request_hash="req-1").status == "not_found"


def test_edited_arguments_bind_the_new_hash(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock))
    decided = store.approvals.decide(
        approval.id,
        Edit(arguments={"supplier": "s-9", "iban": "DE00 9999"}, by="bob", note="right IBAN"),
        edited_request_hash="req-1b",
    )
    assert (decided.state, decided.decided_by, decided.note) == ("approved", "bob", "right IBAN")
    assert decided.edited_arguments == {"supplier": "s-9", "iban": "DE00 9999"}
    assert decided.edited_request_hash == "req-1b" and not decided.grant
    consumed = store.approvals.consume(approval.id, request_hash="req-1b")
    assert consumed.status == "consumed"


def test_edited_arguments_need_a_hash(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock))
    with pytest.raises(ValueError, match="hash"):
        store.approvals.decide(approval.id, Edit(arguments={"x": 1}, by="bob"))
    with pytest.raises(ValueError, match="only an Edit"):
        store.approvals.decide(approval.id, Approve(by="bob"), edited_request_hash="req-1b")
    current = store.approvals.get(approval.id)
    assert current is not None and current.state == "pending"


def test_an_edit_with_a_grant_allows_the_tool_for_the_run(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock))
    decided = store.approvals.decide(
        approval.id, Edit(arguments={"iban": "x"}, by="bob", grant=True), edited_request_hash="e"
    )
    assert decided.grant
    grant = store.approvals.grant_for("run-1", "supplier_commit_change")
    assert grant is not None and (grant.approval_id, grant.granted_by) == (approval.id, "bob")


def test_grant_allows_the_tool_for_the_run(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock))
    assert store.approvals.grant_for("run-1", "supplier_commit_change") is None
    decided = store.approvals.decide(approval.id, Approve(by="bob", grant=True))
    assert decided.grant
    grant = store.approvals.grant_for("run-1", "supplier_commit_change")
    assert grant is not None
    assert (grant.approval_id, grant.granted_by, grant.granted_at) == (
        approval.id,
        "bob",
        clock.now,
    )
    assert store.approvals.grant_for("run-2", "supplier_commit_change") is None
    assert store.approvals.grant_for("run-1", "other_tool") is None


def test_a_denial_grants_nothing(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock))
    denied = store.approvals.decide(approval.id, Decline(by="bob", note="wrong supplier"))
    assert (denied.state, denied.decided_by, denied.note) == ("denied", "bob", "wrong supplier")
    assert not denied.grant and denied.edited_arguments is None
    assert store.approvals.grant_for("run-1", "supplier_commit_change") is None


def test_second_grant_keeps_the_first(store: Store, clock: FakeClock) -> None:
    first = store.approvals.create(held(clock))
    second = store.approvals.create(held(clock, request_hash="req-2"))
    store.approvals.decide(first.id, Approve(by="bob", grant=True))
    store.approvals.decide(second.id, Approve(by="carol", grant=True))
    grant = store.approvals.grant_for("run-1", "supplier_commit_change")
    assert grant is not None and grant.approval_id == first.id


def test_find_by_request_hash(store: Store, clock: FakeClock) -> None:
    assert store.approvals.find("req-1") is None
    older = store.approvals.create(held(clock))
    store.approvals.decide(older.id, Decline(by="bob"))
    clock.advance(1)
    newer = store.approvals.create(held(clock))
    store.approvals.create(held(clock, request_hash="req-2"))
    assert store.approvals.find("req-1") == store.approvals.get(newer.id)
    assert store.approvals.find("req-9") is None


def test_find_by_edited_hash_with_effective_state(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock, expires_at=clock.now + 60))
    store.approvals.decide(
        approval.id, Edit(arguments={"iban": "x"}, by="bob"), edited_request_hash="req-1b"
    )
    found = store.approvals.find("req-1b")
    assert found is not None and (found.id, found.state) == (approval.id, "approved")
    clock.advance(60)
    expired = store.approvals.find("req-1")
    assert expired is not None and expired.state == "expired"


def test_decide_all_decides_every_one_in_one_transaction(store: Store, clock: FakeClock) -> None:
    first, second = (
        store.approvals.create(held(clock, request_hash=f"req-{n}", tool_name=f"t{n}"))
        for n in (1, 2)
    )
    decided = store.approvals.decide_all(
        [first.id, second.id, first.id], Approve(by="bob", grant=True)
    )
    assert [(a.id, a.state, a.decided_by) for a in decided] == [
        (first.id, "approved", "bob"),
        (second.id, "approved", "bob"),
    ]
    assert all(store.approvals.grant_for("run-1", t) is not None for t in ("t1", "t2"))


@pytest.mark.parametrize("blocker", ["decided", "expired", "missing"])
def test_decide_all_decides_none_when_one_is_not_pending(
    store: Store, clock: FakeClock, blocker: str
) -> None:
    first = store.approvals.create(held(clock, request_hash="req-1", tool_name="t1"))
    second = store.approvals.create(held(clock, request_hash="req-2", expires_at=clock.now + 5))
    last = store.approvals.create(held(clock, request_hash="req-3", tool_name="t3"))
    blocked = second.id
    if blocker == "decided":
        store.approvals.decide(second.id, Decline(by="carol"))
    elif blocker == "expired":
        clock.advance(5)
    else:
        blocked = "nope"
    error = RecordNotFound if blocker == "missing" else StoreConflict
    with pytest.raises(error):
        store.approvals.decide_all([first.id, blocked, last.id], Approve(by="bob", grant=True))
    after = [store.approvals.get(a.id) for a in (first, last)]
    assert [a.state if a else None for a in after] == ["pending", "pending"]
    assert store.approvals.grant_for("run-1", "t1") is None


def test_decide_all_takes_no_edit(store: Store, clock: FakeClock) -> None:
    approval = store.approvals.create(held(clock))
    edit = Edit(by="bob", arguments={"supplier": "s-1"})
    with pytest.raises(ValueError, match="an Edit decides one approval"):
        store.approvals.decide_all([approval.id], edit)  # type: ignore[arg-type]
    assert (store.approvals.get(approval.id) or approval).state == "pending"


def _race(first: Store, second: Store, ids: list[str]) -> list[str]:
    """How two batches of `ids`, in opposite orders from two stores at once, ended."""
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def batch(store: Store, order: list[str]) -> None:
        barrier.wait()
        try:
            store.approvals.decide_all(order, Approve(by="bob", grant=True))
            outcomes.append("decided")
        except StoreConflict:
            outcomes.append("conflict")
        except StoreError as exc:
            outcomes.append(str(exc))

    threads = [
        threading.Thread(target=batch, args=(first, ids)),
        threading.Thread(target=batch, args=(second, ids[::-1])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return sorted(outcomes)


def test_overlapping_batches_in_two_stores_do_not_deadlock(
    make_store: StoreFactory, clock: FakeClock
) -> None:
    first, second = make_store(), make_store()
    for trial in range(3):
        drafts = [held(clock, request_hash=f"r{trial}-{n}", tool_name=f"t{n}") for n in range(40)]
        ids = [first.approvals.create(draft).id for draft in drafts]
        assert _race(first, second, ids) == ["conflict", "decided"]
        states = {a.state for a in first.approvals.list(pending_only=False, limit=1_000)}
        assert states == {"approved"}
