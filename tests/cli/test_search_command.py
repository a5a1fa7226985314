"""`callgate search "query" --catalog CATALOG [-k 8]`."""

from __future__ import annotations

import json
from pathlib import Path

from callgate.lint import load_catalog
from callgate.retrieval import ToolIndex
from tests.cli.helpers import cli
from tests.conftest import RETRIEVAL, require

require(*RETRIEVAL, extra="retrieval")


def _cli(*args: str) -> tuple[int, str, str]:
    ran = cli(*args)
    return ran.code, ran.stdout, ran.stderr


def _catalog(tmp_path: Path) -> Path:
    path = tmp_path / "tools.json"
    path.write_text(
        json.dumps(
            [
                {
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "description": "Weather forecast for a city.",
                        "parameters": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                        },
                    },
                },
                {
                    "name": "convert_currency",
                    "description": "Convert money between currencies.",
                    "inputSchema": {"type": "object", "properties": {"amount": {"type": "number"}}},
                },
                {
                    "name": "sales.report",
                    "description": "Отчёт о продажах за месяц.",
                    "parameters": {"type": "dict", "properties": {"month": {"type": "string"}}},
                },
            ]
        ),
        encoding="utf-8",
    )
    return path


def test_search_prints_ranked_tools_with_scores(tmp_path: Path) -> None:
    code, out, _ = _cli(
        "search", "weather forecast in Paris", "--catalog", str(_catalog(tmp_path)), "-k", "2"
    )
    assert code == 0
    assert "get_weather" in out and "Weather forecast for a city." in out
    assert "bm25" in out and "score" not in out  # the fused score is an order, not a score


def test_search_shows_what_the_index_returns(tmp_path: Path) -> None:
    path = _catalog(tmp_path)
    tools = [e.tool for e in load_catalog(str(path)) if e.tool is not None]
    hits = ToolIndex(tools).search("convert money", 3)
    code, out, _ = _cli("search", "convert money", "-c", str(path), "--json", "-k", "3")
    shown = json.loads(out)["hits"]
    assert code == 0 and [h["name"] for h in shown] == [h.tool.name for h in hits]
    assert [h["bm25"] for h in shown] == [h.lexical_score for h in hits]
    assert [h["rank"] for h in shown] == list(range(1, len(hits) + 1))
    assert all("score" not in h for h in shown)


def test_search_as_json_in_russian(tmp_path: Path) -> None:
    code, out, _ = _cli("search", "отчеты о продажах", "-c", str(_catalog(tmp_path)), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["tools"] == 3
    assert [h["name"] for h in data["hits"]] == ["sales_report"]
    assert data["hits"][0]["rank"] == 1 and data["hits"][0]["bm25"] > 0


def test_search_exit_codes(tmp_path: Path) -> None:
    code, out, _ = _cli("search", "zzzz", "--catalog", str(_catalog(tmp_path)))
    assert code == 1 and "No tool among 3 matches" in out
    code, _, err = _cli("search", "weather", "--catalog", str(tmp_path / "missing.json"))
    assert code == 2 and "error:" in err


def test_search_a_bfcl_file(data_dir: Path) -> None:
    code, out, err = _cli(
        "search",
        "area of a triangle with base and height",
        "-c",
        str(data_dir / "bfcl" / "BFCL_v4_simple_python.json"),
        "--json",
        "-k",
        "3",
    )
    assert code == 0
    assert "calculate_triangle_area" in [h["name"] for h in json.loads(out)["hits"]]
    assert "skipped" in err  # BFCL repeats names with different docs: the first one counts


def test_search_a_module_attribute() -> None:
    code, out, _ = _cli(
        "search",
        "reserve a table for dinner",
        "--catalog",
        "tests.retrieval.tools:CATALOG",
        "-k",
        "1",
        "--json",
    )
    assert code == 0
    assert [h["name"] for h in json.loads(out)["hits"]] == ["book_restaurant"]
