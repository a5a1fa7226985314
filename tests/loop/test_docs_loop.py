"""docs/loop.md's first example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

from callgate.loop import Agent, RunResult
from tests.conftest import RETRIEVAL, needs
from tests.models.scenario import OPENAI_OVER_HTTP

ROOT = Path(__file__).resolve().parents[2]


@OPENAI_OVER_HTTP
def test_loop_doc_example_runs() -> None:
    text = (ROOT / "docs" / "loop.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S)
    assert block is not None
    namespace: dict[str, object] = {"__name__": "docs_loop"}
    exec(compile(block.group(1), "docs/loop.md", "exec"), namespace)
    result = namespace["result"]
    assert isinstance(result, RunResult)
    assert result.answer == "Sunny in Malmö for the next three days."
    routes = [r.route.value for r in result.calls]
    assert routes == ["invalid", "completed"]  # the model corrected its call


@needs(*RETRIEVAL, extra="retrieval")
async def test_large_catalogs_example_builds_a_working_agent() -> None:
    from callgate import Context
    from callgate.models import ScriptedModel, Turn
    from tests.loop.selecting import POLICY
    from tests.retrieval.tools import catalog

    text = (ROOT / "docs" / "loop.md").read_text()
    section = text.split("## Large catalogs", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    model = ScriptedModel([Turn.say("Sunny.")])
    namespace: dict[str, object] = {
        "__name__": "docs_loop_large",
        "tools": catalog(),
        "policy": POLICY,
        "context": Context(principal="ann"),
        "model": model,
        "store": None,
    }
    exec(compile(block.group(1), "docs/loop.md", "exec"), namespace)
    agent = namespace["agent"]
    assert isinstance(agent, Agent)
    assert (await agent.run("What is the weather in Oslo?")).answer == "Sunny."
    offered = [t.name for t in model.requests[0].tools]
    assert offered[0] == "tool_search" and "get_weather" in offered
    assert "delete_account" not in offered and len(offered) < len(catalog())
