"""The journal: filters, a run as its turns and batches, one receipt, the chain's check."""

from __future__ import annotations

import datetime
import html
import itertools
import json
import re
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from callgate import Context, ToolCall
from callgate.store import Receipt, ReceiptQuery
from callgate.ui import OperatorApp, UISettings
from callgate.ui._journal import PAGE_SIZE, batches
from tests.ui._fixtures import csrf_of, sign_in
from tests.ui.scenario import AUDITOR_TOKEN, PAUSED_RUN, TRAIL_RUN, XSS, Scenario, credentials


def _seqs(page: str) -> list[int]:
    return [int(s) for s in re.findall(r'<td><a href="/receipts/(\d+)">', page)]


def _receipts(held: Scenario, **query: object) -> list[Receipt]:
    return held.store.receipts.list(ReceiptQuery(**query), limit=1000, descending=True)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", {}),
        (f"run={PAUSED_RUN}", {"run_id": PAUSED_RUN}),
        ("tool=read_mail", {"tool_name": "read_mail"}),
        ("route=held", {"route": "held"}),
        ("principal=ann", {"principal": "ann"}),
        ("principal=nobody", {"principal": "nobody"}),
        (f"run={TRAIL_RUN}&route=completed", {"run_id": TRAIL_RUN, "route": "completed"}),
    ],
)
def test_the_journal_filters_like_the_store_does(
    client: TestClient, held: Scenario, query: str, expected: dict[str, object]
) -> None:
    sign_in(client, AUDITOR_TOKEN)
    page = client.get(f"/journal?{query}").text
    want = [r.seq for r in _receipts(held, **expected)]
    assert _seqs(page) == want
    if not want:
        assert "No receipts match." in page


def test_the_journal_filters_by_time(client: TestClient, held: Scenario) -> None:
    sign_in(client, AUDITOR_TOKEN)
    everything = _receipts(held)
    times = sorted({r.recorded_at for r in everything})
    gaps = [(b - a, (a + b) / 2) for a, b in itertools.pairwise(times)]
    widest, middle = max(gaps)
    assert widest > 1e-5, "the receipts were all recorded within microseconds"
    stamp = datetime.datetime.fromtimestamp(middle, tz=datetime.UTC).isoformat()
    since = _seqs(client.get("/journal", params={"since": stamp}).text)
    until = _seqs(client.get("/journal", params={"until": stamp}).text)
    assert since == [r.seq for r in everything if r.recorded_at >= middle]
    assert until == [r.seq for r in everything if r.recorded_at < middle]
    assert sorted(since + until, reverse=True) == [r.seq for r in everything]


def test_the_journal_pages_through_the_receipts(client: TestClient, held: Scenario) -> None:
    context = Context(principal="ann", tenant="acme", run_id="run-many")
    for n in range(PAGE_SIZE + 5):
        held.gate.call_sync(ToolCall(id=f"c{n}", name="read_mail", arguments={}), context=context)
    sign_in(client, AUDITOR_TOKEN)
    first = client.get("/journal?run=run-many").text
    assert len(_seqs(first)) == PAGE_SIZE and "older →" in first
    older = re.search(r'href="(/journal\?offset=\d+[^"]*)">older', first)
    assert older is not None
    second = client.get(html.unescape(older.group(1))).text
    assert len(_seqs(second)) == 5 and "← newer" in second
    assert set(_seqs(first)).isdisjoint(_seqs(second))


@pytest.mark.parametrize(
    "query",
    [
        "route=exploded",
        "since=yesterday",
        "until=2026-13-40T99:99",
        "offset=-1",
        "offset=1e9",
        "offset=99999999999999999999999",
        "tool=" + "x" * 300,
        "since=" + "9" * 30,
    ],
)
def test_a_filter_that_cannot_be_used_is_a_clear_400(client: TestClient, query: str) -> None:
    sign_in(client, AUDITOR_TOKEN)
    answer = client.get(f"/journal?{query}")
    assert answer.status_code == 400
    assert 'role="alert"' in answer.text and "Traceback" not in answer.text


def test_a_run_reads_as_its_turns_and_batches(client: TestClient, held: Scenario) -> None:
    sign_in(client, AUDITOR_TOKEN)
    page = client.get(f"/run?id={PAUSED_RUN}").text
    turns = re.findall(r"<h2>Turn (\d+)", page)
    assert turns == ["1", "2"]
    first, second = page.split("<h2>Turn 2")
    assert "<code>read_mail</code>" in first and "<code>lookup_customer</code>" in first
    assert "<code>refund</code>" in second and "route-held" in second
    assert "Waiting for a decision" in page and 'state-paused">paused' in page


def test_a_resumed_call_joins_the_turn_its_held_call_was_in(
    client: TestClient, held: Scenario
) -> None:
    csrf = sign_in(client, "approver-token-0123456789abcdef")
    [refund] = [a for a in held.store.approvals.list() if a.run_id == PAUSED_RUN]
    client.post(f"/approvals/{refund.id}/decide", data={"csrf": csrf, "action": "approve"})
    held.resume_refund()
    page = client.get(f"/run?id={PAUSED_RUN}").text
    second = page.split("<h2>Turn 2")[1]
    assert "route-held" in second and "route-completed" in second
    assert 'state-finished">finished' in page and "Waiting for a decision" not in page


