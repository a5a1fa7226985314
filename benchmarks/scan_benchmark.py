"""Scan benchmark: detection on poisoned sets, false positives on hard-benign sets and real
catalogs, the cost per 1,000 tools and per 1,000 characters of untrusted text.

Three methods run in the same invocation, each scanner in a fresh process:

- `scan`: this revision;
- `previous`: the scanner at `--baseline-rev` (the phrase-list scanner this branch started
  from), unpacked from git history and run on the same inputs;
- `regex`: the strongest simple method, a list of well-known injection patterns over the
  declaration's JSON text (any match counts as a high finding).

Sets: the development sets the rules were written against (`poisoned_tools.jsonl`,
`poisoned_fresh.jsonl`, `poisoned_dev.jsonl`, `benign_hard_dev.jsonl`, and
`benign_hard_unseen.jsonl`, `benign_hard_fresh.jsonl`, `benign_hard_fresh3.jsonl` and
`benign_hard_fresh4.jsonl`, each unseen until its false positives were worked on) and the
unseen sets, never tuned on (`poisoned_unseen.jsonl`, written before the rule work, and
`benign_hard_fresh2.jsonl`, written before the work on the first fresh set), reported side
by side. A record is detected when its poisoned tool gets a finding at medium or above
(and, separately, at high); a hard-benign record is a false positive when its tool gets a
high finding. The real corpora of ../shared/data (BFCL, LiveMCPBench, the Docker MCP
registry) count tools with a high finding; every such finding is listed with a verdict.
The real corpora were read while the false-positive rules were written: they are
development data for false positives, not unseen.

Run: python benchmarks/scan_benchmark.py [--data DIR] [--baseline-rev REV] [--cli-rev REV]
[--cli-only | --cli-update] [--cli-runs N]
Writes benchmarks/results/scan_benchmark.json and scan_benign.md (the tables).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from _data import RESULTS, ROOT, source_at

HERE = Path(__file__).resolve().parent
BASELINE_REV = "4d09b9d"
"""The revision this branch started from: the phrase-list scanner."""
DEV_SETS = ("poisoned_tools", "poisoned_fresh", "poisoned_dev")
UNSEEN_SETS = ("poisoned_unseen",)
BENIGN_SETS = {
    "benign_hard_dev": "dev",
    "benign_hard_unseen": "dev_earlier",
    "benign_hard_fresh": "dev_fresh",
    "benign_hard_fresh2": "unseen",
    "benign_hard_fresh3": "dev_fresh3",
    "benign_hard_fresh4": "dev_fresh4",
}
"""Hard-benign sets by split: `benign_hard_unseen` and then `benign_hard_fresh` were the
unseen set until their false positives were worked on, and are development sets since;
`benign_hard_fresh2` was written before the work on `benign_hard_fresh`, measured once
before any rule change (`results/scan_benign_fresh2_first.json`, counts only) and once at
the end, and is the unseen set; `benign_hard_fresh3` was written after that measurement,
measured once with the rules unchanged (`results/scan_benign_fresh3_first.json`) and
worked on since, and `benign_hard_fresh4` after the work on it, in the same way
(`results/scan_benign_fresh4_first.json`)."""
CORPORA = ("bfcl", "livemcpbench", "docker-mcp-registry")
METHODS = ("scan", "previous", "regex")

# Verdicts for high findings on the real corpora, by (tool, rule), written after reading
# the tool; anything not listed is reported as "unreviewed".
VERDICTS: dict[tuple[str, str], str] = {
    (
        "replace_brand",
        "S002",
    ): "false positive: an Okta parameter doc says '...policy=True``. Pass ``null``'; the "
    "override-word rule reads 'policy' (an authority noun) next to 'null' (an override "
    "word meant for 'the rules are null and void') in one sentence",
}

# --- the regex baseline ----------------------------------------------------------------------

_REGEX = re.compile(
    "|".join(
        (
            r"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?"
            r"(?:previous|prior|above|earlier|preceding)\s+(?:instructions|prompts?|rules|context)",
            r"</?(?:system|important|instructions?|admin|assistant)\s*>",
            r"\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention|reveal|show)\b.{0,30}\buser\b",
            r"\b(?:you\s+are\s+now|act\s+as|pretend\s+to\s+be|new\s+instructions)\b",
            r"\bsystem\s+prompt\b",
            r"~/\.ssh|\bid_rsa\b|(?<![\w.])\.env\b|/etc/passwd|\.aws/credentials",
            r"\b(?:curl|wget)\b[^|\n]{0,200}\|\s*(?:ba)?sh\b",
            r"\b(?:bit\.ly|tinyurl\.com|ngrok|webhook\.site|requestbin|pipedream)\b",
            r"\b(?:always|must)\s+(?:call|use|run)\s+this\s+(?:tool|function)\s+(?:first|before)",
            r"\b(?:send|forward|post|upload)\b.{0,40}\b(?:conversation|chat\s+history|api\s+key|"
            r"password|token|secret)s?\b",
            r"[A-Za-z0-9+/]{40,}={0,2}",
            "[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\U000e0000-\U000e007f]",
        )
    ),
    re.IGNORECASE,
)


def regex_flags(declaration: Any) -> bool:
    return _REGEX.search(json.dumps(declaration, ensure_ascii=False)) is not None


# --- inputs ----------------------------------------------------------------------------------


def data_dir(arg: str | None) -> Path:
    configured = arg or os.environ.get("CALLGATE_DATA")
    path = Path(configured) if configured else ROOT.parent / "shared" / "data"
    if not path.is_dir():
        sys.exit(f"data folder not found: {path} (pass --data or set CALLGATE_DATA)")
    return path


def records(name: str) -> list[dict[str, Any]]:
    text = (HERE / "data" / f"{name}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def tool_name(declaration: dict[str, Any]) -> str:
    return str(declaration.get("function", declaration)["name"])


def untrusted_texts(data: Path) -> list[str]:
    """Distinct model outputs of BFCL-Result: free text with code, JSON and prose, written
    by models, as a tool result is."""
    path = data / "bfcl-result-dev" / "broken_outputs.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        texts = {json.loads(line)["text"] for line in handle}
    return sorted(t for t in texts if isinstance(t, str) and t.strip())


# --- one scanner, in a child process ----------------------------------------------------------


def record_catalog(record: dict[str, Any]) -> Any:
    """A set record's catalog: its context tools on their server, then the tool itself
    (imported here, so a child process reads the revision on its own path)."""
    from callgate.lint import LoadedCatalog, entry_from_declaration

    other, own = record.get("context_server"), record.get("server")
    entries = [
        entry_from_declaration(d, group=other, server=other, source=record["id"])
        for d in record["context"]
    ]
    entries.append(
        entry_from_declaration(record["tool"], group=own, server=own, source=record["id"])
    )
    return LoadedCatalog(source=record["id"], entries=tuple(entries))


def child(data: Path) -> dict[str, Any]:
    """Everything measured on the `callgate` this process imports."""
    from callgate.lint import Severity, scan

    def worst(record: dict[str, Any]) -> int:
        report = scan(record_catalog(record))
        name = tool_name(record["tool"])
        return max((int(f.severity) for f in report.active if f.location.tool == name), default=0)

    out: dict[str, Any] = {"sets": {}, "corpora": {}}
    for name in (*DEV_SETS, *UNSEEN_SETS, *BENIGN_SETS):
        out["sets"][name] = {r["id"]: worst(r) for r in records(name)}
    for name, loaded in _corpora(data).items():
        started = time.process_time()
        report = scan(loaded)
        seconds = time.process_time() - started
        high = [f for f in report.active if f.severity >= Severity.HIGH]
        medium = {_key(f) for f in report.active if f.severity >= Severity.MEDIUM}
        out["corpora"][name] = {
            "tools": report.tools,
            "tools_with_high": len({_key(f) for f in high}),
            "tools_with_medium_or_high": len(medium),
            "cpu_s": round(seconds, 3),
            "high_findings": [
                {
                    "tool": f.location.tool,
                    "group": f.location.group,
                    "rule": f.rule,
                    "message": f.message,
                    "evidence": f.evidence,
                }
                for f in high
            ],
        }
    out["text_cost"] = _text_cost(data)
    return out


def _key(finding: Any) -> tuple[str, str, str]:
    loc = finding.location
    return (str(loc.source), str(loc.group), str(loc.tool))


def _corpora(data: Path) -> dict[str, Any]:
    from callgate.lint import load_catalog, merge_catalogs

    bfcl = sorted((data / "bfcl").glob("BFCL_v4_*.json"))
    return {
        "bfcl": merge_catalogs([load_catalog(p) for p in bfcl], dedupe=True),
        "livemcpbench": load_catalog(data / "mcp-tools" / "livemcpbench-tools.json"),
        "docker-mcp-registry": load_catalog(data / "mcp-tools" / "docker-mcp-registry"),
    }


TEXT_PASSES = 5
"""Passes over the untrusted texts per function: the machine is shared, so each cost is
the median (and the best) of these."""


def _text_cost(data: Path) -> dict[str, Any]:
    """CPU per 1,000 characters of untrusted text, each text read once per pass (a cold
    cache, as for tool results, which rarely repeat): `scan_text`, which both revisions
    have, and `scan_result` where it exists; and how many of these benign texts get a
    high finding."""
    import callgate.lint as lint

    texts = untrusted_texts(data)
    chars = sum(len(t) for t in texts)
    out: dict[str, Any] = {"texts": len(texts), "chars": chars, "passes": TEXT_PASSES}
    functions = {"scan_text": lint.scan_text}
    if hasattr(lint, "scan_result"):
        functions["scan_result"] = lint.scan_result
    for name, function in functions.items():
        runs, flagged = [], 0
        for n in range(TEXT_PASSES):
            # a text is scanned once per process: suffix each so no cache serves it again
            started = time.process_time()
            found = [_worst(function(f"{t}\n[{name} {n}]")) >= 3 for t in texts]
            runs.append((time.process_time() - started) * 1e6 / chars)
            flagged = flagged or sum(found)
        out[name] = {
            "ms_per_1000_chars": round(statistics.median(runs), 4),
            "best_ms_per_1000_chars": round(min(runs), 4),
            "runs": [round(r, 4) for r in runs],
            "flagged": flagged,
        }
    return out


def _worst(found: Any) -> int:
    return max((int(f.severity) for f in found), default=0)


def run_child(source: Path | None, data: Path, script: str = __file__) -> dict[str, Any]:
    """`script --child` run with `source` (a revision's tree; None: this one) first on the path."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source)
    argv = [sys.executable, script, "--child", "--data", str(data)]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def regex_method(data: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"sets": {}, "corpora": {}}
    for name in (*DEV_SETS, *UNSEEN_SETS, *BENIGN_SETS):
        out["sets"][name] = {r["id"]: 3 if regex_flags(r["tool"]) else 0 for r in records(name)}
    from callgate.lint import ToolEntry

    for name, loaded in _corpora(data).items():
        entries: list[ToolEntry] = list(loaded.entries)
        started = time.process_time()
        flagged = sum(regex_flags(e.raw) for e in entries)
        seconds = time.process_time() - started
        out["corpora"][name] = {
            "tools": len(entries),
            "tools_with_high": flagged,
            "tools_with_medium_or_high": flagged,
            "cpu_s": round(seconds, 3),
            "high_findings": [],
        }
    texts = untrusted_texts(data)
    chars = sum(len(t) for t in texts)
    started = time.process_time()
    flagged = sum(_REGEX.search(t) is not None for t in texts)
    seconds = time.process_time() - started
    out["text_cost"] = {
        "texts": len(texts),
        "chars": chars,
        "scan_text": {"ms_per_1000_chars": round(seconds * 1e6 / chars, 4), "flagged": flagged},
    }
    return out


# --- the command line ---------------------------------------------------------------------------


CLI_RUNS = 7


def cli_timing(
    data: Path, work: Path, sources: dict[str, Path | None], rounds: int = CLI_RUNS
) -> dict[str, Any]:
    """Wall and CPU time of `callgate --help` and of `callgate scan` on 1,000 BFCL tools,
    for each revision of `sources` (None: this one), each run `rounds` times in a fresh
    interpreter, the revisions in turn within each round (so a change in the machine's load
    falls on all of them). Every tree is byte-compiled first and each command run once
    untimed, as an installed package is: what is timed is the command, not the compiling
    of its sources (`PYTHONDONTWRITEBYTECODE` would otherwise recompile them every run)."""
    from callgate.lint import load_catalog, merge_catalogs

    bfcl = sorted((data / "bfcl").glob("BFCL_v4_*.json"))
    loaded = merge_catalogs([load_catalog(p) for p in bfcl], dedupe=True)
    catalog = work / "bfcl-1000.json"
    catalog.write_text(json.dumps([e.raw for e in loaded.entries[:1000]]), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    envs = {m: env if s is None else {**env, "PYTHONPATH": str(s)} for m, s in sources.items()}
    for source in sources.values():
        tree = (source or ROOT / "src") / "callgate"
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], check=True, env=env)
    commands = {"help": ["--help"], "scan_1000_tools": ["scan", str(catalog)]}
    runs: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for round_ in range(rounds + 1):
        for method, label in ((m, c) for m in sources for c in commands):
            wall, cpu = _timed([sys.executable, "-c", _CLI, *commands[label]], envs[method], work)
            if round_:  # the first round only warms the file cache
                runs[method, label].append((wall, cpu))
    out: dict[str, Any] = {}
    for (method, label), measured in runs.items():
        walls, cpus = [w for w, _ in measured], [c for _, c in measured]
        out[f"{method}_{label}"] = {
            "median_s": round(statistics.median(walls), 3),
            "best_s": round(min(walls), 3),
            "cpu_median_s": round(statistics.median(cpus), 3),
            "runs_s": [round(t, 3) for t in walls],
        }
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    out["runs"] = rounds
    return out


