"""Every door of the page: each route needs a session (but the sign-in form and the
stylesheet), each form post refuses what a browser on this page would never send, and a
store taken away while the page runs is an error page after which nothing was decided."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.routing import BaseRoute, Mount, Route
from starlette.testclient import TestClient

from callgate.store import Approval
from callgate.ui import CONTENT_SECURITY_POLICY, OperatorApp, UISettings, loopback_hosts
from callgate.ui._forms import MAX_FORM_BYTES
from callgate.ui._page import LOOPBACK_HOSTS, host_allowed
from tests.ui._fixtures import csrf_of, sign_in
from tests.ui.scenario import APPROVER_TOKEN, PAUSED_RUN, Scenario, credentials, scenario

PUBLIC = {("/", "GET"), ("/login", "GET"), ("/login", "POST"), ("/favicon.ico", "GET")}
"""What answers a stranger: a redirect to the inbox, the sign-in form and its post, and the
empty icon."""
EXAMPLE = {"approval_id": "A", "seq": "1"}
_PARAM = re.compile(r"\{(\w+)(?::\w+)?\}")


def _routes(app: OperatorApp) -> list[BaseRoute]:
    router = app._app.app  # type: ignore[attr-defined]  # SecurityHeaders(Starlette)
    return cast(list[BaseRoute], router.routes)


def _doors(app: OperatorApp) -> list[tuple[str, str]]:
    found = []
    for route in _routes(app):
        if isinstance(route, Route):
            path = _PARAM.sub(lambda m: EXAMPLE[m[1]], route.path)
            found += [(path, m) for m in sorted(route.methods or ()) if m != "HEAD"]
    return found


def _held(held: Scenario) -> Approval:
    [approval] = [a for a in held.store.approvals.list() if a.run_id == PAUSED_RUN]
    return approval


def _posts(approval_id: str) -> list[str]:
    return [f"/approvals/{approval_id}/decide", f"/approvals/{approval_id}/edit", "/logout"]


def test_every_route_but_the_sign_in_form_needs_a_session(
    app: OperatorApp, client: TestClient
) -> None:
    doors = _doors(app)
    assert set(doors) >= PUBLIC and len(doors) > len(PUBLIC) + 8
    for path, method in doors:
        if (path, method) in PUBLIC:
            continue
        answer = client.request(method, path)
        if method == "GET":
            assert answer.status_code == 303, path
            assert answer.headers["location"].startswith("/login"), path
        else:
            assert answer.status_code == 401, (method, path)
    static = [r for r in _routes(app) if isinstance(r, Mount)]
    assert [r.path for r in static] == ["/static"]  # files of the package, nothing else


def test_every_form_post_refuses_another_encoding_size_or_origin(
    client: TestClient, held: Scenario
) -> None:
    refund = _held(held)
    csrf = sign_in(client, APPROVER_TOKEN)
    fields = {"csrf": csrf, "action": "approve", "arguments": "{}"}
    for path in _posts(refund.id):
        assert client.post(path, json=fields).status_code == 415, path
        assert client.post(path, files={"csrf": ("f", csrf.encode())}).status_code == 415, path
        plain = client.post(path, content=f"csrf={csrf}", headers={"content-type": "text/plain"})
        assert plain.status_code == 415, path
        huge = {**fields, "note": "n" * MAX_FORM_BYTES}
        assert client.post(path, data=huge).status_code == 413, path
        for origin in ("http://evil.example", "null", "http://127.0.0.1.evil.example"):
            answer = client.post(path, data=fields, headers={"origin": origin})
            assert answer.status_code == 403, (path, origin)
        assert client.post(path, data={**fields, "csrf": ""}).status_code == 403, path
        assert client.post(path, data={**fields, "csrf": csrf + "x"}).status_code == 403, path
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]
    assert client.get("/inbox").status_code == 200  # still signed in: logout was refused too


def test_the_sign_in_post_refuses_another_encoding_size_or_origin(client: TestClient) -> None:
    csrf = csrf_of(client.get("/login").text)
    fields = {"csrf": csrf, "token": APPROVER_TOKEN}
    refused = [
        client.post("/login", json=fields),
        client.post("/login", data={**fields, "pad": "p" * MAX_FORM_BYTES}),
        client.post("/login", data=fields, headers={"origin": "http://evil.example"}),
        client.post("/login", data=fields, headers={"origin": "null"}),
    ]
    assert [a.status_code for a in refused] == [415, 413, 403, 403]
    assert all("callgate_session" not in a.headers.get("set-cookie", "") for a in refused)
    assert client.get("/inbox").status_code == 303


@pytest.mark.parametrize(
    "approval_id", ["0" * 16, "x" * 101, "..%2F..%2Fetc", "%E2%80%AE", "' OR 1=1 --"]
)
def test_a_forged_approval_id_is_not_found_at_every_door(
    client: TestClient, held: Scenario, approval_id: str
) -> None:
    csrf = sign_in(client, APPROVER_TOKEN)
    assert client.get(f"/approvals/{approval_id}").status_code == 404
    assert client.get(f"/approvals/{approval_id}/edit").status_code == 404
    for path in _posts(approval_id)[:2]:
        answer = client.post(path, data={"csrf": csrf, "action": "approve", "arguments": "{}"})
        assert answer.status_code == 404, path
    assert all(a.state == "pending" for a in held.store.approvals.list())


@pytest.mark.parametrize("seq", ["0", "99999999999999999999", "-1", "1e3", "0x1", "%00"])
def test_a_forged_receipt_number_is_not_found(client: TestClient, seq: str) -> None:
    sign_in(client, APPROVER_TOKEN)
    assert client.get(f"/receipts/{seq}").status_code == 404


@pytest.fixture
def database(held: Scenario) -> Iterator[Path]:
    path = Path(held.url.removeprefix("sqlite:///"))
    yield path
    if not path.exists():  # put back whatever a test took away, for the scenario to close
        os.replace(path.with_suffix(".gone"), path)


def test_a_store_taken_away_is_an_error_page_and_nothing_is_decided(
    client: TestClient, held: Scenario, database: Path
) -> None:
    refund = _held(held)
    csrf = sign_in(client, APPROVER_TOKEN)
    assert client.get("/inbox").status_code == 200
    os.replace(database, database.with_suffix(".gone"))  # the volume is gone under the page
    decide = client.post(f"/approvals/{refund.id}/decide", data={"csrf": csrf, "action": "approve"})
    assert decide.status_code == 503
    assert "unavailable" in decide.text and "nothing was changed" in decide.text
    for path in ("/inbox", f"/approvals/{refund.id}", "/journal", "/verify"):
        assert client.get(path).status_code == 503, path
    os.replace(database.with_suffix(".gone"), database)  # back: the same file, untouched
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]
    assert held.ledger.refunds == []
    again = client.post(f"/approvals/{refund.id}/decide", data={"csrf": csrf, "action": "approve"})
    assert again.status_code == 303
    assert held.store.approvals.get(refund.id).state == "approved"  # type: ignore[union-attr]


@pytest.mark.postgres
def test_a_postgresql_server_cut_off_is_an_error_page_and_nothing_is_decided(
    tmp_path: Path, pg_schema: tuple[str, str]
) -> None:
    from callgate.store import PostgresStore
    from tests.ui.cable import Cable

    dsn, schema = pg_schema
    with Cable(dsn) as cable:
        for built in scenario(tmp_path, PostgresStore(cable.dsn, schema=schema, timeout=1.0)):
            built.pause_refund()
            refund = _held(built)
            page = OperatorApp(built.store, credentials=credentials(), catalog=built.catalog)
            with TestClient(page, base_url="http://127.0.0.1", follow_redirects=False) as client:
                csrf = sign_in(client, APPROVER_TOKEN)
                assert client.get("/inbox").status_code == 200
                cable.cut()  # the server is gone: every pooled connection and any new one
                fields = {"csrf": csrf, "action": "approve"}
                decide = client.post(f"/approvals/{refund.id}/decide", data=fields)
                assert decide.status_code == 503 and "nothing was changed" in decide.text
                assert client.get("/inbox").status_code == 503
            page.close()
    direct = PostgresStore(dsn, schema=schema)
    try:
        assert direct.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]
    finally:
        direct.close()


@pytest.mark.parametrize(
    ("header", "allowed"),
    [
        ("127.0.0.1:8766", True),
        ("localhost", True),
        ("LOCALHOST:1", True),
        ("[::1]:8766", True),
        ("rebound.example:8766", False),
        ("rebound.example@127.0.0.1", False),
        ("127.0.0.1.rebound.example", False),
        ("127.0.0.1:8766/x", False),
        ("", False),
        (None, False),
    ],
)
def test_a_page_on_loopback_answers_only_to_loopback_names(
    header: str | None, allowed: bool
) -> None:
    assert host_allowed(UISettings(hosts=loopback_hosts("127.0.0.1")), header) is allowed
    assert host_allowed(UISettings(), header)  # behind a proxy: whatever name it chose


def test_loopback_hosts_only_for_loopback_addresses() -> None:
    assert loopback_hosts("127.0.0.1") == LOOPBACK_HOSTS
    assert loopback_hosts("127.0.0.2") == LOOPBACK_HOSTS | {"127.0.0.2"}
    assert loopback_hosts("localhost") == LOOPBACK_HOSTS
    assert loopback_hosts("0.0.0.0") is None and loopback_hosts("example.org") is None


@given(st.text(max_size=300))
def test_any_host_header_is_answered(header: str) -> None:
    assert host_allowed(UISettings(hosts=LOOPBACK_HOSTS), header) in (True, False)


def test_a_rebound_host_name_is_refused_before_anything_else(held: Scenario) -> None:
    """DNS rebinding: a site whose name now resolves to 127.0.0.1 is another origin to the
    browser, so its own Origin matches its Host; the page refuses the name itself."""
    refund = _held(held)
    settings = UISettings(hosts=loopback_hosts("127.0.0.1"))
    page = OperatorApp(held.store, credentials=credentials(), settings=settings)
    try:
        with TestClient(page, base_url="http://127.0.0.1", follow_redirects=False) as client:
            csrf = sign_in(client, APPROVER_TOKEN)
            rebound = {"host": "rebound.example", "origin": "http://rebound.example"}
            for answer in (
                client.get("/inbox", headers=rebound),
                client.get("/static/ui.css", headers=rebound),
                client.post(
                    f"/approvals/{refund.id}/decide",
                    data={"csrf": csrf, "action": "approve"},
                    headers=rebound,
                ),
            ):
                assert answer.status_code == 400
                assert "host name" in answer.text
                assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
            assert client.get("/inbox", headers={"host": "localhost:8766"}).status_code == 200
    finally:
        page.close()
    assert held.store.approvals.get(refund.id).state == "pending"  # type: ignore[union-attr]
