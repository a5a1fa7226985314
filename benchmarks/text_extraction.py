"""Text mode: share of model outputs whose calls are extracted exactly right.

Three readers over the same corpus (`tests/dialects/data/text_corpus.jsonl`, built by
`benchmarks/text_corpus.py`), in the same run:

* `json.loads` alone: the whole output parsed as JSON;
* `json-repair` alone: the whole output repaired and parsed;
* callgate's `extract_calls`.

The two baselines read call shapes ({"name", "arguments"|"parameters"}, arrays,
`tool_calls`) and names exactly as callgate does, so only the finding and repairing of
calls differ. A case is right when the list of (tool, arguments) equals the expected one,
in order; for text that calls no tool, when nothing is extracted.

    python benchmarks/text_extraction.py   # prints a table, writes results/text_extraction.json
"""

from __future__ import annotations

import json
import platform
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import json_repair

from callgate.contract import Tool, tool_from_declaration
from callgate.dialects import extract_calls
from callgate.dialects._text_decode import calls_from_value

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "dialects" / "data" / "text_corpus.jsonl"
RESULTS = ROOT / "benchmarks" / "results" / "text_extraction.json"

Reader = Callable[[str, list[Tool]], list[tuple[str, Any]]]


def callgate(output: str, tools: list[Tool]) -> list[tuple[str, Any]]:
    return [(c.name, c.arguments) for c in extract_calls(output, tools).calls]


def json_loads_alone(output: str, tools: list[Tool]) -> list[tuple[str, Any]]:
    try:
        value = json.loads(output)
    except ValueError:
        return []
    return _known(value, tools)


def json_repair_alone(output: str, tools: list[Tool]) -> list[tuple[str, Any]]:
    try:
        value = json_repair.loads(output)
    except Exception:  # json_repair raises assorted errors on hopeless input
        return []
    return _known(value, tools)


def _known(value: Any, tools: list[Tool]) -> list[tuple[str, Any]]:
    names = {t.metadata.get("source_name", t.name): t.name for t in tools}
    names.update({t.name: t.name for t in tools})
    out = []
    for raw in calls_from_value(value, []):
        if raw.name in names:
            out.append((names[raw.name], raw.arguments))
    return out


READERS: dict[str, Reader] = {
    "json.loads alone": json_loads_alone,
    "json-repair alone": json_repair_alone,
    "callgate extract_calls": callgate,
}


def load() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]


def tools_of(case: dict[str, Any]) -> list[Tool]:
    made: dict[str, Tool] = {}
    for decl in case["tools"]:
        tool = tool_from_declaration(decl)
        made.setdefault(tool.name, tool)
    return list(made.values())


def right(got: list[tuple[str, Any]], case: dict[str, Any]) -> bool:
    want = [(c["name"], c["arguments"]) for c in case["expected"]]
    return got == want


def main() -> None:
    cases = load()
    hits: dict[str, Counter[str]] = defaultdict(Counter)
    totals: Counter[str] = Counter()
    for case in cases:
        tools = tools_of(case)
        totals[case["form"]] += 1
        for label, reader in READERS.items():
            if right(reader(case["output"], tools), case):
                hits[label][case["form"]] += 1
    report = _report(cases, hits, totals)
    _print(report)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")


def _report(
    cases: list[dict[str, Any]], hits: dict[str, Counter[str]], totals: Counter[str]
) -> dict[str, Any]:
    n = len(cases)
    return {
        "corpus": str(CORPUS.relative_to(ROOT)),
        "cases": n,
        "python": platform.python_version(),
        "json_repair": json_repair.__version__
        if hasattr(json_repair, "__version__")
        else "unknown",
        "exact_share": {label: round(sum(hits[label].values()) / n, 4) for label in READERS},
        "by_form": {
            form: {"cases": count, **{label: hits[label][form] for label in READERS}}
            for form, count in sorted(totals.items())
        },
        "target": "callgate >= 0.75 (DESIGN.md, Text mode)",
    }


def _print(report: dict[str, Any]) -> None:
    labels = list(READERS)
    print(f"text-mode extraction, {report['cases']} cases (exactly right)")
    print(f"{'form':<16}{'cases':>6}" + "".join(f"{label:>24}" for label in labels))
    for form, row in report["by_form"].items():
        print(f"{form:<16}{row['cases']:>6}" + "".join(f"{row[label]:>24}" for label in labels))
    print(f"{'share':<22}" + "".join(f"{report['exact_share'][label]:>24.1%}" for label in labels))


if __name__ == "__main__":
    sys.exit(main())