def _timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user and system) of one run of `argv`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=False, env=env, cwd=cwd)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


_CLI = "import sys; sys.argv[0] = 'callgate'; from callgate.cli import main; main()"


# --- tables ---------------------------------------------------------------------------------------


def rates(method: dict[str, Any], names: tuple[str, ...], threshold: int) -> tuple[int, int]:
    found = [w for n in names for w in method["sets"][n].values()]
    return sum(w >= threshold for w in found), len(found)


def grouped(
    results: dict[str, dict[str, Any]], names: tuple[str, ...], key: str
) -> dict[str, dict[str, Any]]:
    rows = [r for n in names for r in records(n)]
    out: dict[str, dict[str, Any]] = defaultdict(dict)
    for value in sorted({str(r.get(key)) for r in rows}):
        chosen = [r for r in rows if str(r.get(key)) == value]
        out[value]["records"] = len(chosen)
        for method, result in results.items():
            worst = {**{k: v for n in names for k, v in result["sets"][n].items()}}
            out[value][method] = {
                "medium": sum(worst[r["id"]] >= 2 for r in chosen),
                "high": sum(worst[r["id"]] >= 3 for r in chosen),
            }
    return dict(out)


def summary(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    groups = {"dev": DEV_SETS, "unseen": UNSEEN_SETS}
    for method, result in results.items():
        row: dict[str, Any] = {}
        for split, names in groups.items():
            medium, total = rates(result, names, 2)
            high, _ = rates(result, names, 3)
            row[f"poisoned_{split}"] = {
                "records": total,
                "medium_rate": round(medium / total, 4),
                "high_rate": round(high / total, 4),
            }
        for name, split in BENIGN_SETS.items():
            high, total = rates(result, (name,), 3)
            row[f"hard_benign_{split}"] = {"records": total, "high_rate": round(high / total, 4)}
        tools = sum(c["tools"] for c in result["corpora"].values())
        high_tools = sum(c["tools_with_high"] for c in result["corpora"].values())
        cpu = sum(c["cpu_s"] for c in result["corpora"].values())
        row["real_corpora"] = {
            "tools": tools,
            "tools_with_high": high_tools,
            "high_rate": round(high_tools / tools, 5),
            "cpu_s_per_1000_tools": round(cpu * 1000 / tools, 3),
        }
        row["text_cost"] = result["text_cost"]
        out[method] = row
    return out


def _pct(part: int | float, whole: int | float) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def markdown(
    results: dict[str, dict[str, Any]], table: dict[str, Any], cli: dict[str, Any], rev: str
) -> str:
    names = {"scan": "scan (this revision)", "previous": f"previous scanner ({rev})"}
    names["regex"] = "regex baseline"
    lines = [
        "# Poisoning scan: detection and false positives",
        "",
        "Generated by `python benchmarks/scan_benchmark.py`; every method measured in the "
        "same run. Development sets: the rules were written against them. Unseen sets: "
        "never tuned on.",
        "",
        "## Headline",
        "",
        "| method | poisoned dev, medium+ | poisoned dev, high | **poisoned unseen, medium+** "
        "| **poisoned unseen, high** | hard benign dev, high | hard benign earlier (dev), high "
        "| hard benign fresh (dev), high | hard benign fresh3 (dev), high "
        "| hard benign fresh4 (dev), high "
        "| **hard benign fresh2 (unseen), high** "
        "| real corpora, tools with high | CPU per 1,000 tools |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for method, row in table.items():
        dev, unseen = row["poisoned_dev"], row["poisoned_unseen"]
        real = row["real_corpora"]
        lines.append(
            f"| {names[method]} | {dev['medium_rate']:.1%} | {dev['high_rate']:.1%} | "
            f"**{unseen['medium_rate']:.1%}** | **{unseen['high_rate']:.1%}** | "
            f"{row['hard_benign_dev']['high_rate']:.1%} | "
            f"{row['hard_benign_dev_earlier']['high_rate']:.1%} | "
            f"{row['hard_benign_dev_fresh']['high_rate']:.1%} | "
            f"{row['hard_benign_dev_fresh3']['high_rate']:.1%} | "
            f"{row['hard_benign_dev_fresh4']['high_rate']:.1%} | "
            f"**{row['hard_benign_unseen']['high_rate']:.1%}** | "
            f"{real['tools_with_high']} of {real['tools']} ({real['high_rate']:.2%}) | "
            f"{real['cpu_s_per_1000_tools']:.2f} s |"
        )
    first = table["scan"]
    lines += [
        "",
        f"Records: poisoned dev {first['poisoned_dev']['records']} "
        f"({', '.join(DEV_SETS)}), poisoned unseen {first['poisoned_unseen']['records']}, "
        f"hard benign dev {first['hard_benign_dev']['records']}, hard benign earlier "
        f"{first['hard_benign_dev_earlier']['records']} (`benign_hard_unseen`) and hard "
        f"benign fresh {first['hard_benign_dev_fresh']['records']} (`benign_hard_fresh`), "
        "each the unseen set until its false positives were worked on and a development set "
        f"since; hard benign fresh3 {first['hard_benign_dev_fresh3']['records']} "
        "(`benign_hard_fresh3`, measured once before it was worked on: "
        "`results/scan_benign_fresh3_first.json`) and hard benign fresh4 "
        f"{first['hard_benign_dev_fresh4']['records']} (`benign_hard_fresh4`, likewise: "
        "`results/scan_benign_fresh4_first.json`); hard benign fresh2 "
        f"{first['hard_benign_unseen']['records']} "
        "(`benign_hard_fresh2`, written before the work on the first fresh set and never "
        "tuned on). Targets on unseen: 90% at medium+, 80% at high, at most 5% of hard "
        "benign and 0.5% of real tools at high.",
        "",
    ]
    lines += _grouped_tables(results, names)
    lines += _cost_lines(table, cli, names)
    lines += _corpus_lines(results, names)
    return "\n".join(lines) + "\n"


def _grouped_tables(results: dict[str, dict[str, Any]], names: dict[str, str]) -> list[str]:
    lines: list[str] = []
    for key, title in (("family", "family"), ("language", "language")):
        for split, sets in (("unseen", UNSEEN_SETS), ("dev", ("poisoned_dev",))):
            rows = grouped(results, sets, key)
            lines += [
                f"## By {title}, {split} (`{', '.join(sets)}`): detected at medium+ / at high",
                "",
                "| " + title + " | records | " + " | ".join(names[m] for m in METHODS) + " |",
                "|---|---|" + "---|" * len(METHODS),
            ]
            for value, row in rows.items():
                n = row["records"]
                cells = [
                    f"{_pct(row[m]['medium'], n)} / {_pct(row[m]['high'], n)}" for m in METHODS
                ]
                lines.append(f"| {value} | {n} | " + " | ".join(cells) + " |")
            lines.append("")
    return lines


def _cost_lines(table: dict[str, Any], cli: dict[str, Any], names: dict[str, str]) -> list[str]:
    cost = table["scan"]["text_cost"]
    lines = [
        "## Cost",
        "",
        f"Untrusted text: {cost['texts']} distinct model outputs of BFCL-Result "
        f"({cost['chars']:,} characters), each read once per pass, "
        f"{cost.get('passes', 1)} passes. CPU per 1,000 characters (target for `scan_result`: "
        "at most 1 ms):",
        "",
        "| method | function | ms per 1,000 characters, median | best | texts with a high "
        "finding |",
        "|---|---|---|---|---|",
    ]
    for method, row in table.items():
        for function in ("scan_text", "scan_result"):
            if function in row["text_cost"]:
                entry = row["text_cost"][function]
                best = entry.get("best_ms_per_1000_chars", entry["ms_per_1000_chars"])
                lines.append(
                    f"| {names[method]} | `{function}` | {entry['ms_per_1000_chars']:.3f} | "
                    f"{best:.3f} | {entry['flagged']} |"
                )
    return [*lines, "", *_cli_lines(cli, names), ""]


def _cli_lines(cli: dict[str, Any], names: dict[str, str]) -> list[str]:
    lines = [
        f"Command line, seconds over {cli.get('runs', CLI_RUNS)} fresh interpreters (bytecode "
        "compiled, one untimed run first), median (best) wall and median CPU; load average "
        f"{', '.join(map(str, cli['load_average']))} (2 cores) after the runs:",
        "",
        "| revision | `callgate --help` wall (target 0.3 s) "
        "| `callgate scan`, 1,000 BFCL tools, wall (target 1 s) | scan CPU |",
        "|---|---|---|---|",
    ]
    for method in dict.fromkeys(k.rpartition("_help")[0] for k in cli if k.endswith("_help")):
        help_, scan_ = cli[f"{method}_help"], cli[f"{method}_scan_1000_tools"]
        lines.append(
            f"| {names.get(method, method)} | {help_['median_s']:.3f} ({help_['best_s']:.3f}) | "
            f"{scan_['median_s']:.3f} ({scan_['best_s']:.3f}) | {scan_['cpu_median_s']:.3f} |"
        )
    return lines


def update_cli(cli: dict[str, Any], rev: str) -> None:
    """Replace the command-line timing of the results files already written, leaving what
    they say of detection and false positives as it was measured."""
    path, tables = RESULTS / "scan_benchmark.json", RESULTS / "scan_benign.md"
    if not (path.is_file() and tables.is_file()):
        sys.exit(f"no results to update in {RESULTS}: run the whole benchmark first")
    payload = json.loads(path.read_text(encoding="utf-8"))
    payload["cli"] = cli
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    text = tables.read_text(encoding="utf-8")
    start = text.index("Command line, seconds over")
    end = text.index("\n\n## ", start)
    names = {"scan": "scan (this revision)", "previous": f"previous scanner ({rev})"}
    tables.write_text(
        text[:start] + "\n".join(_cli_lines(cli, names)) + text[end:], encoding="utf-8"
    )


def _corpus_lines(results: dict[str, dict[str, Any]], names: dict[str, str]) -> list[str]:
    lines = [
        "## False positives on the real corpora",
        "",
        "| corpus | tools | " + " | ".join(f"{names[m]}: high / medium+" for m in METHODS) + " |",
        "|---|---|" + "---|" * len(METHODS),
    ]
    for corpus in CORPORA:
        cells = [
            f"{results[m]['corpora'][corpus]['tools_with_high']} / "
            f"{results[m]['corpora'][corpus]['tools_with_medium_or_high']}"
            for m in METHODS
        ]
        tools = results["scan"]["corpora"][corpus]["tools"]
        lines.append(f"| {corpus} | {tools} | " + " | ".join(cells) + " |")
    lines += ["", "### Every high finding of the scanners, with a verdict", ""]
    rows = []
    for method in ("scan", "previous"):
        for corpus in CORPORA:
            for f in results[method]["corpora"][corpus]["high_findings"]:
                where = f"{f['group'] + '/' if f['group'] else ''}{f['tool']}"
                verdict = VERDICTS.get((f["tool"], f["rule"]), "unreviewed")
                evidence = (f["evidence"] or "").replace("|", "\\|").replace("\n", " ")[:100]
                rows.append(
                    f"| {names[method]} | {corpus} | `{where}` | {f['rule']} | {evidence} "
                    f"| {verdict} |"
                )
    if rows:
        lines += [
            "| method | corpus | tool | rule | evidence | verdict |",
            "|---|---|---|---|---|---|",
        ]
        lines += rows
    else:
        lines.append("None.")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", help="evaluation data folder (default ../shared/data)")
    parser.add_argument("--baseline-rev", default=BASELINE_REV)
    parser.add_argument(
        "--cli-rev",
        action="append",
        default=[],
        metavar="REV",
        help="another revision to time on the command line beside the two (repeatable)",
    )
    parser.add_argument(
        "--cli-only",
        action="store_true",
        help="time the command line only, print it and write nothing",
    )
    parser.add_argument(
        "--cli-update",
        action="store_true",
        help="time the command line only and replace that timing in the results files",
    )
    parser.add_argument("--cli-runs", type=int, default=CLI_RUNS, metavar="N")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    data = data_dir(args.data)
    if args.child:
        print(json.dumps(child(data)))
        return
    with tempfile.TemporaryDirectory() as work:
        sources: dict[str, Path | None] = {"scan": None}
        for rev in (args.baseline_rev, *args.cli_rev):
            sources["previous" if rev == args.baseline_rev else f"revision {rev}"] = source_at(
                rev, Path(work)
            )
        if None in list(sources.values())[1:]:
            sys.exit(f"revision not found: {args.baseline_rev} {' '.join(args.cli_rev)}")
        cli = cli_timing(data, Path(work), sources, args.cli_runs)
        if args.cli_only or args.cli_update:
            print(json.dumps(cli, indent=2))
            if args.cli_update:
                update_cli(cli, args.baseline_rev)
            return
        old = sources["previous"]
        results = {
            "scan": run_child(None, data),
            "previous": run_child(old, data),
            "regex": regex_method(data),
        }
    table = summary(results)
    RESULTS.mkdir(exist_ok=True)
    grouped_out = {
        f"{key}_{split}": grouped(results, sets, key)
        for key in ("family", "language")
        for split, sets in (("unseen", UNSEEN_SETS), ("dev", ("poisoned_dev",)))
    }
    payload = {
        "baseline_rev": args.baseline_rev,
        "summary": table,
        "grouped": grouped_out,
        "cli": cli,
        "per_record": {m: r["sets"] for m, r in results.items()},
        "corpora": {m: r["corpora"] for m, r in results.items()},
    }
    (RESULTS / "scan_benchmark.json").write_text(
        json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (RESULTS / "scan_benign.md").write_text(
        markdown(results, table, cli, args.baseline_rev), encoding="utf-8"
    )
    for method, row in table.items():
        print(
            f"{method}: unseen {row['poisoned_unseen']['medium_rate']:.1%} medium+ "
            f"{row['poisoned_unseen']['high_rate']:.1%} high; dev "
            f"{row['poisoned_dev']['medium_rate']:.1%}; hard benign unseen "
            f"{row['hard_benign_unseen']['high_rate']:.1%}; real "
            f"{row['real_corpora']['high_rate']:.2%}"
        )
    print(cli)


if __name__ == "__main__":
    main()
