"""What every view of the page shares: the store, the sessions, the templates, addresses.

Templates are Jinja2 with autoescaping on for every file, undefined names an error, and a
`finalize` that passes every printed value through `inert` (see `_inert.py`): a value
from a model or a tool can only ever become text.
"""

from __future__ import annotations

import datetime
import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar
from urllib.parse import quote, urlencode

import jinja2
import markupsafe
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from callgate._errors import UserError
from callgate.contract import Catalog
from callgate.gate import Approvals, Redactor
from callgate.gateway import Credentials
from callgate.store import AsyncStore, RecordNotFound, Store, StoreConflict, StoreUnavailable
from callgate.ui._inert import Inert, inert, json_text
from callgate.ui._refusal import Refused, SignInNeeded
from callgate.ui._sessions import LoginThrottle, Session, Sessions

__all__ = [
    "LOOPBACK_HOSTS",
    "SESSION_COOKIE",
    "Pages",
    "UISettings",
    "host_allowed",
    "loopback_hosts",
]

SESSION_COOKIE = "callgate_session"
P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True, kw_only=True, slots=True)
class UISettings:
    """How the page runs."""

    anchor: str | None = None
    """A chain head published elsewhere (`SEQ:HASH` or the hash): the journal's
    verification also checks that the chain still holds it."""
    hosts: frozenset[str] | None = None
    """The host names the page answers to (any port), against DNS rebinding; None: any
    (behind a proxy that chose the name). `loopback_hosts()` for a page on loopback."""
    secure_cookies: bool | None = None
    """Mark cookies `Secure`; None: when the request came over HTTPS."""
    session_idle: float = 8 * 3600.0
    """Seconds without a request after which a session ends."""
    session_lifetime: float = 24 * 3600.0
    """Seconds after sign-in after which a session ends."""


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_HOST = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]+))(?::[0-9]{1,5})?")


def loopback_hosts(host: str) -> frozenset[str] | None:
    """The names a page bound to `host` answers to: the loopback names when `host` is a
    loopback address (another name resolving to it is a rebinding), else any (None)."""
    if host == "localhost":
        return LOOPBACK_HOSTS
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        return None
    return LOOPBACK_HOSTS | {host} if loopback else None


def host_allowed(settings: UISettings, header: str | None) -> bool:
    """Whether a request's `Host` header names the page (see `UISettings.hosts`)."""
    if settings.hosts is None:
        return True
    found = _HOST.fullmatch(header or "")
    return found is not None and (found["v6"] or found["name"]).lower() in settings.hosts


class Pages:
    """The shared state of one operator page."""

    def __init__(
        self,
        *,
        store: Store,
        credentials: Credentials,
        catalog: Catalog | None,
        redactor: Redactor,
        settings: UISettings,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.io = AsyncStore(store)
        self.approvals = Approvals(store, catalog, redactor=redactor)
        self.catalog = catalog
        self.credentials = credentials
        self.redactor = redactor
        self.settings = settings
        self.clock = clock
        self.sessions = Sessions(
            clock=clock, idle=settings.session_idle, lifetime=settings.session_lifetime
        )
        self.throttle = LoginThrottle(clock=clock)
        self.templates = _environment()

    def close(self) -> None:
        self.io.close()

    # -- who is asking ------------------------------------------------------------------------

    def session(self, request: Request) -> Session:
        found = self.sessions.find(request.cookies.get(SESSION_COOKIE))
        if found is None:
            raise SignInNeeded
        return found

    def secure(self, request: Request) -> bool:
        chosen = self.settings.secure_cookies
        return request.url.scheme == "https" if chosen is None else chosen

    # -- the store ----------------------------------------------------------------------------

    async def call(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """A store method off the event loop; its errors as the page's refusals."""
        try:
            return await self.io.run(fn, *args, **kwargs)
        except StoreUnavailable as exc:
            raise Refused(503, f"the store is unavailable ({exc}); nothing was changed") from None
        except RecordNotFound as exc:
            raise Refused(404, str(exc)) from None
        except StoreConflict as exc:
            raise Refused(409, str(exc)) from None
        except UserError as exc:
            raise Refused(400, str(exc)) from None

    def shown(self, value: Any) -> Inert:
        """A stored argument or result as the page shows it: redacted again (whatever
        redacted it before it was stored), inert and bounded."""
        try:
            redacted = self.redactor.value(value)
        except RecursionError:  # deeper than the redactor can walk: shown not at all
            return Inert("(nested too deeply to be shown)")
        return json_text(redacted)

    # -- answers ------------------------------------------------------------------------------

    def render(
        self,
        request: Request,
        template: str,
        *,
        status: int = 200,
        session: Session | None = None,
        **values: Any,
    ) -> HTMLResponse:
        now = self.clock()
        page = self.templates.get_template(template).render(
            url=Links(request.scope.get("root_path", "")),
            session=session,
            now=now,
            when=when,
            ago=lambda ts: span(now - ts),
            left=lambda ts: span(ts - now),
            **values,
        )
        return HTMLResponse(page, status_code=status)

    def redirect(self, request: Request, path: str, *parts: object, **query: Any) -> Response:
        """303 to `path` (and quoted `parts`) under the page's root."""
        address = Links(request.scope.get("root_path", ""))(path, *parts, **query)
        return RedirectResponse(address, 303)


class Links:
    """Addresses inside the page, under the prefix it is mounted at, every part quoted."""

    def __init__(self, root: str) -> None:
        self.root = root.rstrip("/")

    def __call__(self, path: str, *parts: object, **query: Any) -> str:
        address = self.root + path + "".join("/" + _segment(p) for p in parts)
        kept = {k: str(v) for k, v in query.items() if v is not None and v != ""}
        if kept:
            address += "?" + urlencode(kept, errors="replace")
        return address


def when(ts: float | None) -> str:
    """Unix seconds as UTC, to the second."""
    if ts is None:
        return "-"
    try:
        moment = datetime.datetime.fromtimestamp(ts, tz=datetime.UTC)
    except (OverflowError, OSError, ValueError):
        return f"<time {ts!r}>"
    return moment.strftime("%Y-%m-%d %H:%M:%SZ")


def span(seconds: float) -> str:
    """A length of time in the largest unit that fits: `45 s`, `12 min`, `3 h`, `2 d`."""
    seconds = max(0.0, seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{int(seconds // size)} {unit}"
    return f"{int(seconds)} s"


def _segment(part: object) -> str:
    return quote(str(part), safe="", errors="replace")


def _finalize(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, jinja2.runtime.Undefined | Inert | markupsafe.Markup):
        return value  # Markup: what a macro of these templates wrote, already escaped
    return inert(value)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("callgate.ui", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["short"] = lambda digest: inert(digest)[:12] if digest else "-"
    return env
