"""Signing in and out with a token of `callgate.toml`'s `[[gateway.clients]]`.

The page knows the same clients as the gateway, by the same sha256 digests; a client may
sign in when it holds the `approver` role (reads and decides) or the `auditor` role
(reads). The sign-in form has no session yet, so its CSRF token is a double-submit cookie;
signing in starts a new session (a fresh cookie and CSRF token, so a cookie planted
before cannot be carried into it).
"""

from __future__ import annotations

import hmac
import secrets

from starlette.requests import Request
from starlette.responses import Response

from callgate.ui._forms import read_form
from callgate.ui._page import SESSION_COOKIE, Pages
from callgate.ui._refusal import Refused
from callgate.ui._sessions import may_sign_in

__all__ = ["LOGIN_COOKIE", "LoginViews", "safe_next"]

LOGIN_COOKIE = "callgate_login"
_MAX_TOKEN = 4096
_MAX_NEXT = 2_000


class LoginViews:
    def __init__(self, pages: Pages) -> None:
        self.pages = pages

    async def form(self, request: Request) -> Response:
        target = safe_next(request.query_params.get("next"))
        if self.pages.sessions.find(request.cookies.get(SESSION_COOKIE)) is not None:
            return self.pages.redirect(request, target)
        return self._form(request, target, status=200)

    async def login(self, request: Request) -> Response:
        form = await read_form(request)
        target = safe_next(form.get("next", limit=_MAX_NEXT))
        planted = request.cookies.get(LOGIN_COOKIE) or ""
        presented = form.text("csrf", limit=200)
        if not planted or not hmac.compare_digest(planted.encode(), presented.encode()):
            raise Refused(403, "the sign-in form expired or was not sent by this page; reload it")
        client = request.client.host if request.client else "?"
        if self.pages.throttle.blocked(client):
            raise Refused(429, "too many failed sign-ins from this address; wait a minute")
        token = form.text("token", limit=_MAX_TOKEN).strip()
        identity = self.pages.credentials.lookup(token)
        if identity is None or not may_sign_in(identity):
            self.pages.throttle.failed(client)
            return self._form(
                request,
                target,
                status=401,
                error="This token is not known, or its client has neither the approver "
                "nor the auditor role.",
            )
        cookie, _ = self.pages.sessions.start(identity)
        answer = self.pages.redirect(request, target)
        self._cookie(request, answer, SESSION_COOKIE, cookie)
        self._forget(request, answer, LOGIN_COOKIE)
        return answer

    async def logout(self, request: Request) -> Response:
        session = self.pages.session(request)
        form = await read_form(request)
        if not session.csrf_matches(form.get("csrf", limit=200)):
            raise Refused(403, "the form's CSRF token is missing or wrong; reload the page")
        self.pages.sessions.end(request.cookies.get(SESSION_COOKIE))
        answer = self.pages.redirect(request, "/login")
        self._forget(request, answer, SESSION_COOKIE)
        return answer

    def _form(self, request: Request, target: str, *, status: int, error: str = "") -> Response:
        csrf = secrets.token_urlsafe(32)
        answer = self.pages.render(
            request, "login.html", status=status, csrf=csrf, next=target, error=error
        )
        self._cookie(request, answer, LOGIN_COOKIE, csrf, max_age=3600)
        return answer

    def _cookie(
        self, request: Request, answer: Response, name: str, value: str, max_age: int | None = None
    ) -> None:
        answer.set_cookie(
            name,
            value,
            max_age=max_age,
            path=self._path(request),
            secure=self.pages.secure(request),
            httponly=True,
            samesite="strict",
        )

    def _forget(self, request: Request, answer: Response, name: str) -> None:
        answer.delete_cookie(
            name,
            path=self._path(request),
            secure=self.pages.secure(request),
            httponly=True,
            samesite="strict",
        )

    @staticmethod
    def _path(request: Request) -> str:
        return request.scope.get("root_path", "").rstrip("/") or "/"


def safe_next(target: str | None) -> str:
    """A path inside the page to go to after signing in; anything else goes to the inbox
    (so a link cannot send a person elsewhere after they sign in)."""
    if (
        not target
        or len(target) > _MAX_NEXT
        or not target.startswith("/")
        or target.startswith(("//", "/login"))
        or not target.isascii()
        or not target.isprintable()
        or "\\" in target
    ):
        return "/inbox"
    return target
