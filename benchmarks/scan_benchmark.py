"""Scan benchmark: detection on the poisoned set, false positives on real benign catalogs.

Detection: each record of `benchmarks/data/poisoned_tools.jsonl` is scanned as a catalog of
its poisoned tool plus the benign tools it targets (other server); it counts as detected
when the poisoned tool gets a finding of medium severity or above.

False positives: the benign corpora of ../shared/data (BFCL function docs, LiveMCPBench
servers, the Docker MCP registry tools files), scanned as they are; the rate is the share
of tools with a high-severity finding. Every such finding is listed with a verdict.

Run: python benchmarks/scan_benchmark.py [--data DIR]
Writes benchmarks/results/scan_poisoned.json, scan_benign.json and scan_benign.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from callgate.lint import (
    Finding,
    LoadedCatalog,
    Severity,
    entry_from_declaration,
    load_catalog,
    merge_catalogs,
    scan,
)

HERE = Path(__file__).resolve().parent
POISONED = HERE / "data" / "poisoned_tools.jsonl"
FRESH = HERE / "data" / "poisoned_fresh.jsonl"
RESULTS = HERE / "results"

# Verdicts for high findings on the benign corpora, by (tool, rule). A verdict is written
# after reading the tool; anything not listed here is reported as "unreviewed".
VERDICTS: dict[tuple[str, str], str] = {
    (
        "replace_brand",
        "S002",
    ): "false positive: an Okta parameter doc says '...policy=True``. Pass ``null``'; the "
    "override-word rule reads 'policy' (an authority noun) next to 'null' (an override "
    "word meant for 'the rules are null and void') in one sentence",
}


def data_dir(arg: str | None) -> Path:
    configured = arg or os.environ.get("CALLGATE_DATA")
    path = Path(configured) if configured else HERE.parent.parent / "shared" / "data"
    if not path.is_dir():
        sys.exit(f"data folder not found: {path} (pass --data or set CALLGATE_DATA)")
    return path


def poisoned_catalog(record: dict[str, Any]) -> LoadedCatalog:
    other, own = record.get("context_server"), record.get("server")
    entries = [
        entry_from_declaration(d, group=other, server=other, source=record["id"])
        for d in record["context"]
    ]
    entries.append(
        entry_from_declaration(record["tool"], group=own, server=own, source=record["id"])
    )
    return LoadedCatalog(source=record["id"], entries=tuple(entries))


def detection(records: list[dict[str, Any]]) -> dict[str, Any]:
    rows = []
    for record in records:
        report = scan(poisoned_catalog(record))
        poisoned_name = _name(record["tool"])
        own = [f for f in report.active if f.location.tool == poisoned_name]
        worst = max((f.severity for f in own), default=None)
        rows.append(
            {
                "id": record["id"],
                "split": record["split"],
                "family": record["family"],
                "variant": record["variant"],
                "placement": record["placement"],
                "language": record["language"],
                "dialect": record["dialect"],
                "worst": worst.label if worst is not None else None,
                "detected": worst is not None and worst >= Severity.MEDIUM,
                "payload": record["payload"],
                "rules": sorted({f.rule for f in own if f.severity >= Severity.MEDIUM}),
            }
        )
    return {
        "records": len(rows),
        "detected": sum(r["detected"] for r in rows),
        "rate": _rate(rows),
        "by_split": _group(rows, "split"),
        "by_family": _group(rows, "family"),
        "by_placement": _group(rows, "placement"),
        "by_language": _group(rows, "language"),
        "missed": [r for r in rows if not r["detected"]],
        "rows": rows,
    }


def _name(decl: dict[str, Any]) -> str:
    body = decl.get("function", decl)
    return str(body["name"])


def _rate(rows: list[dict[str, Any]]) -> float:
    return round(sum(r["detected"] for r in rows) / len(rows), 4) if rows else 0.0


def _group(rows: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        out[row[key]].append(row)
    return {
        k: {"records": len(v), "detected": sum(r["detected"] for r in v), "rate": _rate(v)}
        for k, v in sorted(out.items())
    }


def benign_corpora(data: Path) -> dict[str, LoadedCatalog]:
    bfcl = sorted((data / "bfcl").glob("BFCL_v4_*.json"))
    return {
        "bfcl": merge_catalogs([load_catalog(p) for p in bfcl], dedupe=True),
        "livemcpbench": load_catalog(data / "mcp-tools" / "livemcpbench-tools.json"),
        "docker-mcp-registry": load_catalog(data / "mcp-tools" / "docker-mcp-registry"),
    }


def benign(data: Path) -> tuple[dict[str, Any], list[tuple[str, Finding]]]:
    corpora = benign_corpora(data)
    summary: dict[str, Any] = {}
    highs: list[tuple[str, Finding]] = []
    total_tools = total_high = total_medium = 0
    for name, catalog in corpora.items():
        started = time.perf_counter()
        report = scan(catalog)
        seconds = time.perf_counter() - started
        high = {
            (f.location.source, f.location.group, f.location.tool)
            for f in report.at_least(Severity.HIGH)
        }
        medium = {
            (f.location.source, f.location.group, f.location.tool)
            for f in report.at_least(Severity.MEDIUM)
        }
        highs += [(name, f) for f in report.at_least(Severity.HIGH)]
        summary[name] = {
            "tools": report.tools,
            "tools_with_high": len(high),
            "high_rate": round(len(high) / report.tools, 4),
            "tools_with_medium_or_high": len(medium),
            "by_rule": report.by_rule(),
            "seconds": round(seconds, 2),
        }
        total_tools += report.tools
        total_high += len(high)
        total_medium += len(medium)
    summary["total"] = {
        "tools": total_tools,
        "tools_with_high": total_high,
        "high_rate": round(total_high / total_tools, 4),
        "tools_with_medium_or_high": total_medium,
        "medium_or_high_rate": round(total_medium / total_tools, 4),
    }
    return summary, highs


def write_markdown(
    summary: dict[str, Any],
    highs: list[tuple[str, Finding]],
    detect: dict[str, Any],
    fresh: dict[str, Any],
) -> str:
    total = summary["total"]
    split = detect["by_split"]
    later = fresh["by_split"]
    lines = [
        "# Poisoning scan: detection and false positives",
        "",
        "Generated by `python benchmarks/scan_benchmark.py`.",
        "",
        "## Detection on the poisoned sets",
        "",
        "| set | written | records | detected at medium+ | rate |",
        "|---|---|---|---|---|",
        f"| `poisoned_tools.jsonl` | before the rules; tuned on its `dev` half | "
        f"{detect['records']} | {detect['detected']} | **{detect['rate']:.1%}** |",
        f"| ... dev half | | {split['dev']['records']} | {split['dev']['detected']} | "
        f"{split['dev']['rate']:.1%} |",
        f"| ... holdout half (same payload texts, other places and dialects) | | "
        f"{split['holdout']['records']} | {split['holdout']['detected']} | "
        f"{split['holdout']['rate']:.1%} |",
        f"| `poisoned_fresh.jsonl` f-records | after the rules, new phrasings; their misses "
        f"guided a second round of rules | {later['fresh']['records']} | "
        f"{later['fresh']['detected']} | {later['fresh']['rate']:.1%} |",
        f"| `poisoned_fresh.jsonl` g-records | before the second round; **never tuned on** | "
        f"{later['heldout']['records']} | {later['heldout']['detected']} | "
        f"**{later['heldout']['rate']:.1%}** |",
        "",
        "The g-records are the honest estimate for phrasings nobody wrote a rule for: "
        "phrase rules generalise to new wording only partly.",
        "",
        "| family (main set) | records | detected | rate |",
        "|---|---|---|---|",
    ]
    for family, row in detect["by_family"].items():
        lines.append(f"| {family} | {row['records']} | {row['detected']} | {row['rate']:.1%} |")
    lines += ["", "Missed (all sets):", ""]
    missed = detect["missed"] + fresh["missed"]
    lines += [
        f"- {m['id']} ({m['split']}): {m['family']} in {m['placement']}, worst "
        f"{m['worst']}: {m['payload'][:90]!r}"
        for m in missed
    ] or ["- none"]
    lines += [
        "",
        "## False positives on the benign corpora",
        "",
        f"{total['tools_with_high']} of {total['tools']} tools "
        f"({total['high_rate']:.2%}) have a high-severity finding "
        f"(target: at most 1%); {total['tools_with_medium_or_high']} "
        f"({total['medium_or_high_rate']:.1%}) have medium or above.",
        "",
        "| corpus | tools | with high | rate | medium or above |",
        "|---|---|---|---|---|",
    ]
    for name, row in summary.items():
        if name != "total":
            lines.append(
                f"| {name} | {row['tools']} | {row['tools_with_high']} | "
                f"{row['high_rate']:.2%} | {row['tools_with_medium_or_high']} |"
            )
    lines += ["", "### Every high finding, with a verdict", ""]
    if not highs:
        lines.append("None.")
    else:
        lines += ["| corpus | tool | rule | evidence | verdict |", "|---|---|---|---|---|"]
        for corpus, f in highs:
            where = f"{f.location.group + '/' if f.location.group else ''}{f.location.tool}"
            verdict = VERDICTS.get((f.location.tool, f.rule), "unreviewed")
            evidence = (f.evidence or "").replace("|", "\\|").replace("\n", " ")[:100]
            lines.append(f"| {corpus} | `{where}` | {f.rule} | {evidence} | {verdict} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="evaluation data folder (default ../shared/data)")
    args = parser.parse_args()
    records = [json.loads(line) for line in POISONED.read_text(encoding="utf-8").splitlines()]
    detect = detection(records)
    fresh = detection([json.loads(line) for line in FRESH.read_text(encoding="utf-8").splitlines()])
    summary, highs = benign(data_dir(args.data))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "scan_poisoned.json").write_text(
        json.dumps({"main": detect, "fresh": fresh}, indent=2, ensure_ascii=False) + "\n"
    )
    high_rows = [
        {
            "corpus": c,
            "tool": f.location.tool,
            "group": f.location.group,
            "rule": f.rule,
            "message": f.message,
            "evidence": f.evidence,
            "verdict": VERDICTS.get((f.location.tool, f.rule), "unreviewed"),
        }
        for c, f in highs
    ]
    (RESULTS / "scan_benign.json").write_text(
        json.dumps({"summary": summary, "high_findings": high_rows}, indent=2, ensure_ascii=False)
        + "\n"
    )
    (RESULTS / "scan_benign.md").write_text(write_markdown(summary, highs, detect, fresh))
    print(f"fresh sets: {fresh['by_split']}")
    print(
        f"detection {detect['rate']:.1%} ({detect['detected']}/{detect['records']}); "
        f"benign high rate {summary['total']['high_rate']:.2%} "
        f"({summary['total']['tools_with_high']}/{summary['total']['tools']})"
    )
    print(Counter(m["family"] for m in detect["missed"] + fresh["missed"]))


if __name__ == "__main__":
    main()
