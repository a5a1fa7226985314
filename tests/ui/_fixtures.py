"""The operator page's fixtures: a store with real held calls, the page over it, and a
client signed in the way a browser signs in (imported by this folder's `conftest.py`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from callgate.ui import OperatorApp
from tests.ui.scenario import Scenario, credentials, scenario

_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@pytest.fixture
def held(tmp_path: Path) -> Iterator[Scenario]:
    """The paused refund run and the Rule of Two hold, in a SQLite store."""
    for built in scenario(tmp_path):
        built.pause_refund()
        built.hold_wire()
        yield built


@pytest.fixture
def app(held: Scenario) -> Iterator[OperatorApp]:
    page = OperatorApp(held.store, credentials=credentials(), catalog=held.catalog)
    yield page
    page.close()


@pytest.fixture
def client(app: OperatorApp) -> Iterator[TestClient]:
    with TestClient(app, base_url="http://127.0.0.1", follow_redirects=False) as opened:
        yield opened


def csrf_of(html: str) -> str:
    found = _CSRF.search(html)
    assert found is not None, "the page has no CSRF field"
    return found.group(1)


def sign_in(client: TestClient, token: str) -> str:
    """Sign in through the form; the session's CSRF token."""
    form = client.get("/login")
    answer = client.post(
        "/login", data={"csrf": csrf_of(form.text), "token": token, "next": "/inbox"}
    )
    assert answer.status_code == 303, answer.text
    return csrf_of(client.get("/inbox").text)
