"""Any catalog: duplicate names across servers and names no model API accepts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from callgate import Catalog
from callgate.contract import NAME_RULE
from callgate.retrieval import ToolIndex, gate_name, server_tools
from tests.conftest import RETRIEVAL, needs

SEARCH = {"name": "search", "description": "Search issues.", "inputSchema": {"type": "object"}}


@needs(*RETRIEVAL, extra="retrieval")
def test_duplicate_names_across_servers_are_all_indexed() -> None:
    made = server_tools(
        {
            "github": [SEARCH],
            "jira": [{**SEARCH, "description": "Search tickets."}],
            "my server/v2": [{**SEARCH, "description": "Search the wiki pages."}],
        }
    )
    names = [t.name for t in made.tools]
    assert names == ["github_search", "jira_search", "my_server_v2_search"]
    assert {t.metadata["source_name"] for t in made.tools} == {"search"}
    Catalog(made.tools)  # the gate accepts every name
    index = ToolIndex(made.tools)
    assert index.search("search jira", 1)[0].tool.name == "jira_search"
    assert index.search("wiki pages", 1)[0].tool.name == "my_server_v2_search"


@needs(*RETRIEVAL, extra="retrieval")
def test_names_no_model_api_accepts_get_usable_gate_names() -> None:
    long = "x" * 80
    made = server_tools(
        {
            "vectra": [
                {"name": "Summarize Detection", "description": "Summary of a detection."},
                {"name": "math/add", "description": "Add numbers."},
                {"name": long, "description": "Long."},
                {"name": "", "description": "No name."},
                {"description": "No name at all."},
                {"name": "bad_schema", "inputSchema": "not an object"},
                "not a declaration",  # type: ignore[list-item]  # hostile input
            ]
        }
    )
    assert all(NAME_RULE.match(t.name) for t in made.tools)
    declared = [t.metadata["source_name"] for t in made.tools]
    assert declared == ["Summarize Detection", "math/add", long]
    reasons = [s[2] for s in made.skipped]
    assert reasons[:2] == ["no tool name", "no tool name"] and reasons[3] == "not a JSON object"
    assert made.skipped[2][1] == "bad_schema" and "JSON object" in reasons[2]
    index = ToolIndex(made.tools)
    hit = index.search("summarize detection", 1)[0]
    assert hit.tool.name == "vectra_Summarize_Detection"
    # A query quoting the declared name finds it too.
    assert index.search("call math/add", 1)[0].tool.metadata["source_name"] == "math/add"


def test_openai_declarations_are_renamed_inside_the_function() -> None:
    decl = {"type": "function", "function": {"name": "get time", "parameters": {"type": "object"}}}
    (tool,) = server_tools({"clock": [decl]}).tools
    assert tool.name == "clock_get_time" and tool.metadata["source_name"] == "get time"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=70), st.text(min_size=1, max_size=90)), max_size=12))
def test_gate_names_are_valid_and_unique(pairs: list[tuple[str, str]]) -> None:
    taken: set[str] = set()
    for server, name in pairs:
        made = gate_name(server, name, taken)
        assert NAME_RULE.match(made) and made not in taken
        taken.add(made)
