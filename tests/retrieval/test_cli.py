"""`callgate search "query" --catalog CATALOG [-k 8]`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from callgate.cli import app


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


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
    assert "score" in out and "bm25" in out


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
