"""Hostile input at every door: what the store holds, what a browser sends, and a store
that fails. Every answer is a page with a status, never a traceback."""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from callgate.store import ApprovalDraft, Store, StoreUnavailable
from callgate.ui import OperatorApp
from callgate.ui._forms import MAX_FIELDS, MAX_FORM_BYTES
from tests.ui._fixtures import sign_in
from tests.ui.scenario import APPROVER_TOKEN, AUDITOR_TOKEN, Scenario, credentials

HOSTILE_STRINGS = [
    "<script>alert(1)</script>",
    '"><svg onload=alert(1)>',
    "javascript:alert(1)",
    "\u202egnp.exe",
    "zero\u200bwidth",
    "\ud800 lone",
    "\x00\x1b[31m",
    "{{ 7*7 }}{% raw %}",
    "x" * 200_000,
]


def _file(held: Scenario, **fields: Any) -> str:
    defaults: dict[str, Any] = {
        "request_hash": "e" * 64,
        "tool_name": "refund",
        "arguments": {},
        "principal": "ann",
        "tenant": "acme",
        "reason": "held",
        "expires_at": held.store.approvals.list()[0].expires_at,
    }
    return held.store.approvals.create(ApprovalDraft(**{**defaults, **fields})).id


@pytest.mark.parametrize("text", HOSTILE_STRINGS, ids=range(len(HOSTILE_STRINGS)))
def test_hostile_strings_in_every_field_of_a_held_call_are_inert(
    client: TestClient, held: Scenario, text: str
) -> None:
    approval = _file(
        held,
        arguments={text: text, "nested": [{"k": text}]},
        principal=text,
        run_id=text,
        call_id=text,
        reason=text,
        rule_id=text,
    )
    sign_in(client, APPROVER_TOKEN)
    for path in ("/inbox", f"/approvals/{approval}", f"/approvals/{approval}/edit"):
        answer = client.get(path)
        assert answer.status_code in (200, 409), path
        page = answer.text
        assert "<script>alert" not in page and "<svg" not in page
        assert "{{ 7*7 }}" not in page or "49" not in page.split("{{ 7*7 }}")[0][-5:]
        assert "\ud800" not in page and "\u202e" not in page and "\u200b" not in page
        assert len(page) < 400_000
    inbox = html.unescape(client.get("/inbox").text)
    if text == "\u202egnp.exe":
        assert "\\u202egnp.exe" in inbox
    if text.startswith("x" * 100):
        assert "more characters" in inbox


@pytest.mark.parametrize(
    "arguments",
    [
        {"deep": __import__("functools").reduce(lambda acc, _: [acc], range(900), 0)},
        {"n": 10**4000},
        {f"k{i}": i for i in range(5000)},
        {"blob": "y" * 1_000_000},
        {"f": 1e308, "neg": -0.0},
    ],
    ids=["deep", "huge-int", "many-keys", "blob", "floats"],
)
def test_huge_and_deep_arguments_render_bounded(
    client: TestClient, held: Scenario, arguments: dict[str, Any]
) -> None:
    approval = _file(held, arguments=arguments)
    sign_in(client, AUDITOR_TOKEN)
    answer = client.get(f"/approvals/{approval}")
    assert answer.status_code == 200
    assert len(answer.text) < 100_000


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.sampled_from(["run", "tool", "route", "principal", "since", "until", "offset", "x"]),
    value=st.text(max_size=300),
)
def test_any_query_string_is_answered_with_a_page(
    client: TestClient, name: str, value: str
) -> None:
    if not client.cookies.get("callgate_session"):
        sign_in(client, AUDITOR_TOKEN)
    for path in ("/journal", "/run", "/verify"):
        param = "id" if path == "/run" and name == "run" else name
        if path == "/verify":
            param = "anchor"
        answer = client.get(path, params={param: value})
        assert answer.status_code in (200, 400, 404), (path, param, value)
        assert "Traceback" not in answer.text


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=2000))
def test_any_form_body_is_answered_with_a_page(client: TestClient, body: bytes) -> None:
    if not client.cookies.get("callgate_session"):
        sign_in(client, APPROVER_TOKEN)
    [first] = [a.id for a in client.app.pages.store.approvals.list()[:1]]  # type: ignore[attr-defined]
    answer = client.post(
        f"/approvals/{first}/decide",
        content=body,
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert answer.status_code in (400, 403), answer.text[:300]


def test_form_limits(client: TestClient, held: Scenario) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    target = f"/approvals/{held.store.approvals.list()[0].id}/decide"
    too_big = client.post(target, data={"csrf": csrf, "note": "n" * (MAX_FORM_BYTES + 1)})
    assert too_big.status_code == 413
    many = {f"f{i}": "1" for i in range(MAX_FIELDS + 5)} | {"csrf": csrf}
    assert client.post(target, data=many).status_code == 400
    multipart = client.post(target, files={"csrf": ("x", b"y")})
    assert multipart.status_code == 415
    lying = client.post(
        target,
        content=b"csrf=x",
        headers={"content-type": "application/x-www-form-urlencoded", "content-length": "-5"},
    )
    assert lying.status_code in (400, 413)
    note = client.post(target, data={"csrf": csrf, "action": "approve", "note": "n" * 3000})
    assert note.status_code == 400 and "longer than" in note.text
    assert all(a.state == "pending" for a in held.store.approvals.list())


class _Failing:
    """A store whose tables fail: unreachable, or with a defect of its own."""

    def __init__(self, store: Store, error: Exception) -> None:
        self._store = store
        self._error = error

    def __getattr__(self, name: str) -> Any:
        if name in ("approvals", "receipts", "labels", "runs"):
            return self
        if name.startswith("_"):
            raise AttributeError(name)

        def fail(*args: Any, **kwargs: Any) -> Any:
            raise self._error

        return fail


@pytest.fixture(params=["unavailable", "defect"])
def failing(request: pytest.FixtureRequest, held: Scenario) -> Iterator[tuple[TestClient, int]]:
    error: Exception = (
        StoreUnavailable("connection refused")
        if request.param == "unavailable"
        else RuntimeError("secret internal detail")
    )
    page = OperatorApp(cast(Store, _Failing(held.store, error)), credentials=credentials())
    with TestClient(page, base_url="http://127.0.0.1", follow_redirects=False) as client:
        yield client, 503 if request.param == "unavailable" else 500
    page.close()


def test_a_failing_store_is_a_page_that_says_so(failing: tuple[TestClient, int]) -> None:
    client, status = failing
    sign_in(client, APPROVER_TOKEN)
    for path in ("/inbox", "/journal", "/run?id=x", "/receipts/1", "/verify"):
        answer = client.get(path)
        assert answer.status_code == status, path
        assert "secret internal detail" not in answer.text and "Traceback" not in answer.text
        assert ("unavailable" if status == 503 else "reference") in answer.text
