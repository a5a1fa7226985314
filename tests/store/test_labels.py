"""Run labels (the Rule of Two's memory): the first source of a label wins, every store on
the same database sees them, and `settle` writes them in the transaction of the call."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callgate.contract import Approve
from callgate.store import ApprovalDraft, Finish, Settle, Store, StoreUnavailable
from tests.store import _workers
from tests.store._calls import append, claim, settle
from tests.store._workers import receipt
from tests.store.conftest import FakeClock, StoreFactory


def test_the_first_source_of_a_label_wins(store: Store) -> None:
    assert store.labels.of("run-1") == {}
    store.labels.add("run-1", {"private": "crm_lookup"})
    store.labels.add("run-1", {"private": "inbox_read", "untrusted": "web_fetch"})
    assert store.labels.of("run-1") == {"private": "crm_lookup", "untrusted": "web_fetch"}
    assert store.labels.of("run-2") == {}
    store.labels.add("run-2", {})  # nothing to record
    assert store.labels.of("run-2") == {}


def test_settle_records_the_labels_a_call_brought_in(store: Store) -> None:
    call = replace(receipt(0, 0), run_id="run-1", tool_name="web_fetch")
    append(store, call, labels={"untrusted": "web_fetch"})
    store.labels.add("run-1", {"untrusted": "other", "private": "crm_lookup"})
    append(store, replace(call, call_id="0:1"), labels={"private": "inbox_read"})
    assert store.labels.of("run-1") == {"untrusted": "web_fetch", "private": "crm_lookup"}


def test_labels_are_shared_by_every_store_on_the_database(make_store: StoreFactory) -> None:
    """Two gateway processes serving one run: each sees what the other recorded."""
    first, second = make_store(), make_store()
    first.labels.add("run-1", {"private": "crm_lookup"})
    assert second.labels.of("run-1") == {"private": "crm_lookup"}
    append(second, replace(receipt(0, 0), run_id="run-1"), labels={"untrusted": "web_fetch"})
    second.labels.add("run-1", {"private": "second's own"})
    assert first.labels.of("run-1") == {"private": "crm_lookup", "untrusted": "web_fetch"}


def test_a_settle_whose_transaction_fails_writes_no_label_and_no_receipt(
    make_store: StoreFactory,
) -> None:
    store, reader = make_store(), make_store()
    claim(store, "k")
    seen: list[str] = []

    def fail_on_the_second_label() -> None:
        seen.append("label")
        if len(seen) == 2:  # the first label row is already in the transaction
            raise StoreUnavailable("the database went away mid-settle")

    _workers.inject(store, "INSERT INTO callgate_labels", fail_on_the_second_label)
    call = replace(receipt(0, 0), run_id="run-1")
    with pytest.raises(StoreUnavailable):
        settle(
            store,
            Settle(
                receipt=call,
                finish=Finish(key="k", owner="a", state="completed", outcome=1),
                labels={"private": "crm_lookup", "untrusted": "web_fetch"},
            ),
        )
    assert len(seen) == 2
    assert reader.labels.of("run-1") == {}
    assert reader.receipts.head().seq == 0
    record = reader.idempotency.get("k")
    assert record is not None and record.state == "started"


def test_a_refused_finish_writes_no_label(store: Store) -> None:
    claim(store, "k", owner="a")
    call = replace(receipt(0, 0), run_id="run-1")
    refused = store.settle(
        [
            Settle(
                receipt=call,
                finish=Finish(key="k", owner="intruder", state="completed"),
                labels={"untrusted": "web_fetch"},
            )
        ]
    )
    assert isinstance(refused[0], Exception)
    assert store.labels.of("run-1") == {}


# Labels and sources are names the host declares; any text that can be stored must round
# trip exactly (SQL metacharacters, quotes, non-ASCII, long strings). Lone surrogates (no
# UTF-8 form) and NUL (which PostgreSQL text cannot hold) are left out.
_TEXT = st.text(
    st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), min_size=1, max_size=300
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(additions=st.lists(st.dictionaries(_TEXT, _TEXT, max_size=4), max_size=5))
def test_labels_keep_the_first_source_of_each_label(
    store: Store, additions: list[dict[str, str]]
) -> None:
    run_id = f"run-{uuid.uuid4().hex}"  # the store outlives one example
    expected: dict[str, str] = {}
    for labels in additions:
        store.labels.add(run_id, labels)
        for label, source in labels.items():
            expected.setdefault(label, source)
    assert store.labels.of(run_id) == expected


def test_an_idle_run_is_forgotten_and_an_active_one_kept(store: Store, clock: FakeClock) -> None:
    """Gateway runs have no end of their own: after a time without calls their labels and
    grants go, while a run with a recent receipt or label keeps everything."""
    store.labels.add("mcp:ann", {"untrusted_output": "web_fetch"})
    store.labels.add("mcp:bob", {"private_data": "crm"})
    store.labels.add("local-run", {"private_data": "crm"})
    clock.advance(100)
    append(store, replace(receipt(0, 0), run_id="mcp:bob"))  # bob is still at work
    clock.advance(10)
    assert store.labels.forget_idle("mcp:", clock.now - 50) == ["mcp:ann"]
    assert store.labels.of("mcp:ann") == {}
    assert store.labels.of("mcp:bob") == {"private_data": "crm"}
    assert store.labels.of("local-run") == {"private_data": "crm"}  # not under the prefix
    store.labels.add("mcp:ann", {"private_data": "crm"})  # a later call starts afresh
    assert store.labels.forget_idle("mcp:", clock.now - 50) == []
    assert store.labels.forget_idle("MCP:", clock.now + 1) == []  # the prefix is exact


def test_an_idle_run_loses_its_grants(store: Store, clock: FakeClock) -> None:
    draft = ApprovalDraft(
        request_hash="h", tool_name="gl_create_issue", arguments={}, principal="ann",
        run_id="mcp:ann", reason="write", expires_at=clock.now + 3600,
    )  # fmt: skip
    approval = store.approvals.create(draft)
    store.approvals.decide(approval.id, Approve(by="ops", grant=True))
    assert store.approvals.grant_for("mcp:ann", "gl_create_issue") is not None
    clock.advance(10)
    assert store.labels.forget_idle("mcp:", clock.now - 5) == ["mcp:ann"]
    assert store.approvals.grant_for("mcp:ann", "gl_create_issue") is None
