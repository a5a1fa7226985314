"""Lint and scan at scale: the real catalogs, and a 70,000-tool catalog grown from them.

Part 1, the real corpora (from ../shared/data): the pooled BFCL function docs (3,258
distinct), the LiveMCPBench servers (527 tools) and the Docker MCP registry tools files
(755 tools). Findings per rule, and time per 1,000 tools against a baseline measured in the
same run on the same entries: what a plain check does, validating each input schema
against its JSON Schema metaschema (jsonschema-rs). Times are the best of several rounds.

Part 2, scale: a catalog of 70,000 tools grown from those corpora with the variations real
merged catalogs show (namespaced copies of a tool, renamed verbs, camelCase names, version
suffixes, descriptions with a sentence added or dropped, parameters added, dropped or
renamed, and OpenAPI-style families: list/get/create/update/delete/search over resources
named like the corpora's objects). Its first 1,000, 4,000 and 8,000 tools and the whole are
loaded, linted and scanned, each in a process of its own, for wall time and peak RSS. The
implementation before the near-duplicate index (git revision `--baseline-rev`) runs the
same way on the sizes it finishes in reasonable time (`--baseline-sizes`, up to 8,000), and
its findings are compared with the new ones. Nothing was tuned on this catalog: the join
is exact, and its one bound (1,000 comparisons per tool) was set before the catalog existed.

Run: python benchmarks/lint_corpus.py [--data DIR] [--rounds N] [--tools N] [--seed N]
Writes benchmarks/results/lint_corpus.json.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _data import source_at

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BASELINE_REV = "9e51942"
"""The last revision with the pairwise near-duplicate check."""


def data_dir(arg: str | None) -> Path:
    configured = arg or os.environ.get("CALLGATE_DATA")
    path = Path(configured) if configured else ROOT.parent / "shared" / "data"
    if not path.is_dir():
        sys.exit(f"data folder not found: {path} (pass --data or set CALLGATE_DATA)")
    return path


# ---------------------------------------------------------------- part 1: real corpora


def corpora(data: Path) -> dict[str, Any]:
    from callgate.lint import load_catalog, merge_catalogs

    bfcl = sorted((data / "bfcl").glob("BFCL_v4_*.json"))
    return {
        "bfcl": merge_catalogs([load_catalog(p) for p in bfcl], dedupe=True),
        "livemcpbench": load_catalog(data / "mcp-tools" / "livemcpbench-tools.json"),
        "docker-mcp-registry": load_catalog(data / "mcp-tools" / "docker-mcp-registry"),
    }


def metaschema_only(catalog: Any) -> int:
    """The baseline: metaschema validity of every input schema, nothing else."""
    import jsonschema_rs

    return sum(not jsonschema_rs.meta.is_valid(_offline(e.input_schema)) for e in catalog)


def _offline(schema: Any) -> dict[str, Any]:
    # an unknown $schema would be fetched; the baseline must stay offline like lint
    declared = schema.get("$schema")
    known = ("draft-04", "draft-06", "draft-07", "2019-09", "2020-12")
    if isinstance(declared, str) and not any(k in declared for k in known):
        return {k: v for k, v in schema.items() if k != "$schema"}
    return dict(schema)


def best_of(rounds: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def measure(catalog: Any, rounds: int) -> dict[str, Any]:
    from callgate.lint import RULES, Severity, lint

    report = lint(catalog)
    lint_s = best_of(rounds, lambda: lint(catalog))
    base_s = best_of(rounds, lambda: metaschema_only(catalog))
    tools = report.tools
    return {
        "tools": tools,
        "findings": len(report.active),
        "tools_with_finding": {
            s.label: len(report.tools_with(s))
            for s in (Severity.HIGH, Severity.MEDIUM, Severity.LOW)
        },
        "by_rule": {
            r: {
                "name": RULES[r].name,
                "severity": RULES[r].severity.label,
                "findings": n,
                "tools": len(
                    {(f.location.group, f.location.tool) for f in report.active if f.rule == r}
                ),
            }
            for r, n in report.by_rule().items()
        },
        "metaschema_invalid_baseline": metaschema_only(catalog),
        "ms_per_1000_tools": {
            "lint": round(lint_s / tools * 1e6, 1),
            "metaschema_baseline": round(base_s / tools * 1e6, 1),
        },
        "ratio_vs_baseline": round(lint_s / base_s, 1) if base_s else None,
    }


# ---------------------------------------------------------------- part 2: a grown catalog

_SYNONYMS = {
    "get": ["fetch", "retrieve", "read", "lookup"],
    "list": ["enumerate", "browse", "get_all"],
    "search": ["find", "query", "lookup"],
    "create": ["add", "make", "new"],
    "update": ["modify", "edit", "patch", "set"],
    "delete": ["remove", "drop", "purge"],
    "calculate": ["compute", "estimate", "evaluate"],
    "send": ["post", "submit", "deliver"],
}
_OPERATIONS = (
    (
        "list",
        "Returns a paginated list of {plural}. Results are ordered by creation date, newest "
        "first; pass the cursor from the previous response to get the next page.",
    ),
    ("get", "Retrieve a single {noun} by its unique identifier."),
    ("create", "Create a new {noun}. Returns the created {noun} with its identifier."),
    ("update", "Update the fields of an existing {noun}; fields not given are left unchanged."),
    ("delete", "Permanently delete a {noun}. This cannot be undone."),
    ("search", "Search {plural} by keyword and filters; returns the best matches first."),
)
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_TOKEN = re.compile(r"[a-z]+")


def source_pool(data: Path) -> list[tuple[str, dict[str, Any]]]:
    """(server, declaration as written) for every tool of the three corpora, read once."""
    pool: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    for path in sorted((data / "bfcl").glob("BFCL_v4_*.json")):
        for line in path.read_text(encoding="utf-8").splitlines():
            for doc in json.loads(line).get("function", []) if line.strip() else []:
                key = json.dumps(doc, sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    pool.append((path.stem.removeprefix("BFCL_v4_"), doc))
    for server in json.loads((data / "mcp-tools" / "livemcpbench-tools.json").read_text()):
        for name, listing in (server.get("tools") or {}).items():
            pool += [(name, tool) for tool in listing.get("tools", [])]
    for path in sorted((data / "mcp-tools" / "docker-mcp-registry").glob("*.json")):
        pool += [(path.stem, tool) for tool in json.loads(path.read_text())]
    return pool


class Grower:
    """Variations of real declarations, as merged catalogs have them."""

    def __init__(self, pool: list[tuple[str, dict[str, Any]]], seed: int) -> None:
        self.rng = random.Random(seed)
        self.pool = pool
        self.services = sorted({_snake(s) for s, _ in pool})
        self.sentences = [
            s for _, d in pool for s in _SENTENCES.split(str(d.get("description") or "")) if s
        ]
        self.properties = [
            (name, prop)
            for _, d in pool
            for name, prop in (_schema(d).get("properties") or {}).items()
            if isinstance(prop, dict)
        ]
        words = Counter(t for _, d in pool for t in _TOKEN.findall(str(d.get("name", "")).lower()))
        self.nouns = sorted(w for w in words if len(w) >= 4 and w not in _SYNONYMS)

    def grow(
        self, count: int, weights: tuple[int, int, int] = (55, 35, 10)
    ) -> list[dict[str, Any]]:
        """`count` tools: varied real tools, OpenAPI-style operations, namespaced copies."""
        makers = (self.variant, self.openapi, self.renamespaced)
        return [self.rng.choices(makers, weights)[0]() for _ in range(count)]

    def renamespaced(self) -> dict[str, Any]:
        _, decl = self.rng.choice(self.pool)
        out = copy.deepcopy(decl)
        _set_name(out, f"{self.rng.choice(self.services)}_{_name(out)}")
        return out

    def variant(self) -> dict[str, Any]:
        out = self.renamespaced()
        rng, name = self.rng, _name(out)
        head, _, rest = name.rpartition("_") if "_" in name else ("", "", name)
        for verb, synonyms in _SYNONYMS.items():
            if f"_{verb}_" in f"_{name}_" and rng.random() < 0.4:
                name = f"_{name}_".replace(f"_{verb}_", f"_{rng.choice(synonyms)}_", 1)[1:-1]
        if rng.random() < 0.2:
            name = re.sub(r"_([a-z])", lambda m: m.group(1).upper(), name)
        if rng.random() < 0.1:
            name += rng.choice(("_v2", "_v3", "_beta", "_legacy"))
        _set_name(out, name or f"{head}{rest}")
        text = str(_body(out).get("description") or "")
        if rng.random() < 0.5:
            text = f"{text} {rng.choice(self.sentences)}".strip()
        if rng.random() < 0.2 and len(_SENTENCES.split(text)) > 1:
            text = " ".join(_SENTENCES.split(text)[:-1])
        _body(out)["description"] = text
        self._vary_parameters(out)
        return out

    def _vary_parameters(self, decl: dict[str, Any]) -> None:
        props = _schema(decl).get("properties")
        if not isinstance(props, dict):
            return
        rng = self.rng
        if rng.random() < 0.3:
            name, prop = rng.choice(self.properties)
            props.setdefault(name, copy.deepcopy(prop))
        if props and rng.random() < 0.2:
            props.pop(rng.choice(sorted(props)))
        if props and rng.random() < 0.1:
            old = rng.choice(sorted(props))
            props[re.sub(r"_([a-z])", lambda m: m.group(1).upper(), old)] = props.pop(old)

    def openapi(self) -> dict[str, Any]:
        rng = self.rng
        service, noun = rng.choice(self.services), rng.choice(self.nouns)
        operation, template = rng.choice(_OPERATIONS)
        text = template.format(noun=noun, plural=noun + "s")
        if rng.random() < 0.4:
            text += " " + rng.choice(self.sentences)
        props: dict[str, Any] = {}
        if operation in ("get", "update", "delete"):
            props[f"{noun}_id"] = {"type": "string", "description": f"The {noun} identifier."}
        if operation in ("list", "search"):
            props["limit"] = {"type": "integer", "description": "Results per page."}
            props["cursor"] = {"type": "string", "description": "Cursor of the next page."}
        if operation == "search":
            props["query"] = {"type": "string", "description": "Words to look for."}
        if operation in ("create", "update"):
            for name, prop in rng.sample(self.properties, rng.randint(1, 4)):
                props.setdefault(name, copy.deepcopy(prop))
        return {
            "name": f"{service}_{operation}_{noun}",
            "description": text,
            "inputSchema": {"type": "object", "properties": props, "required": list(props)[:1]},
        }


def _body(decl: dict[str, Any]) -> dict[str, Any]:
    function = decl.get("function")
    return function if isinstance(function, dict) else decl


def _name(decl: dict[str, Any]) -> str:
    return str(_body(decl).get("name", "tool"))


def _set_name(decl: dict[str, Any], name: str) -> None:
    _body(decl)["name"] = name


def _schema(decl: dict[str, Any]) -> dict[str, Any]:
    body = _body(decl)
    for key in ("inputSchema", "input_schema", "parameters", "parametersJsonSchema"):
        if isinstance(body.get(key), dict):
            schema: dict[str, Any] = body[key]
            return schema
    return {}


def _snake(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "server"


# ---------------------------------------------------------------- measuring in a child


def child(command: str, catalog: str) -> None:
    """Load `catalog` (a file, or `corpus:NAME`), run `command`; print one JSON line."""
    from callgate import lint as package

    started, cpu = time.perf_counter(), time.process_time()
    if catalog.startswith("corpus:"):
        loaded = corpora(data_dir(None))[catalog.removeprefix("corpus:")]
    else:
        tools = json.loads(Path(catalog).read_text(encoding="utf-8"))
        loaded = package.load_catalog(tools)
    load_s, load_cpu = time.perf_counter() - started, time.process_time() - cpu
    started, cpu = time.perf_counter(), time.process_time()
    report = package.lint(loaded) if command == "lint" else package.scan(loaded)
    run_s, run_cpu = time.perf_counter() - started, time.process_time() - cpu
    near = sorted(
        f"{f.location.source_pointer} {f.message}" for f in report.active if f.rule == "C001"
    )
    print(
        json.dumps(
            {
                "tools": report.tools,
                "load_s": round(load_s, 2),
                "run_s": round(run_s, 2),
                "load_cpu_s": round(load_cpu, 2),
                "run_cpu_s": round(run_cpu, 2),
                "load_average": round(os.getloadavg()[0], 1),
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                "findings": len(report.active),
                "by_rule": report.by_rule(),
                "near_duplicates": near,
            }
        )
    )


def run_child(
    command: str, catalog: Path | str, source: Path | None, timeout: float
) -> dict[str, Any]:
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source)
    argv = [sys.executable, __file__, "--child", command, "--catalog", str(catalog)]
    try:
        done = subprocess.run(
            argv,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return {"stopped_after_s": timeout}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def against_baseline(old: Path, timeout: float) -> dict[str, Any]:
    """Lint of each real corpus by both implementations: the findings must agree."""
    out: dict[str, Any] = {}
    for name in ("bfcl", "livemcpbench", "docker-mcp-registry"):
        new = run_child("lint", f"corpus:{name}", None, timeout)
        base = run_child("lint", f"corpus:{name}", old, timeout)
        out[name] = compare(new, base)
        print(f"{name}: lint findings against the baseline {out[name]}", flush=True)
    return out


CATALOGS = {
    "mixed": (55, 35, 10),
    "openapi": (0, 100, 0),  # one large API's operations: the hardest case for near-duplicates
}


def scale(args: argparse.Namespace, data: Path, work: Path, old: Path | None) -> dict[str, Any]:
    pool = source_pool(data)
    out: dict[str, Any] = {
        "baseline": f"revision {args.baseline_rev} (pairwise near-duplicates)"
        if old
        else "not available (no git history)",
        "catalogs": {},
    }
    for kind, weights in CATALOGS.items():
        tools = Grower(pool, args.seed).grow(args.tools, weights)
        out["catalogs"][kind] = {
            "tools": len(tools),
            "seed": args.seed,
            "grown_from": "BFCL function docs, LiveMCPBench and Docker MCP registry tools",
            "kinds": dict(zip(("varied", "openapi", "namespaced copies"), weights, strict=True)),
            "distinct_names": len({_name(t) for t in tools}),
            "distinct_descriptions": len({str(_body(t).get("description")) for t in tools}),
            "sizes": _sizes(args, kind, tools, work, old),
        }
    return out


def _sizes(
    args: argparse.Namespace, kind: str, tools: list[Any], work: Path, old: Path | None
) -> dict[str, Any]:
    """Each size as a file of its own: the child reads only what it is measured on."""
    rows: dict[str, Any] = {}
    for size in sorted({s for s in (1000, 4000, 8000, args.tools) if s <= args.tools}):
        catalog = work / f"{kind}-{size}.json"
        catalog.write_text(json.dumps(tools[:size]), encoding="utf-8")
        row: dict[str, Any] = {}
        for command in ("lint", "scan"):
            row[command] = new = run_child(command, catalog, None, args.timeout)
            print(_line(kind, size, command, "new", new), flush=True)
            if old is not None and size in args.baseline_sizes:
                row[f"{command}_baseline"] = base = run_child(command, catalog, old, args.timeout)
                print(_line(kind, size, command, "baseline", base), flush=True)
                row[f"{command}_comparison"] = compare(new, base)
        for result in row.values():
            result.pop("near_duplicates", None)
        rows[str(size)] = row
    return rows


def compare(new: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    if "run_s" not in new or "run_s" not in base:
        return {"stopped": True}
    mine, theirs = set(new["near_duplicates"]), set(base["near_duplicates"])
    tools_new = {n.split(" ", 1)[0] for n in mine}
    tools_old = {n.split(" ", 1)[0] for n in theirs}
    total_new = new["load_cpu_s"] + new["run_cpu_s"]
    total_old = base["load_cpu_s"] + base["run_cpu_s"]
    return {
        "cpu_ratio_baseline_over_new": round(total_old / total_new, 2),
        "run_cpu_ratio_baseline_over_new": round(base["run_cpu_s"] / new["run_cpu_s"], 2),
        "memory_ratio_baseline_over_new": round(base["peak_rss_mb"] / new["peak_rss_mb"], 1),
        "near_duplicate_tools": {
            "new": len(tools_new),
            "baseline": len(tools_old),
            "found_by_both": len(tools_new & tools_old),
            "baseline_only": len(tools_old - tools_new),
        },
        "other_rules_equal": {k: v for k, v in new["by_rule"].items() if k != "C001"}
        == {k: v for k, v in base["by_rule"].items() if k != "C001"},
    }


def _line(kind: str, size: int, command: str, which: str, row: dict[str, Any]) -> str:
    if "run_s" not in row:
        return f"{kind} {size:>6} {command} {which:>8}: stopped after {row['stopped_after_s']} s"
    return (
        f"{kind} {size:>6} {command} {which:>8}: load {row['load_s']} s + {command} "
        f"{row['run_s']} s (CPU {row['load_cpu_s']} + {row['run_cpu_s']} s, load average "
        f"{row['load_average']}), peak {row['peak_rss_mb']} MB, {row['findings']} findings"
    )


# ---------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", help="evaluation data folder (default ../shared/data)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tools", type=int, default=70_000, help="size of the grown catalog")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline-rev", default=BASELINE_REV)
    parser.add_argument(
        "--baseline-sizes", type=int, nargs="*", default=[1000, 4000, 8000], help="baseline sizes"
    )
    parser.add_argument("--timeout", type=float, default=900, help="seconds per child run")
    parser.add_argument("--child", choices=("lint", "scan"), help=argparse.SUPPRESS)
    parser.add_argument("--catalog", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.catalog)
        return
    data = data_dir(args.data)
    results: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
        },
        "rounds": args.rounds,
        "baseline": "jsonschema_rs.meta.is_valid on every input schema",
        "corpora": {},
    }
    for name, catalog in corpora(data).items():
        results["corpora"][name] = row = measure(catalog, args.rounds)
        print(
            f"{name}: {row['tools']} tools, {row['findings']} findings, "
            f"{row['ms_per_1000_tools']['lint']} ms per 1,000 tools "
            f"({row['ratio_vs_baseline']}x the metaschema-only check)",
            flush=True,
        )
    with tempfile.TemporaryDirectory() as work:
        old = source_at(args.baseline_rev, Path(work))
        if old is not None:
            results["corpora_against_baseline"] = against_baseline(old, args.timeout)
        results["scale"] = scale(args, data, Path(work), old)
    out = HERE / "results" / "lint_corpus.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"-> {out}")


if __name__ == "__main__":
    main()
