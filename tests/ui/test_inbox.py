"""The inbox over real held calls: what it shows, and deciding on it (approve, decline,
edit) with the run continuing from the store afterwards."""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from callgate.contract import LABELS, Route
from callgate.gate import REDACTED, RULE_OF_TWO
from callgate.store import Approval, ApprovalDraft
from callgate.ui import OperatorApp
from tests.ui._fixtures import csrf_of, sign_in
from tests.ui.scenario import (
    APPROVER_TOKEN,
    AUDITOR_TOKEN,
    OTHER_TENANT_TOKEN,
    PAUSED_RUN,
    TRAIL_RUN,
    XSS,
    Scenario,
    credentials,
    scenario,
)


def _held(scenario: Scenario, run_id: str) -> Approval:
    [approval] = [a for a in scenario.store.approvals.list() if a.run_id == run_id]
    return approval


@pytest.fixture
def refund(held: Scenario) -> Approval:
    return _held(held, PAUSED_RUN)


def _decide(client: TestClient, approval_id: str, **fields: str) -> int:
    return client.post(f"/approvals/{approval_id}/decide", data=fields).status_code


def test_the_inbox_lists_each_held_call_with_why_and_when(
    client: TestClient, held: Scenario
) -> None:
    sign_in(client, AUDITOR_TOKEN)
    page = client.get("/inbox").text
    refund, wire = _held(held, PAUSED_RUN), _held(held, TRAIL_RUN)
    for approval in (refund, wire):
        assert f'id="approval-{approval.id}"' in page
        assert approval.request_hash in page
        assert html.escape(approval.reason, quote=False) in page
    assert "<code>refund</code>" in page and "<code>send_wire</code>" in page
    assert "<dd>ann</dd>" in page and "<dd>acme</dd>" in page
    assert f'href="/run?id={PAUSED_RUN}"' in page
    assert "<code>default:write</code>" in page and f"<code>{RULE_OF_TWO}</code>" in page
    assert "expires in 23 h" in page and "held 0 s ago" in page
    assert '<span class="count">2</span>' in page


def test_a_rule_of_two_hold_shows_the_labels_of_its_run_and_their_sources(
    client: TestClient, held: Scenario
) -> None:
    sign_in(client, AUDITOR_TOKEN)
    page = client.get("/inbox").text
    trail = page[page.index("Rule of Two: what this run has taken in") :]
    labels = {k: v for k, v in held.store.labels.of(TRAIL_RUN).items() if k in LABELS}
    assert set(labels) == {"untrusted_output", "private_data"}
    assert "spotlight:boundary" not in trail  # the run's boundary is kept there, not shown
    for label, source in labels.items():
        assert f"<td><code>{label}</code></td><td>{html.escape(source)}</td>" in trail
    refund_card = page[page.index(f"approval-{_held(held, PAUSED_RUN).id}") :]
    assert "Rule of Two" not in refund_card.split("</article>")[0]


def test_arguments_from_the_model_are_shown_as_text(client: TestClient) -> None:
    sign_in(client, APPROVER_TOKEN)
    page = client.get("/inbox").text
    assert XSS not in page and "<img" not in page and "<script" not in page
    assert json.dumps(XSS, ensure_ascii=False) in html.unescape(page)


def test_approving_lets_the_run_continue_from_the_store(
    client: TestClient, held: Scenario, refund: Approval
) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    assert held.ledger.refunds == []
    assert _decide(client, refund.id, csrf=csrf, action="approve", note="ok") == 303
    decided = held.store.approvals.get(refund.id)
    assert decided is not None
    assert (decided.state, decided.decided_by, decided.note) == ("approved", "bo", "ok")
    result = held.resume_refund()
    assert result.status == "finished" and result.answer == "Refunded order O-7."
    assert held.ledger.refunds == [(XSS, 20)]
    page = client.get(f"/approvals/{refund.id}").text
    assert "<dd>bo</dd>" in page and "not yet" not in page


def test_a_decision_is_taken_once(client: TestClient, held: Scenario, refund: Approval) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    assert _decide(client, refund.id, csrf=csrf, action="approve") == 303
    again = client.post(f"/approvals/{refund.id}/decide", data={"csrf": csrf, "action": "decline"})
    assert again.status_code == 409
    assert "pending" in again.text or "decided" in again.text
    decided = held.store.approvals.get(refund.id)
    assert decided is not None and decided.state == "approved"


