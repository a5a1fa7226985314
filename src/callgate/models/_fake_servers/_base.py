"""What every fake provider server shares: the script cursor, request recording, lifecycle."""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from callgate._extras import require
from callgate.models._fake_servers._serve import ServerThread
from callgate.models._script import ScriptError, Turn, TurnSource

__all__ = ["FakeProviderServer", "RecordedRequest", "arguments_object", "arguments_text", "pieces"]


@dataclass(frozen=True, kw_only=True, slots=True)
class RecordedRequest:
    """One HTTP request a fake server received."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: Any
    """The JSON body, parsed."""
    query: Mapping[str, str] = field(default_factory=dict)


class FakeProviderServer:
    """A provider API on 127.0.0.1 that answers with scripted turns, in its real wire format.

    Use as a context manager (sync or async); `base_url` is what the official client takes.
    Each request consumes the next turn of the script; a callable turn receives the request
    body. `requests` records what arrived, for assertions on what the client really sent.
    """

    provider: str = ""
    """The adapter name this server speaks for (`openai`, `anthropic`, ...)."""

    def __init__(self, turns: Iterable[TurnSource] = (), *, model: str = "fake-model") -> None:
        self.model = model
        self._turns: list[TurnSource] = list(turns)
        self._next = 0
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.requests: list[RecordedRequest] = []
        self._runner = ServerThread(self.app())

    # -- script -------------------------------------------------------------------------------

    def add_turns(self, *turns: TurnSource) -> None:
        """Append turns to the script (also while the server runs)."""
        with self._lock:
            self._turns.extend(turns)

    @property
    def remaining(self) -> int:
        """Turns not yet served."""
        with self._lock:
            return len(self._turns) - self._next

    def next_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids)}"

    def _take(self, body: Any) -> Turn | None:
        with self._lock:
            if self._next >= len(self._turns):
                return None
            source = self._turns[self._next]
            self._next += 1
        return source(body) if callable(source) else source

    # -- lifecycle ----------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """`http://127.0.0.1:PORT` (valid once started)."""
        return f"http://127.0.0.1:{self._runner.port}"

    @property
    def base_url(self) -> str:
        """The base URL the provider's official client expects."""
        return self.url

    def start(self) -> FakeProviderServer:
        self._runner.start()
        return self

    def stop(self) -> None:
        self._runner.stop()

    def __enter__(self) -> FakeProviderServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def __aenter__(self) -> FakeProviderServer:
        return self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- the ASGI app -------------------------------------------------------------------------

    def app(self) -> Any:
        """A starlette app serving this provider's endpoints."""
        applications = require("starlette.applications", extra="server")
        routing = require("starlette.routing", extra="server")
        routes = [routing.Route(path, self._endpoint, methods=["POST"]) for path in self.paths()]
        return applications.Starlette(routes=routes)

    def paths(self) -> list[str]:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    async def _endpoint(self, request: Any) -> Any:
        raw = await request.body()
        body = json.loads(raw) if raw else None
        self.requests.append(
            RecordedRequest(
                method=request.method,
                path=request.url.path,
                headers=dict(request.headers),
                body=body,
                query=dict(request.query_params),
            )
        )
        turn = self._take(body)
        if turn is None:
            return self._json(
                {
                    "error": {
                        "message": f"fake {self.provider} server: the script "
                        f"has no turn left for request {len(self.requests)}"
                    }
                },
                status=400,
            )
        if turn.error is not None:
            return self.error(turn.error)
        if self.wants_stream(request, body):
            sse = require("sse_starlette", extra="server")
            return sse.EventSourceResponse(self.stream(turn, request, body))
        return self._json(self.complete(turn, request, body))

    # -- what each provider defines -----------------------------------------------------------

    def wants_stream(self, request: Any, body: Any) -> bool:
        return isinstance(body, dict) and bool(body.get("stream"))

    def complete(self, turn: Turn, request: Any, body: Any) -> Any:  # pragma: no cover
        raise NotImplementedError

    def stream(self, turn: Turn, request: Any, body: Any) -> AsyncIterator[Any]:  # pragma: no cover
        raise NotImplementedError

    def error_body(self, error: ScriptError) -> Any:  # pragma: no cover
        raise NotImplementedError

    def error(self, error: ScriptError) -> Any:
        headers = {} if error.retry_after is None else {"retry-after": f"{error.retry_after:g}"}
        return self._json(self.error_body(error), status=error.status, headers=headers)

    @staticmethod
    def _json(content: Any, *, status: int = 200, headers: Mapping[str, str] | None = None) -> Any:
        responses = require("starlette.responses", extra="server")
        return responses.JSONResponse(content, status_code=status, headers=dict(headers or {}))


def arguments_text(arguments: Mapping[str, Any] | str) -> str:
    """The argument JSON as a model would send it (raw text is kept exactly)."""
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


def arguments_object(arguments: Mapping[str, Any] | str) -> Any:
    """For providers whose wire carries an object: raw text is parsed, or wrapped if broken."""
    if not isinstance(arguments, str):
        return dict(arguments)
    try:
        return json.loads(arguments)
    except ValueError:
        return {"_raw": arguments}


def pieces(text: str, size: int = 8) -> list[str]:
    """Split text into stream fragments (always at least one, possibly empty)."""
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]
