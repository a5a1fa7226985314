"""Verifying the chain: anchors published elsewhere, receipts forged with a recomputed hash,
and journals that began with chain version 1."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from callgate._errors import UserError
from callgate.contract import Route
from callgate.store import (
    GENESIS_HASH,
    ChainHead,
    Receipt,
    Store,
    payload_hash,
    receipt_hash,
)
from callgate.store._db import dump_json
from callgate.store._sql_store import SQLStore
from tests.store._calls import append, draft, tamper
from tests.store._legacy import write_v1_chain
from tests.store.conftest import FakeClock


def _journal(store: Store, count: int) -> list[Receipt]:
    receipts = [append(store, draft(n)) for n in range(1, count + 1)]
    assert store.receipts.verify().ok
    return receipts


def _forge(store: Store, seq: int, *, relink: bool, **changes: Any) -> None:
    """Rewrite receipt `seq` with `changes` and a hash recomputed to match. With `relink`,
    every later receipt is rewritten too (new links, new hashes) and the chain head moved:
    a rewrite that is consistent in itself, which only an anchor can reveal."""
    rewritten = store.receipts.list(limit=10_000)
    prev = rewritten[seq - 2].hash if seq > 1 else GENESIS_HASH
    for receipt in rewritten[seq - 1 : None if relink else seq]:
        if receipt.seq == seq:
            receipt = replace(receipt, **changes)
        digest = payload_hash(receipt.arguments, receipt.result)
        forged = receipt_hash(
            receipt, seq=receipt.seq, prev_hash=prev, recorded_at=receipt.recorded_at,
            payload=digest, version=receipt.chain_version,
        )  # fmt: skip
        tamper(
            store,
            "UPDATE callgate_receipts SET principal = ?, tenant = ?, route = ?, arguments = ?,"
            " payload_hash = ?, prev_hash = ?, hash = ? WHERE seq = ?",
            (receipt.principal, receipt.tenant, str(receipt.route), dump_json(receipt.arguments),
             digest, prev, forged, receipt.seq),
        )  # fmt: skip
        prev = forged
    if relink:
        tamper(store, "UPDATE callgate_chain_head SET hash = ? WHERE id = 1", (prev,))


# Anchors -------------------------------------------------------------------------------


def test_the_report_names_the_head_to_publish(store: Store) -> None:
    empty = store.receipts.verify()
    assert empty.ok and empty.head == ChainHead(seq=0, hash=GENESIS_HASH) and not empty.anchored
    _journal(store, 3)
    report = store.receipts.verify()
    assert report.ok and report.head == store.receipts.head() and report.head.seq == 3


def test_an_anchor_the_chain_still_holds_verifies(store: Store) -> None:
    _journal(store, 3)
    anchor = store.receipts.head()
    append(store, draft(4))
    append(store, draft(5))
    for given in (
        anchor,
        f"{anchor.seq}:{anchor.hash}",
        anchor.hash,
        f"  {anchor.seq}:{anchor.hash.upper()}\n",
        ChainHead(seq=0, hash=GENESIS_HASH),  # the empty journal is a prefix of every chain
    ):
        report = store.receipts.verify(given)
        assert report.ok and report.anchored, (given, report.reason)
        assert report.checked == 5 and report.head == store.receipts.head()


def test_the_current_head_anchors_itself(store: Store) -> None:
    _journal(store, 2)
    head = store.receipts.head()
    assert store.receipts.verify(head).anchored
    assert store.receipts.verify(f"{head.seq}:{head.hash}").anchored


def test_a_rewritten_chain_verifies_in_itself_but_not_against_its_anchor(store: Store) -> None:
    receipts = _journal(store, 5)
    anchor = receipts[2]  # published after receipt 3
    _forge(store, 2, relink=True, principal="mallory")
    assert store.receipts.verify().ok  # consistent in itself: the reason to publish heads
    with_seq = store.receipts.verify(f"{anchor.seq}:{anchor.hash}")
    assert (with_seq.ok, with_seq.anchored, with_seq.first_bad_seq) == (False, False, 3)
    assert with_seq.reason and "rewritten" in with_seq.reason
    hash_only = store.receipts.verify(anchor.hash)
    assert (hash_only.ok, hash_only.anchored) == (False, False)
    assert hash_only.reason and "no receipt holds" in hash_only.reason


def test_a_deleted_tail_is_found_by_the_anchor(store: Store) -> None:
    receipts = _journal(store, 5)
    anchor = store.receipts.head()
    # The tail removed and the head moved back: the shorter chain is consistent in itself.
    tamper(store, "DELETE FROM callgate_receipts WHERE seq > 3")
    tamper(
        store, "UPDATE callgate_chain_head SET seq = 3, hash = ? WHERE id = 1", (receipts[2].hash,)
    )
    assert store.receipts.verify().ok
    report = store.receipts.verify(anchor)
    assert (report.ok, report.anchored, report.first_bad_seq) == (False, False, 4)
    assert report.reason and "deleted" in report.reason
    assert not store.receipts.verify(anchor.hash).ok


@pytest.mark.parametrize(
    "anchor",
    ["f" * 64, "2:" + "f" * 64, ChainHead(seq=2, hash="f" * 64), ChainHead(seq=9, hash="f" * 64)],
)
def test_an_anchor_the_chain_never_held_fails(store: Store, anchor: ChainHead | str) -> None:
    _journal(store, 3)
    report = store.receipts.verify(anchor)
    assert (report.ok, report.anchored) == (False, False), report
    assert report.reason


def test_an_anchor_with_the_hash_of_another_position_fails(store: Store) -> None:
    receipts = _journal(store, 3)
    report = store.receipts.verify(f"2:{receipts[2].hash}")
    assert (report.ok, report.first_bad_seq) == (False, 2)


def test_an_anchor_on_a_broken_chain_reports_the_break(store: Store) -> None:
    _journal(store, 3)
    anchor = store.receipts.head()
    tamper(store, "UPDATE callgate_receipts SET principal = 'mallory' WHERE seq = 2")
    report = store.receipts.verify(anchor)
    assert (report.ok, report.anchored, report.first_bad_seq) == (False, False, 2)


_HASH = "a" * 64


@pytest.mark.parametrize(
    "text",
    ["", "   ", "head", "3:", ":", _HASH[:-1], _HASH + "a", "g" * 64,
     f"x:{_HASH}", f"-1:{_HASH}", f"+3:{_HASH}", f"1.5:{_HASH}", f"0x3:{_HASH}",
     f"3:4:{_HASH}", f"3 :{_HASH}", f"3:{_HASH[:-1]}z", "\ud800", f"\ud800:{_HASH}",
     f"\u00b2:{_HASH}", "9" * 5000],
)  # fmt: skip
def test_a_malformed_anchor_is_a_user_error(store: Store, text: str) -> None:
    _journal(store, 1)
    with pytest.raises(UserError, match="anchor"):
        store.receipts.verify(text)


# Forged receipts -----------------------------------------------------------------------


@pytest.mark.parametrize("seq", [1, 3, 5])
@pytest.mark.parametrize(
    "changes",
    [{"principal": "mallory"}, {"route": Route.DENIED}, {"arguments": {"amount": 9999}}],
    ids=["principal", "route", "payload"],
)
def test_a_forged_receipt_is_named_itself(store: Store, seq: int, changes: dict[str, Any]) -> None:
    _journal(store, 5)
    _forge(store, seq, relink=False, **changes)
    forged = store.receipts.get(seq)
    assert forged is not None and forged.hash == receipt_hash(
        forged, seq=seq, prev_hash=forged.prev_hash, recorded_at=forged.recorded_at,
        payload=forged.payload_hash, version=forged.chain_version,
    )  # fmt: skip  # consistent in itself: only the next link (or the head) gives it away
    report = store.receipts.verify()
    assert (report.ok, report.first_bad_seq) == (False, seq), report.reason


# Journals that began with chain version 1 ----------------------------------------------


def test_a_version_1_chain_followed_by_version_2_receipts_verifies(
    store: Store, clock: FakeClock
) -> None:
    assert isinstance(store, SQLStore)
    old = [draft(n, source=None, batch_id=None, findings=()) for n in range(1, 4)]
    with store._db.transaction(write=True) as tx:
        head = write_v1_chain(tx, old, recorded_at=clock.now - 100)
    assert store.receipts.head() == head
    assert store.receipts.verify().ok
    new = append(store, draft(4, source="gitlab", batch_id="run-1/4", findings=("S101",)))
    assert (new.seq, new.prev_hash, new.chain_version) == (4, head.hash, 2)
    append(store, draft(5))
    report = store.receipts.verify(head)
    assert report.ok and report.anchored and report.checked == 5
    assert [r.chain_version for r in store.receipts.list()] == [1, 1, 1, 2, 2]
    # Each row is checked with its own version: an edit of a version 1 receipt still shows.
    tamper(store, "UPDATE callgate_receipts SET principal = 'mallory' WHERE seq = 2")
    assert store.receipts.verify().first_bad_seq == 2


def test_a_version_1_receipt_cannot_be_passed_off_as_version_2(store: Store) -> None:
    assert isinstance(store, SQLStore)
    with store._db.transaction(write=True) as tx:
        write_v1_chain(tx, [draft(1), draft(2)], recorded_at=1.0)
    tamper(store, "UPDATE callgate_receipts SET chain_version = 2 WHERE seq = 1")
    assert store.receipts.verify().first_bad_seq == 1
