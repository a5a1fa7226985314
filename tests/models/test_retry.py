"""Transient provider errors are retried after the server's `Retry-After`; others are not."""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable

import pytest

from callgate import Backoff
from callgate.loop import Agent, ModelFailed
from callgate.models import (
    FakeOpenAIChatServer,
    FakeProviderServer,
    OpenAIChatModel,
    RetryPolicy,
    SDKModel,
    Turn,
)
from callgate.models._retry import retry_after, transient
from callgate.testing import ManualClock
from tests.models import scenario

PAIRS = scenario.PAIRS


@pytest.mark.parametrize("stream", [False, True], ids=["blocking", "streaming"])
@pytest.mark.parametrize(("server_cls", "model_cls"), PAIRS)
async def test_429_with_retry_after_then_200(
    server_cls: type[FakeProviderServer], model_cls: Callable[..., SDKModel], stream: bool
) -> None:
    waits = ManualClock()
    turns = [Turn.fail(429, retry_after=7), Turn.fail(503), Turn.say("done")]
    with server_cls(turns) as server:
        async with model_cls(
            "fake-1",
            base_url=server.base_url,
            api_key="k",
            stream=stream,
            retry=RetryPolicy(
                clock=waits, backoff=Backoff(initial=0.25, max_delay=30.0, jitter=0.0)
            ),
        ) as model:
            result = await Agent(model, scenario.TOOLS).run("hello")
    assert result.answer == "done"
    assert len(server.requests) == 3
    # The server's Retry-After is honoured exactly; without one the backoff starts small.
    assert waits.sleeps == [7.0, 0.5]


@pytest.mark.parametrize(("server_cls", "model_cls"), PAIRS)
async def test_4xx_is_not_retried(
    server_cls: type[FakeProviderServer], model_cls: Callable[..., SDKModel]
) -> None:
    waits = ManualClock()
    with server_cls([Turn.fail(400, message="bad request"), Turn.say("never")]) as server:
        async with model_cls(
            "fake-1", base_url=server.base_url, api_key="k", retry=RetryPolicy(clock=waits)
        ) as model:
            with pytest.raises(ModelFailed) as caught:
                await Agent(model, scenario.TOOLS).run("hello")
    assert waits.sleeps == []
    assert len(server.requests) == 1
    assert caught.value.state.status == "failed"


@scenario.OPENAI_OVER_HTTP
async def test_gives_up_after_the_attempts_and_when_asked_to_wait_too_long() -> None:
    waits = ManualClock()
    with FakeOpenAIChatServer([Turn.fail(500)] * 3 + [Turn.fail(429, retry_after=3600)]) as server:
        async with OpenAIChatModel(
            "m", base_url=server.base_url, retry=RetryPolicy(attempts=3, clock=waits)
        ) as model:
            agent = Agent(model, scenario.TOOLS)
            with pytest.raises(ModelFailed):
                await agent.run("hello")
            assert len(server.requests) == 3 and len(waits.sleeps) == 2
            with pytest.raises(ModelFailed):
                await agent.run("again")
    assert len(server.requests) == 4 and len(waits.sleeps) == 2


class _Resp:
    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers


class _StatusError(Exception):
    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        self.status_code = status
        self.response = _Resp(headers or {})


class APIConnectionError(Exception):
    """Named like the SDKs' connection error class."""


def test_classification_and_retry_after_forms() -> None:
    assert transient(_StatusError(429)) and transient(_StatusError(529))
    assert not transient(_StatusError(400)) and not transient(_StatusError(404))
    assert transient(APIConnectionError()) and transient(ConnectionResetError())
    assert not transient(ValueError())
    assert retry_after(_StatusError(429, {"retry-after": "2.5"})) == 2.5
    assert retry_after(_StatusError(429, {"retry-after-ms": "1500"})) == 1.5
    date = email.utils.formatdate(time.time() + 3600, usegmt=True)
    waited = retry_after(_StatusError(429, {"retry-after": date}))
    assert waited is not None and 3000 < waited <= 3600
    assert retry_after(_StatusError(429, {"retry-after": "soon"})) is None
    assert retry_after(_StatusError(429)) is None
