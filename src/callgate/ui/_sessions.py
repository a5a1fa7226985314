"""Who is signed in: sessions held by this process, each with its CSRF token.

A session is a random cookie value; the process keeps only its sha256 (the gateway's
token digest), the identity it was opened for and its CSRF token. Sessions end on logout,
after `idle` seconds without a request and `lifetime` seconds after sign-in, and when the
process stops (a restart signs everyone out: nothing secret is written anywhere). Several
processes behind one address need sticky sessions.
"""

from __future__ import annotations

import hmac
import secrets
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from callgate.gateway import Identity, hash_token

__all__ = ["APPROVER_ROLE", "AUDITOR_ROLE", "LoginThrottle", "Session", "Sessions", "may_sign_in"]

APPROVER_ROLE = "approver"
"""The role a principal needs to decide held calls on the page."""
AUDITOR_ROLE = "auditor"
"""The role that may sign in to read the inbox and the journal, without deciding."""
_MAX_COOKIE = 256


@dataclass(slots=True)
class Session:
    """One signed-in browser."""

    identity: Identity
    csrf: str
    """Every form of the page carries it; a POST without it is refused."""
    started: float
    seen: float

    @property
    def can_decide(self) -> bool:
        return APPROVER_ROLE in self.identity.roles

    def csrf_matches(self, presented: str | None) -> bool:
        return presented is not None and hmac.compare_digest(
            presented.encode("utf-8", "surrogatepass"), self.csrf.encode()
        )


def may_sign_in(identity: Identity) -> bool:
    return bool({APPROVER_ROLE, AUDITOR_ROLE} & identity.roles)


class Sessions:
    """The signed-in sessions of one page, at most `limit` (the oldest go first)."""

    def __init__(
        self,
        *,
        clock: Callable[[], float],
        idle: float = 8 * 3600.0,
        lifetime: float = 24 * 3600.0,
        limit: int = 10_000,
    ) -> None:
        self._clock = clock
        self.idle = idle
        self.lifetime = lifetime
        self.limit = limit
        self._by_digest: OrderedDict[str, Session] = OrderedDict()

    def __len__(self) -> int:
        return len(self._by_digest)

    def start(self, identity: Identity) -> tuple[str, Session]:
        """A new session for `identity`: the cookie value and the session."""
        cookie = secrets.token_urlsafe(32)
        now = self._clock()
        session = Session(identity=identity, csrf=secrets.token_urlsafe(32), started=now, seen=now)
        self._by_digest[hash_token(cookie)] = session
        while len(self._by_digest) > self.limit:
            self._by_digest.popitem(last=False)
        return cookie, session

    def find(self, cookie: str | None) -> Session | None:
        """The live session behind `cookie`, or None (unknown, ended or expired)."""
        if not cookie or len(cookie) > _MAX_COOKIE:
            return None
        digest = hash_token(cookie)
        session = self._by_digest.get(digest)
        if session is None:
            return None
        now = self._clock()
        if now - session.seen > self.idle or now - session.started > self.lifetime:
            del self._by_digest[digest]
            return None
        session.seen = now
        self._by_digest.move_to_end(digest)
        return session

    def end(self, cookie: str | None) -> None:
        if cookie and len(cookie) <= _MAX_COOKIE:
            self._by_digest.pop(hash_token(cookie), None)


class LoginThrottle:
    """At most `attempts` failed sign-ins per client address in `window` seconds."""

    def __init__(
        self,
        *,
        clock: Callable[[], float],
        attempts: int = 10,
        window: float = 60.0,
        clients: int = 10_000,
    ) -> None:
        self._clock = clock
        self.attempts = attempts
        self.window = window
        self.clients = clients
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def blocked(self, client: str) -> bool:
        recent = self._recent(client)
        return recent is not None and len(recent) >= self.attempts

    def failed(self, client: str) -> None:
        recent = self._recent(client)
        if recent is None:
            recent = self._failures[client] = deque(maxlen=self.attempts)
            while len(self._failures) > self.clients:
                self._failures.popitem(last=False)
        recent.append(self._clock())

    def _recent(self, client: str) -> deque[float] | None:
        recent = self._failures.get(client)
        if recent is None:
            return None
        cutoff = self._clock() - self.window
        while recent and recent[0] < cutoff:
            recent.popleft()
        return recent
