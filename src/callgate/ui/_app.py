"""`OperatorApp`: the operator's page as one ASGI application, and `mount_ui` to serve it
beside another application (the gateway) under a path prefix."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from callgate.contract import Catalog
from callgate.gate import Redactor
from callgate.gateway import Credentials
from callgate.store import Store
from callgate.ui._headers import SecurityHeaders
from callgate.ui._inbox import InboxViews
from callgate.ui._journal import JournalViews
from callgate.ui._login import LoginViews
from callgate.ui._page import SESSION_COOKIE, Pages, UISettings, host_allowed
from callgate.ui._refusal import Refused, SignInNeeded

__all__ = ["UI_PREFIX", "OperatorApp", "mount_ui"]

UI_PREFIX = "/ui"
"""Where `mount_ui` (and `callgate serve --ui`) puts the page beside another application."""

_log = logging.getLogger("callgate.ui")
_STATIC = Path(__file__).with_name("static")


class OperatorApp:
    """The approvals inbox and the receipts journal of `store`, for the clients of
    `credentials` that hold the `approver` or `auditor` role.

    `catalog` lets approvers edit arguments (checked against the tool's schema); without
    it the page says why editing is not offered. `redactor` is applied again to every
    argument and result shown. The store stays open when the page closes: its owner
    closes it.
    """

    def __init__(
        self,
        store: Store,
        *,
        credentials: Credentials,
        catalog: Catalog | None = None,
        redactor: Redactor | None = None,
        settings: UISettings | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.pages = Pages(
            store=store,
            credentials=credentials,
            catalog=catalog,
            redactor=redactor or Redactor(),
            settings=settings or UISettings(),
            clock=clock,
        )
        self._app: ASGIApp = SecurityHeaders(self._starlette())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            request = Request(scope, receive)
            if not host_allowed(self.pages.settings, request.headers.get("host")):
                refusal = self._error(request, 400, "this page does not answer to that host name")
                await SecurityHeaders(refusal)(scope, receive, send)
                return
        await self._app(scope, receive, send)

    def close(self) -> None:
        """Stop the page's store threads (not the store)."""
        self.pages.close()

    def _starlette(self) -> Starlette:
        login = LoginViews(self.pages)
        inbox = InboxViews(self.pages)
        journal = JournalViews(self.pages)
        views: list[tuple[str, str, Callable[[Request], Awaitable[Response]]]] = [
            ("/", "GET", self._home),
            ("/login", "GET", login.form),
            ("/login", "POST", login.login),
            ("/logout", "POST", login.logout),
            ("/inbox", "GET", inbox.inbox),
            ("/approvals/{approval_id}", "GET", inbox.approval),
            ("/approvals/{approval_id}/edit", "GET", inbox.edit),
            ("/approvals/{approval_id}/edit", "POST", inbox.preview),
            ("/approvals/{approval_id}/decide", "POST", inbox.decide),
            ("/journal", "GET", journal.journal),
            ("/run", "GET", journal.run),
            ("/receipts/{seq:int}", "GET", journal.receipt),
            ("/verify", "GET", journal.verify),
            ("/favicon.ico", "GET", _no_icon),
        ]
        app = Starlette(
            routes=[
                Route(path, self._guarded(view), methods=[method]) for path, method, view in views
            ],
            exception_handlers={HTTPException: self._http_error},
        )
        app.mount("/static", StaticFiles(directory=_STATIC), name="static")
        return app

    def _guarded(
        self, view: Callable[[Request], Awaitable[Response]]
    ) -> Callable[[Request], Awaitable[Response]]:
        """`view`, with every refusal and failure answered as a page (never a traceback)."""

        async def guarded(request: Request) -> Response:
            try:
                return await view(request)
            except Refused as refused:
                return self._error(request, refused.status, refused.message)
            except SignInNeeded:
                return self._sign_in(request)
            except Exception as exc:  # a defect or a dependency's surprise: logged, not shown
                reference = secrets.token_hex(4)
                _log.error("operator page failed (reference %s)", reference, exc_info=exc)
                return self._error(
                    request,
                    500,
                    f"the page failed; the server log has the details (reference {reference})",
                )

        return guarded

    async def _home(self, request: Request) -> Response:
        return self.pages.redirect(request, "/inbox")

    def _sign_in(self, request: Request) -> Response:
        if request.method in ("GET", "HEAD"):
            target = request.url.path[len(request.scope.get("root_path", "")) :]
            if request.url.query:
                target += "?" + request.url.query
            return self.pages.redirect(request, "/login", next=target)
        return self._error(request, 401, "sign in first; nothing was changed")

    async def _http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        message = "no such page" if exc.status_code == 404 else str(exc.detail)
        return self._error(request, exc.status_code, message)

    def _error(self, request: Request, status: int, message: str) -> Response:
        session = self.pages.sessions.find(request.cookies.get(SESSION_COOKIE))
        return self.pages.render(
            request,
            "error.html",
            status=status,
            session=session,
            status_code=status,
            message=message,
        )


async def _no_icon(request: Request) -> Response:
    return Response(status_code=204)


def mount_ui(app: ASGIApp, ui: ASGIApp, *, prefix: str = UI_PREFIX) -> ASGIApp:
    """`app` with `ui` answering every HTTP request under `prefix` (the page sees the prefix
    as its root path, so its links and cookies stay under it). Everything else, the
    lifespan included, goes to `app`."""
    prefix = "/" + prefix.strip("/")

    async def dispatch(scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and (path == prefix or path.startswith(prefix + "/")):
            if path == prefix:
                scope = {**scope, "path": prefix + "/"}
            root = scope.get("root_path", "") + prefix
            await ui({**scope, "root_path": root}, receive, send)
            return
        await app(scope, receive, send)

    return dispatch