def test_a_resumed_call_is_recorded_in_its_batch(held: Scenario) -> None:
    [refund] = [a for a in held.store.approvals.list() if a.run_id == PAUSED_RUN]
    held.store.approvals.decide(refund.id, __import__("callgate").Approve(by="bo"))
    held.resume_refund()
    [done] = _receipts(held, run_id=PAUSED_RUN, route="completed", tool_name="refund")
    assert done.batch_id == f"{PAUSED_RUN}/2"


def test_batches_group_by_batch_id_and_approval() -> None:
    def receipt(seq: int, batch: str | None, approval: str | None = None) -> Receipt:
        return Receipt(
            seq=seq,
            prev_hash="0" * 64,
            hash=str(seq) * 64,
            recorded_at=float(seq),
            request_hash="r",
            tool_name="t",
            principal="p",
            route="completed",  # type: ignore[arg-type]
            started_at=0.0,
            batch_id=batch,
            approval_id=approval,
        )

    grouped = batches(
        "r1",
        [
            receipt(1, "r1/1"),
            receipt(2, "r1/2", "a"),
            receipt(3, "r1/1"),
            receipt(4, None, "a"),
            receipt(5, "ab12"),
            receipt(6, None),
            receipt(7, "r1/x"),
        ],
    )
    assert [(b.id, b.turn, [r.seq for r in b.receipts]) for b in grouped] == [
        ("r1/1", 1, [1, 3]),
        ("r1/2", 2, [2, 4]),
        ("ab12", None, [5]),
        (None, None, [6]),
        ("r1/x", None, [7]),
    ]


def test_an_unknown_run_is_not_found(client: TestClient) -> None:
    sign_in(client, AUDITOR_TOKEN)
    assert client.get("/run?id=nope").status_code == 404
    assert client.get("/run").status_code == 400


def test_a_receipt_shows_every_field_and_its_payloads_inert(
    client: TestClient, held: Scenario
) -> None:
    sign_in(client, AUDITOR_TOKEN)
    [mail] = _receipts(held, run_id=PAUSED_RUN, tool_name="read_mail")
    page = client.get(f"/receipts/{mail.seq}").text
    for name in (
        "request_hash",
        "rule_id",
        "approval_id",
        "tool_fingerprint",
        "result_hash",
        "source",
        "findings",
        "batch_id",
        "prev_hash",
        "hash",
        "chain_version",
    ):
        assert f"<dt>{name}</dt>" in page
    assert mail.request_hash in page and (mail.tool_fingerprint or "") in page
    assert "<img" not in page and "<script" not in page
    # The mail is untrusted, so its result is spotlighted around the text: the text is there.
    assert json.dumps(f"Please refund order O-7. {XSS}")[1:-1] in html.unescape(page)
    assert f'href="/verify?seq={mail.seq}"' in page


def test_a_receipt_that_does_not_exist_is_not_found(client: TestClient) -> None:
    sign_in(client, AUDITOR_TOKEN)
    for seq in ("999999", "0", "9" * 40):
        assert client.get(f"/receipts/{seq}").status_code == 404


def test_the_chain_verifies(client: TestClient, held: Scenario) -> None:
    sign_in(client, AUDITOR_TOKEN)
    head = held.store.receipts.head()
    page = client.get("/verify?seq=2").text
    assert "Intact:" in page and f"{head.seq}:{head.hash}" in page
    assert "is covered by the verified chain" in page
    anchored = client.get("/verify", params={"anchor": f"{head.seq}:{head.hash}"}).text
    assert "still holds the anchor" in anchored


def test_a_tampered_receipt_is_named(client: TestClient, held: Scenario, tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "callgate.db") as db:
        db.execute("UPDATE callgate_receipts SET principal = 'mallory' WHERE seq = 3")
    sign_in(client, AUDITOR_TOKEN)
    page = client.get("/verify?seq=4").text
    assert 'Broken at <a href="/receipts/3">receipt #3</a>' in page
    assert "at or after the first broken receipt" in page
    assert "Intact" not in page


def test_an_anchor_that_the_chain_lost_is_reported(client: TestClient, held: Scenario) -> None:
    sign_in(client, AUDITOR_TOKEN)
    page = client.get("/verify", params={"anchor": "2:" + "a" * 64}).text
    assert "Broken" in page and "Intact" not in page
    bad = client.get("/verify", params={"anchor": "<script>"})
    assert bad.status_code == 400 and "<script>" not in bad.text


def test_the_page_verifies_against_its_configured_anchor(held: Scenario) -> None:
    head = held.store.receipts.head()
    page = OperatorApp(
        held.store, credentials=credentials(), settings=UISettings(anchor=f"{head.seq}:{head.hash}")
    )
    with TestClient(page, base_url="http://127.0.0.1", follow_redirects=False) as client:
        sign_in(client, AUDITOR_TOKEN)
        answer = client.get("/verify").text
        assert "still holds the anchor" in answer
        assert csrf_of(answer)
    page.close()
