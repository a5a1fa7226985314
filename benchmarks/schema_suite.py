"""Pass rates of callgate's validation on the JSON Schema Test Suite, optional parts included.

Run: python benchmarks/schema_suite.py   -> benchmarks/results/schema_suite.json
Required tests run as the specification says (format annotates); optional/format runs with
format assertion on, as callgate validates tool arguments.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import RESULTS, data_dir

from callgate import UserError
from callgate.schema import SchemaCompiler, check

DRAFTS = {
    "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft7": "http://json-schema.org/draft-07/schema#",
}


def run_part(folder: Path, draft: str, compiler: SchemaCompiler) -> dict[str, Any]:
    passed = total = 0
    failures: list[str] = []
    for path in sorted(folder.glob("*.json")):
        for group in json.loads(path.read_text()):
            schema = group["schema"]
            if isinstance(schema, dict) and "$schema" not in schema:
                schema = {**schema, "$schema": DRAFTS[draft]}
            for case in group["tests"]:
                total += 1
                try:
                    ok = (not check(compiler.compile(schema), case["data"])) is case["valid"]
                except UserError:
                    ok = False
                passed += ok
                if not ok:
                    failures.append(f"{path.stem}: {group['description']} / {case['description']}")
    return {
        "passed": passed,
        "total": total,
        "rate": round(passed / max(total, 1), 4),
        "failures": failures,
    }


def main() -> None:
    suite = data_dir() / "json-schema-test-suite"
    remotes = suite / "remotes"

    def retrieve(uri: str) -> Any:
        return json.loads((remotes / uri.removeprefix("http://localhost:1234/")).read_text())

    annotate = SchemaCompiler(assert_formats=False, retriever=retrieve)
    assert_ = SchemaCompiler(assert_formats=True, retriever=retrieve)
    report: dict[str, Any] = {}
    for draft in DRAFTS:
        base = suite / "tests" / draft
        report[draft] = {
            "required": run_part(base, draft, annotate),
            "optional": run_part(base / "optional", draft, annotate),
            "optional/format": run_part(base / "optional" / "format", draft, assert_),
        }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "schema_suite.json").write_text(json.dumps(report, indent=2) + "\n")
    for draft, parts in report.items():
        for part, res in parts.items():
            print(f"{draft:13} {part:16} {res['passed']:5}/{res['total']:<5} {res['rate']:.1%}")


if __name__ == "__main__":
    main()
