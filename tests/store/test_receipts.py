"""The receipt journal: chain, queries, verification of tampering, payload pruning."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from callgate.contract import Route
from callgate.schema import content_hash
from callgate.store import (
    GENESIS_HASH,
    ReceiptDraft,
    ReceiptQuery,
    Store,
    StoreConflict,
    payload_hash,
    receipt_hash,
)
from callgate.store._sql_store import SQLStore
from tests.store.conftest import FakeClock


def draft(n: int = 0, **changes: Any) -> ReceiptDraft:
    base = ReceiptDraft(
        request_hash=content_hash({"n": n}),
        tool_name="pay",
        tool_fingerprint="f" * 64,
        principal="alice",
        tenant="acme",
        run_id="run-1",
        call_id=f"call-{n}",
        route=Route.COMPLETED,
        rule_id="writes-ask",
        approval_id="ap1",
        idempotency_key=f"acme:{n}:pay",
        argument_hash=content_hash({"amount": n}),
        result_hash=content_hash({"ok": True}),
        started_at=1_700_000_000.0 + n,
        duration_ms=1.25,
        execute_ms=0.5,
        policy_version="p3",
        schema_version="2",
        arguments={"amount": n},
        result={"ok": True},
    )
    return replace(base, **changes)


def test_append_links_each_receipt_to_the_previous(store: Store) -> None:
    first = store.receipts.append(draft(1))
    second = store.receipts.append(draft(2))
    assert (first.seq, second.seq) == (1, 2)
    assert first.prev_hash == GENESIS_HASH
    assert second.prev_hash == first.hash
    assert store.receipts.head().seq == 2 and store.receipts.head().hash == second.hash


def test_hash_is_recomputable_from_the_stored_fields(store: Store) -> None:
    stored = store.receipts.append(draft(1))
    fetched = store.receipts.get(1)
    assert fetched == stored
    assert fetched.hash == receipt_hash(
        fetched,
        seq=1,
        prev_hash=GENESIS_HASH,
        recorded_at=fetched.recorded_at,
        payload=payload_hash({"amount": 1}, {"ok": True}),
    )


def test_receipt_round_trips_every_field(store: Store, clock: FakeClock) -> None:
    original = draft(
        5,
        tenant=None,
        approval_id=None,
        replayed=True,
        route=Route.VERIFIED,
        arguments=None,
        result=None,
    )
    stored = store.receipts.append(original)
    fetched = store.receipts.get(stored.seq)
    assert fetched == stored
    assert fetched.route is Route.VERIFIED and fetched.replayed is True
    assert fetched.payload_hash is None and fetched.recorded_at == clock.now
    assert store.receipts.get(99) is None


def test_empty_journal_verifies(store: Store) -> None:
    report = store.receipts.verify()
    assert report.ok and report.checked == 0
    assert store.receipts.head().hash == GENESIS_HASH


def test_list_filters_orders_and_pages(store: Store, clock: FakeClock) -> None:
    for n in range(6):
        clock.advance(1)
        store.receipts.append(
            draft(
                n,
                tenant="acme" if n % 2 else "globex",
                route=Route.DENIED if n == 3 else Route.COMPLETED,
            )
        )
    assert [r.seq for r in store.receipts.list()] == [1, 2, 3, 4, 5, 6]
    assert [r.seq for r in store.receipts.list(ReceiptQuery(tenant="acme"))] == [2, 4, 6]
    assert [r.seq for r in store.receipts.list(ReceiptQuery(route=Route.DENIED))] == [4]
    assert [r.seq for r in store.receipts.list(limit=2, offset=1, descending=True)] == [5, 4]
    since = store.receipts.get(3)
    assert since is not None
    window = ReceiptQuery(since=since.recorded_at, until=since.recorded_at + 2)
    assert [r.seq for r in store.receipts.list(window)] == [3, 4]
    by_key = store.receipts.list(ReceiptQuery(idempotency_key="acme:2:pay", tool_name="pay"))
    assert [r.seq for r in by_key] == [3]


def _sql(store: Store, statement: str, params: tuple[Any, ...] = ()) -> None:
    """Tamper with the tables directly, as an attacker with database access would."""
    assert isinstance(store, SQLStore)
    with store._db.transaction(write=True) as tx:
        tx.run(statement, params)


def _journal(store: Store, count: int = 5) -> None:
    for n in range(1, count + 1):
        store.receipts.append(draft(n))
    assert store.receipts.verify().ok


def _swap(store: Store, a: int, b: int) -> None:
    _sql(store, "UPDATE callgate_receipts SET seq = -1 WHERE seq = ?", (a,))
    _sql(store, "UPDATE callgate_receipts SET seq = ? WHERE seq = ?", (a, b))
    _sql(store, "UPDATE callgate_receipts SET seq = ? WHERE seq = -1", (b,))


TAMPERING: dict[str, tuple[Callable[[Store], None], int]] = {
    "edited field": (
        lambda s: _sql(s, "UPDATE callgate_receipts SET principal = 'mallory' WHERE seq = 3"),
        3,
    ),
    "edited route": (
        lambda s: _sql(s, "UPDATE callgate_receipts SET route = 'denied' WHERE seq = 2"),
        2,
    ),
    "edited payload": (
        lambda s: _sql(
            s, "UPDATE callgate_receipts SET arguments = ? WHERE seq = 4", ('{"amount":400}',)
        ),
        4,
    ),
    "deleted middle": (lambda s: _sql(s, "DELETE FROM callgate_receipts WHERE seq = 3"), 3),
    "deleted newest": (lambda s: _sql(s, "DELETE FROM callgate_receipts WHERE seq = 5"), 5),
    "reordered": (lambda s: _swap(s, 2, 3), 2),
}


@pytest.mark.parametrize("case", sorted(TAMPERING))
def test_verify_names_the_first_tampered_receipt(store: Store, case: str) -> None:
    tamper, first_bad = TAMPERING[case]
    _journal(store)
    tamper(store)
    report = store.receipts.verify()
    assert not report.ok
    assert report.first_bad_seq == first_bad, report.reason
    assert report.reason


def test_prune_drops_payloads_and_keeps_the_chain(store: Store, clock: FakeClock) -> None:
    for n in range(1, 5):
        clock.advance(10)
        store.receipts.append(draft(n))
    cutoff = clock.now - 15  # receipts 1 and 2 are older
    assert store.receipts.prune_payloads(cutoff) == 2
    assert store.receipts.prune_payloads(cutoff) == 0
    pruned, kept = store.receipts.get(2), store.receipts.get(3)
    assert pruned is not None and kept is not None
    assert (pruned.arguments, pruned.result) == (None, None)
    assert pruned.payload_hash is not None and pruned.argument_hash is not None
    assert kept.arguments == {"amount": 3}
    assert store.receipts.verify().ok


def test_verify_after_prune_still_catches_edits(store: Store) -> None:
    _journal(store, 3)
    store.receipts.prune_payloads(float("inf"))
    _sql(store, "UPDATE callgate_receipts SET result_hash = 'x' WHERE seq = 2")
    report = store.receipts.verify()
    assert (report.ok, report.first_bad_seq) == (False, 2)


def test_verify_reads_beyond_one_batch(store: Store) -> None:
    for n in range(1, 1203):
        store.receipts.append(draft(n, arguments=None, result=None))
    report = store.receipts.verify()
    assert report.ok and report.checked == 1202
    _sql(store, "UPDATE callgate_receipts SET tenant = 'evil' WHERE seq = 1101")
    assert store.receipts.verify().first_bad_seq == 1101


def test_chain_refuses_a_fork(store: Store) -> None:
    """A second receipt at a position already taken is refused by the database itself."""
    first = store.receipts.append(draft(1))
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        _sql(
            store,
            "INSERT INTO callgate_receipts SELECT seq, ?, hash, recorded_at,"
            " request_hash, tool_name, tool_fingerprint, principal, tenant, run_id, call_id,"
            " route, rule_id, approval_id, idempotency_key, argument_hash, result_hash,"
            " replayed, started_at, duration_ms, execute_ms, policy_version, schema_version,"
            " payload_hash, arguments, result FROM callgate_receipts WHERE seq = 1",
            (first.hash,),
        )
    assert store.receipts.verify().ok


def test_finish_and_record_in_one_transaction(store: Store) -> None:
    store.idempotency.begin("acme:1:pay", request_hash="h", owner="a", lease_seconds=30)
    record, receipt = store.finish_and_record(
        "acme:1:pay",
        owner="a",
        state="completed",
        outcome={"id": 1},
        receipt=draft(1, idempotency_key="acme:1:pay"),
    )
    assert record.state == "completed" and record.outcome == {"id": 1}
    assert receipt.seq == 1 and store.receipts.get(1) == receipt
    assert store.receipts.verify().ok


def test_finish_and_record_refused_leaves_neither(store: Store) -> None:
    store.idempotency.begin("acme:1:pay", request_hash="h", owner="a", lease_seconds=30)
    with pytest.raises(StoreConflict):
        store.finish_and_record(
            "acme:1:pay", owner="intruder", state="completed", outcome=None, receipt=draft(1)
        )
    assert store.receipts.head().seq == 0
    record = store.idempotency.get("acme:1:pay")
    assert record is not None and record.state == "started"


def test_finish_and_record_rolls_back_the_finish_if_the_append_fails(store: Store) -> None:
    store.idempotency.begin("acme:1:pay", request_hash="h", owner="a", lease_seconds=30)
    _sql(store, "DELETE FROM callgate_chain_head")  # the append cannot find the chain head
    with pytest.raises(StoreConflict, match="head is missing"):
        store.finish_and_record(
            "acme:1:pay", owner="a", state="completed", outcome=1, receipt=draft(1)
        )
    record = store.idempotency.get("acme:1:pay")
    assert record is not None and record.state == "started"
