"""Signing in and out, sessions, cookies, and the headers every answer carries."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from callgate.ui import CONTENT_SECURITY_POLICY, OperatorApp, UISettings
from callgate.ui._login import safe_next
from tests.ui._fixtures import csrf_of, sign_in
from tests.ui.scenario import (
    APPROVER_TOKEN,
    AUDITOR_TOKEN,
    BOT_TOKEN,
    PAUSED_RUN,
    Scenario,
    credentials,
)

PAGES = ["/inbox", "/journal", f"/run?id={PAUSED_RUN}", "/receipts/1", "/verify"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_sends_a_stranger_to_the_sign_in_form(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 303
    assert answer.headers["location"].startswith("/login?next=")


def test_the_sign_in_form_returns_to_the_page_asked_for(client: TestClient) -> None:
    form = client.get(client.get("/journal?tool=refund").headers["location"])
    answer = client.post(
        "/login",
        data={"csrf": csrf_of(form.text), "token": APPROVER_TOKEN, "next": "/journal?tool=refund"},
    )
    assert answer.headers["location"] == "/journal?tool=refund"
    assert client.get("/journal?tool=refund").status_code == 200


@pytest.mark.parametrize("token", ["wrong-token-0123456789", BOT_TOKEN, "", "x" * 4096])
def test_a_token_without_a_page_role_does_not_sign_in(client: TestClient, token: str) -> None:
    form = client.get("/login")
    answer = client.post("/login", data={"csrf": csrf_of(form.text), "token": token})
    assert answer.status_code == 401
    assert "neither the approver nor the auditor role" in answer.text
    assert "callgate_session" not in answer.headers.get("set-cookie", "")
    assert client.get("/inbox").status_code == 303


def test_the_sign_in_form_needs_its_own_csrf_cookie(client: TestClient) -> None:
    client.get("/login")
    answer = client.post("/login", data={"csrf": "forged", "token": APPROVER_TOKEN})
    assert answer.status_code == 403
    client.cookies.clear()
    answer = client.post("/login", data={"csrf": "", "token": APPROVER_TOKEN})
    assert answer.status_code == 403
    assert client.get("/inbox").status_code == 303


def test_failed_sign_ins_are_throttled_per_address(client: TestClient) -> None:
    for _ in range(10):
        form = client.get("/login")
        client.post("/login", data={"csrf": csrf_of(form.text), "token": "wrong-token-000000"})
    form = client.get("/login")
    answer = client.post("/login", data={"csrf": csrf_of(form.text), "token": APPROVER_TOKEN})
    assert answer.status_code == 429


def test_cookies_are_http_only_same_site_strict(client: TestClient) -> None:
    form = client.get("/login")
    assert "HttpOnly" in form.headers["set-cookie"]
    answer = client.post("/login", data={"csrf": csrf_of(form.text), "token": APPROVER_TOKEN})
    session_cookie = next(
        c for c in answer.headers.get_list("set-cookie") if c.startswith("callgate_session=")
    )
    parts = {p.strip().lower() for p in session_cookie.split(";")}
    assert {"httponly", "samesite=strict", "path=/"} <= parts
    assert "secure" not in parts  # plain HTTP on loopback


def test_cookies_are_secure_over_https(app: OperatorApp) -> None:
    with TestClient(app, base_url="https://ops.example", follow_redirects=False) as client:
        form = client.get("/login")
        answer = client.post("/login", data={"csrf": csrf_of(form.text), "token": APPROVER_TOKEN})
        cookies = answer.headers.get_list("set-cookie")
        assert all("secure" in c.lower() for c in cookies)
        assert answer.headers["strict-transport-security"].startswith("max-age=")


def test_signing_out_ends_the_session_and_needs_the_csrf_token(client: TestClient) -> None:
    csrf = sign_in(client, AUDITOR_TOKEN)
    assert client.post("/logout", data={"csrf": "forged"}).status_code == 403
    assert client.get("/inbox").status_code == 200
    kept = client.cookies.get("callgate_session")
    assert client.post("/logout", data={"csrf": csrf}).status_code == 303
    client.cookies.set("callgate_session", kept or "", domain="127.0.0.1")
    assert client.get("/inbox").status_code == 303


def test_signing_in_starts_a_new_session_whatever_cookie_was_planted(
    client: TestClient,
) -> None:
    client.cookies.set("callgate_session", "planted-by-someone-else", domain="127.0.0.1")
    first = sign_in(client, APPROVER_TOKEN)
    first_cookie = client.cookies.get("callgate_session")
    assert first_cookie not in (None, "planted-by-someone-else")
    client.post("/logout", data={"csrf": first})
    second = sign_in(client, APPROVER_TOKEN)
    assert second != first
    assert client.cookies.get("callgate_session") != first_cookie


class _Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def timed(held: Scenario) -> Iterator[tuple[TestClient, _Clock]]:
    clock = _Clock()
    settings = UISettings(session_idle=600, session_lifetime=3600)
    page = OperatorApp(held.store, credentials=credentials(), settings=settings, clock=clock)
    with TestClient(page, base_url="http://127.0.0.1", follow_redirects=False) as client:
        yield client, clock
    page.close()


def test_a_session_ends_when_idle(timed: tuple[TestClient, _Clock]) -> None:
    client, clock = timed
    sign_in(client, AUDITOR_TOKEN)
    clock.now += 599
    assert client.get("/inbox").status_code == 200
    clock.now += 601
    assert client.get("/inbox").status_code == 303


def test_a_session_ends_after_its_lifetime_however_busy(timed: tuple[TestClient, _Clock]) -> None:
    client, clock = timed
    sign_in(client, AUDITOR_TOKEN)
    for _ in range(7):
        clock.now += 500
        assert client.get("/inbox").status_code == 200
    clock.now += 200
    assert client.get("/inbox").status_code == 303


@pytest.mark.parametrize(
    "path", ["/login", "/inbox", "/nope", "/static/ui.css", "/receipts/999999", "/"]
)
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    if path != "/login":
        sign_in(client, AUDITOR_TOKEN)
    answer = client.get(path)
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "script-src" not in CONTENT_SECURITY_POLICY  # default-src 'none': no script at all
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["referrer-policy"] == "same-origin"
    assert answer.headers["x-content-type-options"] == "nosniff"
    if path != "/static/ui.css":
        assert answer.headers["cache-control"] == "no-store"


def test_no_page_has_script_or_inline_style(client: TestClient) -> None:
    sign_in(client, APPROVER_TOKEN)
    for path in PAGES:
        html = client.get(path).text
        assert "<script" not in html.lower()
        assert " style=" not in html.lower()
        assert re.search(r"<[^>]*\son[a-z]+\s*=", html, re.IGNORECASE) is None


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/x",
        "https://evil.example/",
        "/\\evil",
        "javascript:alert(1)",
        "/login?x=1",
        "/in\u202ebox",
        "",
        None,
    ],
)
def test_after_sign_in_a_link_cannot_send_anyone_elsewhere(target: str | None) -> None:
    assert safe_next(target) == "/inbox"


@given(st.text(max_size=300))
def test_safe_next_only_ever_names_a_path_of_the_page(target: str) -> None:
    shown = safe_next(target)
    assert shown.startswith("/") and not shown.startswith("//")
    assert shown.isascii() and "\\" not in shown
