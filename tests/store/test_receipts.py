"""The receipt journal: chain, queries, verification of tampering, payload pruning."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from callgate.contract import Route
from callgate.store import (
    CHAIN_VERSION,
    GENESIS_HASH,
    Finish,
    ReceiptQuery,
    Settle,
    Store,
    StoreConflict,
    StoreUnavailable,
    payload_hash,
    receipt_hash,
)
from tests.store._calls import append, claim, draft, finish, settle, tamper
from tests.store.conftest import FakeClock


def test_append_links_each_receipt_to_the_previous(store: Store) -> None:
    first = append(store, draft(1))
    second = append(store, draft(2))
    assert (first.seq, second.seq) == (1, 2)
    assert first.prev_hash == GENESIS_HASH
    assert second.prev_hash == first.hash
    assert store.receipts.head().seq == 2 and store.receipts.head().hash == second.hash


def test_hash_is_recomputable_from_the_stored_fields(store: Store) -> None:
    stored = append(store, draft(1))
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
    stored = append(store, original)
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
        append(
            store,
            draft(
                n,
                tenant="acme" if n % 2 else "globex",
                route=Route.DENIED if n == 3 else Route.COMPLETED,
            ),
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


def _journal(store: Store, count: int = 5) -> None:
    for n in range(1, count + 1):
        append(store, draft(n))
    assert store.receipts.verify().ok


def _swap(store: Store, a: int, b: int) -> None:
    tamper(store, "UPDATE callgate_receipts SET seq = -1 WHERE seq = ?", (a,))
    tamper(store, "UPDATE callgate_receipts SET seq = ? WHERE seq = ?", (a, b))
    tamper(store, "UPDATE callgate_receipts SET seq = ? WHERE seq = -1", (b,))


TAMPERING: dict[str, tuple[Callable[[Store], None], int]] = {
    "edited field": (
        lambda s: tamper(s, "UPDATE callgate_receipts SET principal = 'mallory' WHERE seq = 3"),
        3,
    ),
    "edited route": (
        lambda s: tamper(s, "UPDATE callgate_receipts SET route = 'denied' WHERE seq = 2"),
        2,
    ),
    "edited payload": (
        lambda s: tamper(
            s, "UPDATE callgate_receipts SET arguments = ? WHERE seq = 4", ('{"amount":400}',)
        ),
        4,
    ),
    "deleted middle": (lambda s: tamper(s, "DELETE FROM callgate_receipts WHERE seq = 3"), 3),
    "deleted newest": (lambda s: tamper(s, "DELETE FROM callgate_receipts WHERE seq = 5"), 5),
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
        append(store, draft(n))
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
    tamper(store, "UPDATE callgate_receipts SET result_hash = 'x' WHERE seq = 2")
    report = store.receipts.verify()
    assert (report.ok, report.first_bad_seq) == (False, 2)


def test_verify_reads_beyond_one_batch(store: Store) -> None:
    for n in range(1, 1203):
        append(store, draft(n, arguments=None, result=None))
    report = store.receipts.verify()
    assert report.ok and report.checked == 1202
    tamper(store, "UPDATE callgate_receipts SET tenant = 'evil' WHERE seq = 1101")
    assert store.receipts.verify().first_bad_seq == 1101


def test_chain_refuses_a_fork(store: Store) -> None:
    """A second receipt at a position already taken is refused by the database itself."""
    first = append(store, draft(1))
    with pytest.raises(StoreUnavailable, match=r"(?i)unique|duplicate"):
        tamper(
            store,
            "INSERT INTO callgate_receipts SELECT seq, ?, hash, recorded_at,"
            " request_hash, tool_name, tool_fingerprint, principal, tenant, run_id, call_id,"
            " route, rule_id, approval_id, idempotency_key, argument_hash, result_hash,"
            " replayed, started_at, duration_ms, execute_ms, policy_version, schema_version,"
            " payload_hash, arguments, result, source, batch_id, findings, chain_version"
            " FROM callgate_receipts WHERE seq = 1",
            (first.hash,),
        )
    assert store.receipts.verify().ok


def test_settle_finishes_and_records_in_one_transaction(store: Store) -> None:
    claim(store, "acme:1:pay", owner="a")
    settled = settle(
        store,
        Settle(
            receipt=draft(1, idempotency_key="acme:1:pay"),
            finish=Finish(key="acme:1:pay", owner="a", state="completed", outcome={"id": 1}),
        ),
    )
    record, receipt = settled.record, settled.receipt
    assert record is not None and record.state == "completed" and record.outcome == {"id": 1}
    assert store.idempotency.get("acme:1:pay") == record
    assert receipt.seq == 1 and store.receipts.get(1) == receipt
    assert store.receipts.verify().ok


def test_a_settle_without_a_finish_only_appends(store: Store) -> None:
    settled = settle(store, Settle(receipt=draft(1)))
    assert settled.record is None and settled.receipt.seq == 1
    assert store.idempotency.get("acme:1:pay") is None


def test_a_refused_finish_leaves_neither(store: Store) -> None:
    claim(store, "acme:1:pay", owner="a")
    with pytest.raises(StoreConflict):
        finish(store, "acme:1:pay", owner="intruder", receipt=draft(1))
    assert store.receipts.head().seq == 0
    record = store.idempotency.get("acme:1:pay")
    assert record is not None and record.state == "started"


def test_a_failed_append_rolls_the_finish_back(store: Store) -> None:
    claim(store, "acme:1:pay", owner="a")
    tamper(store, "DELETE FROM callgate_chain_head")  # the append cannot find the chain head
    with pytest.raises(StoreConflict, match="head is missing"):
        finish(store, "acme:1:pay", owner="a", outcome=1, receipt=draft(1))
    record = store.idempotency.get("acme:1:pay")
    assert record is not None and record.state == "started"


def test_receipts_are_written_with_the_current_chain_version(store: Store) -> None:
    stored = append(
        store, draft(1, source="gitlab", batch_id="run-1/2", findings=("S101 at title", "S7"))
    )
    fetched = store.receipts.get(1)
    assert fetched == stored
    assert fetched.chain_version == CHAIN_VERSION == 2
    assert (fetched.source, fetched.batch_id, fetched.findings) == (
        "gitlab",
        "run-1/2",
        ("S101 at title", "S7"),
    )
    assert append(store, draft(2)).findings == ()
    assert store.receipts.verify().ok


@pytest.mark.parametrize(
    ("column", "value"),
    [("source", "'github'"), ("batch_id", "'run-1/9'"), ("findings", "'[]'"),
     ("findings", "NULL"), ("chain_version", "1")],
)  # fmt: skip
def test_an_edit_of_a_version_2_field_breaks_the_chain(
    store: Store, column: str, value: str
) -> None:
    for n in range(1, 4):
        append(store, draft(n, source="gitlab", batch_id="run-1/2", findings=("S101",)))
    assert store.receipts.verify().ok
    tamper(store, f"UPDATE callgate_receipts SET {column} = {value} WHERE seq = 2")
    report = store.receipts.verify()
    assert (report.ok, report.first_bad_seq) == (False, 2), report.reason
