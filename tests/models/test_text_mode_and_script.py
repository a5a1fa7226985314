"""A model without native tools (text mode) over an OpenAI-compatible server; the script."""

from __future__ import annotations

import pytest

from callgate import tool
from callgate.dialects import Message
from callgate.loop import Agent
from callgate.models import (
    FakeOpenAIChatServer,
    ModelRequest,
    OpenAIChatModel,
    ScriptedModel,
    ScriptExhausted,
    Turn,
    model_from_spec,
)
from tests.conftest import needs
from tests.models.scenario import OPENAI_OVER_HTTP


@tool(effect="read")
def get_weather(city: str) -> str:
    """Weather for a city."""
    return f"{city}: sunny"


@OPENAI_OVER_HTTP
async def test_text_mode_puts_tools_in_the_prompt_and_reads_calls_from_text() -> None:
    turns = [
        Turn.say(
            '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>'
        ),
        Turn.say("Oslo is sunny."),
    ]
    with FakeOpenAIChatServer(turns) as server:
        async with OpenAIChatModel("llama", base_url=server.base_url, native_tools=False) as model:
            result = await Agent(model, [get_weather]).run("Weather in Oslo?")
    assert result.answer == "Oslo is sunny."
    assert [(r.call.name, r.route.value) for r in result.calls] == [("get_weather", "completed")]
    first, second = (r.body for r in server.requests)
    assert "tools" not in first
    assert "get_weather" in first["messages"][0]["content"]  # the system prompt lists it
    assert first["messages"][0]["role"] == "system"
    # The model sees its own call as it wrote it, then the result as text.
    assert "<tool_call>" in second["messages"][-2]["content"]
    assert "Oslo: sunny" in second["messages"][-1]["content"]


async def test_scripted_model_runs_out_clearly() -> None:
    model = ScriptedModel([Turn.say("one")])
    request = ModelRequest(messages=(Message(role="user", text="hi"),))
    turns = [t async for t in model.respond(request)]
    assert turns[-1].text == "one"  # type: ignore[union-attr]
    with pytest.raises(ScriptExhausted):
        async for _ in model.respond(request):
            pass


@needs("openai", extra="openai")
def test_model_specs() -> None:
    model = model_from_spec("openai:gpt-x", base_url="http://127.0.0.1:9/v1")
    assert model.name == "gpt-x" and model.provider == "openai"
    with pytest.raises(Exception, match="PROVIDER:MODEL"):
        model_from_spec("gpt-x")
