"""The headers every response of the page carries, error pages included.

The page runs no script at all: the Content-Security-Policy allows only the page's own
stylesheet and images, forms that post back to the page, and no framing, so an injected
element could neither run nor send anything anywhere. `Referrer-Policy: same-origin` keeps
addresses (run ids, filters) from other sites and lets the page's own form posts carry
their `Origin`, which `no-referrer` would turn into `null`.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "SecurityHeaders"]

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
_ALWAYS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), interest-cohort=()"),
)
_HSTS = (b"strict-transport-security", b"max-age=31536000")


class SecurityHeaders:
    """ASGI middleware adding the page's security headers (and `Cache-Control: no-store`
    unless the response chose its own caching)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = scope.get("scheme") == "https"

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in {name for name, _ in _ALWAYS}
                ]
                headers += _ALWAYS
                if not any(k.lower() == b"cache-control" for k, _ in headers):
                    headers.append((b"cache-control", b"no-store"))
                if secure:
                    headers.append(_HSTS)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
