"""Catalogs load from every dialect, from files, folders, JSON Lines, modules and objects."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from callgate import Catalog, tool
from callgate._errors import UserError
from callgate.lint import ToolEntry, entry_from_declaration, lint, load_catalog, merge_catalogs
from callgate.lint._entry import moved

SCHEMA = {"type": "object", "properties": {"q": {"type": "string", "description": "Query."}}}
MCP = {"name": "notes_search", "description": "Search notes.", "inputSchema": SCHEMA}
DIALECTS: dict[str, Any] = {
    "plain list": [MCP],
    "openai chat": [
        {
            "type": "function",
            "function": {
                "name": "notes_search",
                "description": "Search notes.",
                "parameters": SCHEMA,
            },
        }
    ],
    "openai responses": [
        {
            "type": "function",
            "name": "notes_search",
            "description": "Search notes.",
            "parameters": SCHEMA,
        }
    ],
    "anthropic": [{"name": "notes_search", "description": "Search notes.", "input_schema": SCHEMA}],
    "gemini": {
        "functionDeclarations": [
            {"name": "notes_search", "description": "Search notes.", "parametersJsonSchema": SCHEMA}
        ]
    },
    "gemini tools": [
        {
            "functionDeclarations": [
                {
                    "name": "notes_search",
                    "description": "Search notes.",
                    "parameters": {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}},
                }
            ]
        }
    ],
    "mcp tools/list": {"tools": [MCP], "nextCursor": None},
    "json-rpc response": {"jsonrpc": "2.0", "id": 1, "result": {"tools": [MCP]}},
    "request body": {
        "model": "x",
        "tools": [{"name": "notes_search", "description": "Search notes.", "input_schema": SCHEMA}],
    },
    "legacy arguments": [
        {
            "name": "notes_search",
            "description": "Search notes.",
            "arguments": [{"name": "q", "type": "string", "desc": "Query."}],
        }
    ],
}


@pytest.mark.parametrize("dialect", list(DIALECTS))
def test_every_dialect_reads_the_same_tool(dialect: str, tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(DIALECTS[dialect]))
    catalog = load_catalog(path)
    assert [e.name for e in catalog] == ["notes_search"]
    assert catalog.entries[0].input_schema["properties"]["q"]["type"] == "string"
    assert catalog.entries[0].source_pointer is not None


def test_json_lines_reads_each_doc_once_and_keeps_lines(tmp_path: Path) -> None:
    doc = {
        "name": "math.sum",
        "description": "Add numbers.",
        "parameters": {"type": "dict", "properties": {"a": {"type": "float"}}},
    }
    lines = [{"id": f"q{i}", "question": [], "function": [doc]} for i in range(3)]
    path = tmp_path / "bfcl.json"
    path.write_text("\n".join(json.dumps(x) for x in lines))
    catalog = load_catalog(path)
    assert len(catalog) == 1
    entry = catalog.entries[0]
    assert (entry.line, entry.group, entry.server) == (1, "q0", None)
    assert entry.location("/name").source_pointer == "/function/0/name"


def test_livemcpbench_servers_become_groups(data_dir: Path) -> None:
    catalog = load_catalog(data_dir / "mcp-tools" / "livemcpbench-tools.json")
    assert len(catalog) == 527
    assert len({e.server for e in catalog}) == 70
    assert catalog.problems == ()


def test_docker_registry_folder_reads_every_shape(data_dir: Path) -> None:
    catalog = load_catalog(data_dir / "mcp-tools" / "docker-mcp-registry")
    assert len(catalog) == 755
    shapes = {e.declaration.shape for e in catalog}
    assert {"mcp", "legacy_arguments", "plain"} <= shapes


def test_bfcl_pool_has_the_documented_number_of_docs(data_dir: Path) -> None:
    files = sorted((data_dir / "bfcl").glob("BFCL_v4_*.json"))
    catalog = merge_catalogs([load_catalog(p) for p in files], dedupe=True)
    assert len(catalog) == 3258


def test_legacy_argument_findings_point_at_what_the_author_wrote(tmp_path: Path) -> None:
    path = tmp_path / "legacy.json"
    path.write_text(
        json.dumps(
            [
                {
                    "name": "run_query",
                    "description": "Run one SQL query on the database and return rows.",
                    "arguments": [
                        {"name": "sql", "type": "string"},
                        {"name": "p1", "type": "string", "desc": "x"},
                    ],
                }
            ]
        )
    )
    pointers = {f.location.pointer for f in lint(path, select=["P001", "P008"]).findings}
    assert pointers == {"/arguments/0", "/arguments/1"}


def test_unreadable_declaration_is_a_finding_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps([MCP, {"description": "no name"}, {"name": "x", "inputSchema": "nope"}])
    )
    catalog = load_catalog(path)
    assert [e.name for e in catalog] == ["notes_search"]
    assert [p.rule for p in catalog.problems] == ["C006", "C006"]


def test_module_attribute_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_tools.py").write_text(
        "from callgate import Catalog, tool\n"
        "@tool\n"
        "def get_weather(city: str) -> str:\n"
        "    '''Weather for a city.'''\n"
        "    return city\n"
        "catalog = Catalog([get_weather])\n"
        "tools = [get_weather]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for spec in ("my_tools:catalog", "my_tools:tools"):
        catalog = load_catalog(spec)
        assert [e.name for e in catalog] == ["get_weather"]
        assert catalog.entries[0].trusted
        assert catalog.entries[0].tool is not None
    sys.modules.pop("my_tools", None)


def test_objects_and_catalogs_load_directly() -> None:
    @tool
    def get_time(zone: str) -> str:
        """The time in a zone."""
        return zone

    assert [e.name for e in load_catalog(Catalog([get_time]))] == ["get_time"]
    assert [e.name for e in load_catalog([get_time, MCP])] == ["get_time", "notes_search"]


def test_unknown_spec_is_a_user_error() -> None:
    with pytest.raises(UserError, match="no such file or folder"):
        load_catalog("no/such/file.json")
    with pytest.raises(UserError, match="cannot import"):
        load_catalog("no_such_module_xyz:catalog")


def test_an_entry_takes_its_tool_or_makes_it_when_asked() -> None:
    @tool
    def notes_search(q: str) -> str:
        """Search notes."""
        return q

    read = entry_from_declaration(MCP)
    assert (
        ToolEntry(name="notes_search", raw=MCP, declaration=read.declaration, tool=None).tool
        is None
    )
    given = ToolEntry(name="notes_search", raw=MCP, declaration=read.declaration, tool=notes_search)
    assert given.tool is notes_search
    made = ToolEntry(name="notes_search", raw=MCP, declaration=read.declaration).tool
    kept = read.tool
    assert made is not None and kept is not None and made.fingerprint == kept.fingerprint
    assert replace(read, group="notes").tool is kept
    assert moved(entry_from_declaration(MCP), group="notes").tool is not None
    other = entry_from_declaration({**MCP, "name": "notes_delete"})
    assert other.tool is not None and other.tool.name == "notes_delete"
    assert moved(read, declaration=other.declaration).tool is not None
    renewed = moved(read, declaration=other.declaration).tool
    assert renewed is not None and renewed.name == "notes_delete"
