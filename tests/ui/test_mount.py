"""`mount_ui`: the page beside another application (the gateway) under a path prefix."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from callgate.ui import OperatorApp, mount_ui
from tests.ui._fixtures import csrf_of
from tests.ui.scenario import APPROVER_TOKEN, PAUSED_RUN


def test_the_page_answers_under_its_prefix_and_the_rest_goes_to_the_app(
    app: OperatorApp,
) -> None:
    started: list[str] = []

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        started.append("up")
        yield

    async def mcp(request: Request) -> PlainTextResponse:
        return PlainTextResponse(f"mcp at {request.url.path}")

    other = Starlette(routes=[Route("/mcp", mcp, methods=["GET", "POST"])], lifespan=lifespan)
    both = mount_ui(other, app, prefix="/ui")
    with TestClient(both, base_url="http://127.0.0.1", follow_redirects=False) as client:
        assert started == ["up"]
        assert client.get("/mcp").text == "mcp at /mcp"
        assert client.get("/uix").status_code == 404  # not the page: a path beside it
        assert client.get("/ui").headers["location"] == "/ui/inbox"
        assert client.get("/ui/inbox").headers["location"] == "/ui/login?next=%2Finbox"
        form = client.get("/ui/login")
        assert 'href="/ui/static/ui.css"' in form.text and 'action="/ui/login"' in form.text
        assert "Path=/ui" in form.headers["set-cookie"]
        fields = {"csrf": csrf_of(form.text), "token": APPROVER_TOKEN}
        signed = client.post("/ui/login", data=fields)
        assert signed.headers["location"] == "/ui/inbox"
        inbox = client.get("/ui/inbox").text
        assert f'href="/ui/run?id={PAUSED_RUN}"' in inbox and 'action="/ui/approvals/' in inbox
        assert client.get("/ui/static/ui.css").status_code == 200