async def test_decisions_raced_from_many_tabs_take_exactly_one(
    app: OperatorApp, held: Scenario, refund: Approval
) -> None:
    """Twelve posts at once, approvals and declines, through the page's own store threads:
    the store takes the first and refuses the rest."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as tab:
        form = await tab.get("/login")
        await tab.post("/login", data={"csrf": csrf_of(form.text), "token": APPROVER_TOKEN})
        csrf = csrf_of((await tab.get("/inbox")).text)
        actions = ["approve", "decline"] * 6
        answers = await asyncio.gather(
            *(
                tab.post(f"/approvals/{refund.id}/decide", data={"csrf": csrf, "action": a})
                for a in actions
            )
        )
    statuses = [a.status_code for a in answers]
    assert sorted(statuses) == [303] + [409] * 11, statuses
    winner = actions[statuses.index(303)]
    decided = held.store.approvals.get(refund.id)
    assert decided is not None
    assert decided.state == ("approved" if winner == "approve" else "denied")


def test_a_grant_the_page_does_not_offer_is_refused(client: TestClient, held: Scenario) -> None:
    wire = _held(held, TRAIL_RUN)
    assert wire.rule_id == RULE_OF_TWO
    csrf = sign_in(client, APPROVER_TOKEN)
    assert 'name="grant"' not in client.get(f"/approvals/{wire.id}").text
    for action in ("approve", "edit"):
        fields = {"csrf": csrf, "action": action, "grant": "1", "arguments": "{}"}
        answer = client.post(f"/approvals/{wire.id}/decide", data=fields)
        assert answer.status_code == 400 and "not offered" in answer.text
    fields = {"csrf": csrf, "grant": "1", "arguments": "{}"}
    preview = client.post(f"/approvals/{wire.id}/edit", data=fields)
    assert preview.status_code == 400 and "not offered" in preview.text
    decided = held.store.approvals.get(wire.id)
    assert decided is not None and decided.state == "pending" and not decided.grant


def test_declining_tells_the_run_and_nothing_runs(
    client: TestClient, held: Scenario, refund: Approval
) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    assert _decide(client, refund.id, csrf=csrf, action="decline", note="not this one") == 303
    result = held.resume_refund()
    assert held.ledger.refunds == []
    [declined] = [r for r in result.calls if r.call.name == "refund" and r.route is Route.DECLINED]
    assert "not this one" in declined.result.content


def test_a_grant_needs_the_checkbox_and_is_recorded(
    client: TestClient, held: Scenario, refund: Approval
) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    assert _decide(client, refund.id, csrf=csrf, action="approve", grant="1") == 303
    grant = held.store.approvals.grant_for(PAUSED_RUN, "refund")
    assert grant is not None and grant.granted_by == "bo"


@pytest.mark.parametrize(
    "fields",
    [{"action": "approve"}, {"action": "approve", "csrf": ""}, {"action": "approve", "csrf": "x"}],
    ids=["missing", "empty", "wrong"],
)
def test_a_decision_without_the_sessions_csrf_token_is_refused(
    client: TestClient, held: Scenario, refund: Approval, fields: dict[str, str]
) -> None:
    sign_in(client, APPROVER_TOKEN)
    answer = client.post(f"/approvals/{refund.id}/decide", data=fields)
    assert answer.status_code == 403
    assert "CSRF" in answer.text
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]


def test_another_sessions_csrf_token_is_refused(
    app: OperatorApp, held: Scenario, refund: Approval
) -> None:
    with (
        TestClient(app, base_url="http://127.0.0.1", follow_redirects=False) as ann,
        TestClient(app, base_url="http://127.0.0.1", follow_redirects=False) as bo,
    ):
        theirs = sign_in(ann, APPROVER_TOKEN)
        sign_in(bo, APPROVER_TOKEN)
        assert _decide(bo, refund.id, csrf=theirs, action="approve") == 403
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]


def test_a_form_posted_from_another_site_is_refused(
    client: TestClient, held: Scenario, refund: Approval
) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    for origin in ("http://evil.example", "null", "http://127.0.0.1:1"):
        answer = client.post(
            f"/approvals/{refund.id}/decide",
            data={"csrf": csrf, "action": "approve"},
            headers={"origin": origin},
        )
        assert answer.status_code == 403
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]
    same = client.post(
        f"/approvals/{refund.id}/decide",
        data={"csrf": csrf, "action": "approve"},
        headers={"origin": "http://127.0.0.1"},
    )
    assert same.status_code == 303


def test_without_a_session_nothing_is_decided(
    client: TestClient, held: Scenario, refund: Approval
) -> None:
    assert _decide(client, refund.id, action="approve") == 401
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]


def test_an_auditor_reads_but_cannot_decide(
    client: TestClient, held: Scenario, refund: Approval
) -> None:
    csrf = sign_in(client, AUDITOR_TOKEN)
    page = client.get("/inbox").text
    assert "/decide" not in page and "Deciding needs the approver role." in page
    answer = client.post(f"/approvals/{refund.id}/decide", data={"csrf": csrf, "action": "approve"})
    assert answer.status_code == 403 and "approver role" in answer.text
    assert client.get(f"/approvals/{refund.id}/edit").status_code == 200  # reading is allowed
    preview = client.post(f"/approvals/{refund.id}/edit", data={"csrf": csrf, "arguments": "{}"})
    assert preview.status_code == 403
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]


def test_an_identity_of_another_tenant_sees_and_decides_nothing_of_this_one(
    client: TestClient, held: Scenario, refund: Approval
) -> None:
    csrf = sign_in(client, OTHER_TENANT_TOKEN)
    assert "Nothing is waiting for a decision." in client.get("/inbox").text
    assert client.get(f"/approvals/{refund.id}").status_code == 404
    assert _decide(client, refund.id, csrf=csrf, action="approve") == 404
    assert "No receipts match." in client.get("/journal").text
    assert client.get("/receipts/1").status_code == 404
    assert client.get(f"/run?id={PAUSED_RUN}").status_code == 404
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]


@pytest.mark.parametrize(("action", "status"), [("", 400), ("approve-all", 400), ("x" * 30, 400)])
def test_an_unknown_decision_is_refused(
    client: TestClient, refund: Approval, action: str, status: int
) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    assert _decide(client, refund.id, csrf=csrf, action=action) == status


@pytest.mark.parametrize("approval_id", ["0000000000000000", "x" * 500, "%00", "%3Cscript%3E"])
def test_an_unknown_approval_is_not_found(client: TestClient, approval_id: str) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    assert client.get(f"/approvals/{approval_id}").status_code == 404
    assert _decide(client, approval_id, csrf=csrf, action="approve") == 404


# -- editing ------------------------------------------------------------------------------------


def _preview(client: TestClient, approval_id: str, csrf: str, arguments: str) -> str:
    answer = client.post(
        f"/approvals/{approval_id}/edit", data={"csrf": csrf, "arguments": arguments}
    )
    assert answer.status_code == 200, answer.text
    return answer.text


def test_an_edit_is_shown_as_a_diff_and_runs_once_confirmed(
    client: TestClient, held: Scenario, refund: Approval
) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    form = client.get(f"/approvals/{refund.id}/edit").text
    textarea = html.unescape(re.search(r"<textarea[^>]*>(.*?)</textarea>", form, re.S).group(1))  # type: ignore[union-attr]
    assert json.loads(textarea) == {"amount": 20, "order_id": XSS}
    edited = json.dumps({"order_id": "O-7", "amount": 15})
    preview = _preview(client, refund.id, csrf, edited)
    assert '<span class="removed">-   &#34;amount&#34;: 20,</span>' in preview
    assert '<span class="added">+   &#34;amount&#34;: 15,</span>' in preview
    assert "<img" not in preview
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]
    confirm = re.search(r'name="arguments" value="([^"]*)"', preview)
    assert confirm is not None and json.loads(html.unescape(confirm.group(1))) == json.loads(edited)
    assert (
        _decide(
            client, refund.id, csrf=csrf, action="edit", arguments=html.unescape(confirm.group(1))
        )
        == 303
    )
    decided = held.store.approvals.get(refund.id)
    assert decided is not None and decided.edited_arguments == {"order_id": "O-7", "amount": 15}
    assert decided.edited_request_hash not in (None, refund.request_hash)
    result = held.resume_refund()
    assert result.status == "finished"
    assert held.ledger.refunds == [("O-7", 15)]
    page = client.get(f"/approvals/{refund.id}").text
    assert "Edited arguments" in page and '<span class="added">' in page


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ('{"order_id": "O-7", "amount": "lots"}', "amount"),
        ('{"order_id": "O-7"}', "amount"),
        ('{"order_id": "O-7", "amount": 1, "extra": true}', "extra"),
    ],
)
def test_an_edit_the_schema_refuses_is_shown_and_decides_nothing(
    client: TestClient, held: Scenario, refund: Approval, arguments: str, says: str
) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    answer = client.post(
        f"/approvals/{refund.id}/decide",
        data={"csrf": csrf, "action": "edit", "arguments": arguments},
    )
    assert answer.status_code == 400
    assert 'role="alert"' in answer.text and says in answer.text
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "arguments",
    [
        "{",
        "[1, 2]",
        '{"order_id": "\\ud800", "amount": 1}',
        '{"order_id": "O", "amount": NaN}',
        '{"amount": 1e400, "order_id": "O"}',
        "[" * 10_000,
        '{"order_id": "' + "x" * 70_000 + '", "amount": 1}',
        '{"amount": ' + "9" * 5000 + ', "order_id": "O"}',
    ],
    ids=["cut", "array", "surrogate", "nan", "overflow", "deep", "huge", "digits"],
)
def test_hostile_edits_are_refused_with_a_message(
    client: TestClient, held: Scenario, refund: Approval, arguments: str
) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    for path, extra in (("edit", {}), ("decide", {"action": "edit"})):
        answer = client.post(
            f"/approvals/{refund.id}/{path}", data={"csrf": csrf, "arguments": arguments, **extra}
        )
        assert answer.status_code == 400, answer.text[:500]
        assert "The arguments cannot be used" in answer.text
        assert len(answer.text) < 200_000
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]


def test_an_edit_that_keeps_a_redacted_value_is_refused(client: TestClient, held: Scenario) -> None:
    secret = held.store.approvals.create(
        ApprovalDraft(
            request_hash="f" * 64,
            tool_name="refund",
            arguments={"order_id": "O-1", "amount": 5, "api_key": REDACTED},
            principal="ann",
            tenant="acme",
            reason="write calls need approval by default",
            expires_at=held.store.approvals.list()[0].expires_at,
        )
    )
    csrf = sign_in(client, APPROVER_TOKEN)
    answer = client.post(
        f"/approvals/{secret.id}/decide",
        data={"csrf": csrf, "action": "edit", "arguments": json.dumps(secret.arguments)},
    )
    assert answer.status_code == 400 and "cannot restore it" in answer.text
    assert held.store.approvals.get(secret.id).state == "pending"  # type: ignore[union-attr]


@pytest.fixture
def catalogless(held: Scenario) -> Iterator[TestClient]:
    page = OperatorApp(held.store, credentials=credentials())
    with TestClient(page, base_url="http://127.0.0.1", follow_redirects=False) as client:
        yield client
    page.close()


def test_without_a_catalog_editing_is_not_offered_and_the_page_says_why(
    catalogless: TestClient, refund: Approval
) -> None:
    csrf = sign_in(catalogless, APPROVER_TOKEN)
    page = catalogless.get("/inbox").text
    assert "Editing needs the tool catalog" in page and "/edit" not in page
    assert catalogless.get(f"/approvals/{refund.id}/edit").status_code == 409
    answer = catalogless.post(
        f"/approvals/{refund.id}/decide",
        data={"csrf": csrf, "action": "edit", "arguments": "{}"},
    )
    assert answer.status_code == 409 and "--tools" in answer.text
    assert _decide(catalogless, refund.id, csrf=csrf, action="approve") == 303


@pytest.mark.postgres
def test_deciding_on_a_postgresql_store(tmp_path: Path, pg_schema: tuple[str, str]) -> None:
    from callgate.store import PostgresStore

    dsn, schema = pg_schema
    for built in scenario(tmp_path, PostgresStore(dsn, schema=schema)):
        built.pause_refund()
        page = OperatorApp(built.store, credentials=credentials(), catalog=built.catalog)
        with TestClient(page, base_url="http://127.0.0.1", follow_redirects=False) as client:
            csrf = sign_in(client, APPROVER_TOKEN)
            refund = _held(built, PAUSED_RUN)
            assert f'id="approval-{refund.id}"' in client.get("/inbox").text
            assert _decide(client, refund.id, csrf=csrf, action="approve") == 303
            assert _decide(client, refund.id, csrf=csrf, action="approve") == 409
            assert built.resume_refund().status == "finished"
            assert built.ledger.refunds == [(XSS, 20)]
            assert "Intact:" in client.get("/verify").text
        page.close()


def test_a_held_call_proposed_again_after_approval_runs_once(
    client: TestClient, held: Scenario
) -> None:
    """What a gateway or command-line client does: repeat the call once it is decided."""
    from callgate import Context, ToolCall

    context = Context(principal="ann", tenant="acme", run_id="run-gateway")
    call = ToolCall(id="c1", name="refund", arguments={"order_id": "O-9", "amount": 3})
    first = held.gate.call_sync(call, context=context)
    assert first.route is Route.HELD and first.approval_id is not None
    csrf = sign_in(client, APPROVER_TOKEN)
    assert _decide(client, first.approval_id, csrf=csrf, action="approve") == 303
    again = held.gate.call_sync(call, context=context)
    assert again.route is Route.COMPLETED and held.ledger.refunds == [("O-9", 3)]
    assert held.gate.call_sync(call, context=context).replayed
    assert held.ledger.refunds == [("O-9", 3)]
