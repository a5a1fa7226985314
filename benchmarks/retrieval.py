"""Tool retrieval on BFCL (and on MCP tools it was not tuned on), with baselines and costs.

    python benchmarks/retrieval.py            lexical methods and baselines (~1-2 minutes)
    python benchmarks/retrieval.py --dense    also the hybrid with embeddings (needs
                                              callgate[embeddings]; a few minutes on 2 cores)

Catalog: every function doc of the 13 single-turn BFCL files, pooled and de-duplicated by
exact JSON (3,258 docs under 1,853 names). Queries: the user messages of the first turn of
the 2,501 entries that have a `possible_answer`; gold: the function names of the answer.
A ranked list is read as distinct names (several docs of one name count as one place).

Tuning was done on the non-live entries only. Live entries and the LiveMCPBench set
(queries: each server's own description; gold: that server's tools; Docker MCP registry
tools as distractors) are reported as data the defaults never saw.

Writes benchmarks/results/retrieval.json and the results section of docs/retrieval.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import math
import platform
import random
import re
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from _data import RESULTS, ROOT, data_dir

from callgate import Tool, UserError, tool_from_declaration
from callgate.retrieval import Analyzer, ToolIndex, split_words

Ranker = Callable[[str], list[str]]
"""A query to names, best first."""

KS = (5, 8, 10)
DOC = ROOT / "docs" / "retrieval.md"


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Query:
    id: str
    text: str
    gold: tuple[str, ...]
    live: bool


# -- data ---------------------------------------------------------------------------------


def bfcl(root: Path) -> tuple[list[dict[str, Any]], list[Query]]:
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
            queries.append(Query(id=entry["id"], text=texts[entry["id"]], gold=gold, live=live))
    return list(docs.values()), queries


def unique_tools(declarations: Iterable[tuple[dict[str, Any], str | None]]) -> list[Tool]:
    """One `Tool` per declaration (prefixed `namespace_` when given); invalid ones skipped.

    A name seen before gets a `-dupN` suffix; the gold name stays in `source_name`.
    """
    tools: list[Tool] = []
    used: set[str] = set()
    for decl, namespace in declarations:
        try:
            made = tool_from_declaration(decl)
        except UserError:  # e.g. a name with spaces: no model API would accept it either
            continue
        base = f"{namespace}_{made.name}"[:64] if namespace else made.name
        name, n = base, 1
        while name in used:
            n += 1
            suffix = f"-dup{n}"
            name = base[: 64 - len(suffix)] + suffix
        used.add(name)
        meta = {**made.metadata, "group": namespace or ""}
        tools.append(
            made
            if name == made.name and not namespace
            else dataclasses.replace(made, name=name, metadata=meta)
        )
    return tools


def source(tool: Tool) -> str:
    return str(tool.metadata.get("source_name", tool.name))


def mcp_set(root: Path) -> tuple[list[Tool], list[Query]]:
    """LiveMCPBench tools (named server_tool) plus Docker registry tools as distractors."""
    servers = json.loads((root / "livemcpbench-tools.json").read_text(encoding="utf-8"))
    declarations: list[tuple[dict[str, Any], str | None]] = []
    described: dict[str, str] = {}
    for server in servers:
        for key, listing in server["tools"].items():
            namespace = "_".join(split_words(key))[:24]
            declarations += [(t, namespace) for t in listing["tools"]]
            if server.get("description", "").strip():
                described[namespace] = server["description"]
    for path in sorted((root / "docker-mcp-registry").glob("*.json")):
        namespace = "docker_" + "_".join(split_words(path.stem))[:24]
        declarations += [(t, namespace) for t in json.loads(path.read_text(encoding="utf-8"))]
    tools = unique_tools(declarations)
    queries = [
        Query(
            id=ns,
            text=text,
            live=True,
            gold=tuple(t.name for t in tools if t.metadata["group"] == ns),
        )
        for ns, text in described.items()
    ]
    return tools, [q for q in queries if q.gold]


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
        for word in words(" ".join(split_words(tool.name)) + " " + first):
            postings.setdefault(word, []).append(row)

    def rank(query: str) -> list[str]:
        counts: dict[int, int] = {}
        for word in words(query):
            for row in postings.get(word, ()):
                counts[row] = counts.get(row, 0) + 1
        best = sorted(counts, key=lambda r: (-counts[r], tools[r].name))
        return distinct(key(tools[r]) for r in best[:60])

    return rank


def bm25_name_description(
    tools: Sequence[Tool], key: Callable[[Tool], str], *, plain: bool
) -> Ranker:
    """Baseline: BM25 (bm25s defaults) over name + description only.

    `plain` tokenizes as bm25s does by default (raw name, no stemming); otherwise with
    callgate's analyzer (identifiers split, stop words, stemming), like the default method.
    """
    import bm25s
    import numpy as np

    analyzer = Analyzer()
    if plain:

        def tokens(text: str) -> list[str]:
            out = bm25s.tokenize([text], stopwords="en", show_progress=False, return_ids=False)
            return list(out[0])

        texts = [t.name + " " + t.description for t in tools]
    else:
        tokens = analyzer
        texts = [" ".join(split_words(t.name)) + " " + t.description for t in tools]
    retriever = bm25s.BM25()
    retriever.index([tokens(x) or [""] for x in texts], show_progress=False)

    def rank(query: str) -> list[str]:
        ids = retriever.get_tokens_ids(tokens(query))
        if not ids:
            return []
        scores = retriever.get_scores_from_ids(ids)
        rows = np.argsort(-scores, kind="stable")[:60]
        return distinct(key(tools[r]) for r in rows if scores[r] > 0)

    return rank


def callgate_ranker(index: ToolIndex, key: Callable[[Tool], str]) -> Ranker:
    def rank(query: str) -> list[str]:
        return distinct(key(h.tool) for h in index.search(query, 30))

    return rank


# -- metrics ------------------------------------------------------------------------------


def metrics(ranker: Ranker, queries: Sequence[Query]) -> dict[str, dict[str, Any]]:
    ranked = [ranker(q.text) for q in queries]
    splits = {
        "all": range(len(queries)),
        "non_live": [i for i, q in enumerate(queries) if not q.live],
        "live": [i for i, q in enumerate(queries) if q.live],
    }
    return {
        name: summarize([ranked[i] for i in rows], [queries[i] for i in rows])
        for name, rows in splits.items()
        if rows
    }


def summarize(ranked: Sequence[list[str]], queries: Sequence[Query]) -> dict[str, Any]:
    n = len(queries)
    out: dict[str, Any] = {"queries": n}
    for k in KS:
        out[f"recall@{k}"] = (
            sum(
                len(set(r[:k]) & set(q.gold)) / len(q.gold)
                for r, q in zip(ranked, queries, strict=True)
            )
            / n
        )
    multi = [(r, q) for r, q in zip(ranked, queries, strict=True) if len(q.gold) > 1]
    out["multi_tool_queries"] = len(multi)
    for k in KS:
        out[f"all_gold@{k}"] = (
            sum(set(q.gold) <= set(r[:k]) for r, q in multi) / len(multi) if multi else None
        )
    out["mrr"] = (
        sum(
            next((1 / i for i, name in enumerate(r, 1) if name in q.gold), 0.0)
            for r, q in zip(ranked, queries, strict=True)
        )
        / n
    )
    out["ndcg@10"] = sum(ndcg(r, q.gold, 10) for r, q in zip(ranked, queries, strict=True)) / n
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in out.items()}


def capped(ranked: Sequence[list[str]], queries: Sequence[Query], k: int) -> float:
    """Share of the top k that is gold, out of what k places can hold (min(k, |gold|))."""
    return sum(
        len(set(r[:k]) & set(q.gold)) / min(k, len(q.gold))
        for r, q in zip(ranked, queries, strict=True)
    ) / len(queries)


def ndcg(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    gain = sum(1 / math.log2(i + 1) for i, name in enumerate(ranked[:k], 1) if name in gold)
    ideal = sum(1 / math.log2(i + 1) for i in range(1, min(k, len(gold)) + 1))
    return gain / ideal


def mcp_metrics(ranker: Ranker, queries: Sequence[Query]) -> dict[str, Any]:
    ranked = [ranker(q.text) for q in queries]
    n = len(queries)
    return {
        "queries": n,
        "hit@1": round(
            sum(bool(r[:1]) and r[0] in q.gold for r, q in zip(ranked, queries, strict=True)) / n, 4
        ),
        "hit@5": round(
            sum(bool(set(r[:5]) & set(q.gold)) for r, q in zip(ranked, queries, strict=True)) / n, 4
        ),
        "recall@5_capped": round(capped(ranked, queries, 5), 4),
        "mrr": round(
            sum(
                next((1 / i for i, name in enumerate(r, 1) if name in q.gold), 0.0)
                for r, q in zip(ranked, queries, strict=True)
            )
            / n,
            4,
        ),
        "ndcg@10": round(
            sum(ndcg(r, q.gold, 10) for r, q in zip(ranked, queries, strict=True)) / n, 4
        ),
    }


# -- costs --------------------------------------------------------------------------------


def timed_build(tools: Sequence[Tool], **options: Any) -> tuple[ToolIndex, float]:
    started = time.perf_counter()
    index = ToolIndex(tools, **options)
    index.search("warm up", 1)  # the BM25 matrix is built on the first search
    return index, time.perf_counter() - started


def latency(index: ToolIndex, queries: Sequence[str], k: int = 8) -> dict[str, float]:
    samples = []
    for text in queries:
        started = time.perf_counter()
        index.search(text, k)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return {
        "p50_ms": round(statistics.median(samples), 3),
        "p95_ms": round(samples[int(0.95 * (len(samples) - 1))], 3),
        "queries": len(samples),
    }


def grow(tools: Sequence[Tool], size: int) -> list[Tool]:
    """`size` tools: the originals, then copies under made-up service namespaces.

    A copy keeps the card of its original but gets a new name prefix and a tag, so the
    vocabulary and the score distribution look like many services with similar tools.
    """
    services = [f"svc{i:03d}" for i in range(max(1, size // len(tools) + 1))]
    out = list(tools)
    used = {t.name for t in tools}
    i = 0
    while len(out) < size:
        original = tools[i % len(tools)]
        service = services[i // len(tools) % len(services)]
        name = f"{service}_{original.name}"[:64]
        if name in used:  # a long name cut to the same 64 characters
            name = f"{service}_{i:06d}"
        used.add(name)
        out.append(
            dataclasses.replace(
                original,
                name=name,
                tags=(service,),
                metadata={**original.metadata, "copy_of": original.name},
            )
        )
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


def scale(tools: Sequence[Tool], queries: Sequence[str], size: int) -> dict[str, Any]:
    grown = grow(tools, size)
    gc.collect()
    before = rss_mb()
    index, build = timed_build(grown)
    after = rss_mb()
    out: dict[str, Any] = {
        "tools": len(grown),
        "build_s": round(build, 3),
        "query": latency(index, queries),
        "incremental": incremental(index, grown, queries[0]),
    }
    del index
    gc.collect()
    # A second build under tracemalloc (which slows allocation several times over).
    tracemalloc.start()
    kept, _ = timed_build(grown)
    held, peak = tracemalloc.get_traced_memory()  # `held`: while the index is alive
    tracemalloc.stop()
    del kept
    out["memory"] = {
        "tracemalloc_peak_mb": round(peak / 2**20, 1),
        "tracemalloc_held_mb": round(held / 2**20, 1),
        "rss_growth_mb": round(after - before, 1),
    }
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


def quality(
    tools: Sequence[Tool], queries: Sequence[Query], index: ToolIndex, hybrid: ToolIndex | None
) -> dict[str, Any]:
    rankers: dict[str, Ranker] = {
        "word_overlap_name_first_sentence": word_overlap(tools, source),
        "bm25_name_description_plain_tokens": bm25_name_description(tools, source, plain=True),
        "bm25_name_description": bm25_name_description(tools, source, plain=False),
        "callgate_default": callgate_ranker(index, source),
    }
    if hybrid is not None:
        rankers["callgate_hybrid"] = callgate_ranker(hybrid, source)
    out = {}
    for name, ranker in rankers.items():
        started = time.perf_counter()
        out[name] = metrics(ranker, queries)
        print(
            f"  {name:38s} recall@5 {out[name]['all']['recall@5']:.4f}  "
            f"({time.perf_counter() - started:.1f}s)",
            flush=True,
        )
    return out


def mcp_quality(root: Path, cache: _Cache | None) -> dict[str, Any]:
    tools, queries = mcp_set(root)
    index = ToolIndex(tools)
    rankers: dict[str, Ranker] = {
        "word_overlap_name_first_sentence": word_overlap(tools, lambda t: t.name),
        "bm25_name_description": bm25_name_description(tools, lambda t: t.name, plain=False),
        "callgate_default": callgate_ranker(index, lambda t: t.name),
    }
    if cache is not None:
        hybrid = ToolIndex(tools, embedder=cache)
        cache.prime([q.text for q in queries])
        rankers["callgate_hybrid"] = callgate_ranker(hybrid, lambda t: t.name)
    return {
        "tools": len(tools),
        "queries": len(queries),
        "methods": {name: mcp_metrics(r, queries) for name, r in rankers.items()},
    }


def dense_costs(
    tools: Sequence[Tool], queries: Sequence[str], size: int, cache: _Cache
) -> tuple[ToolIndex, dict[str, Any]]:
    from callgate.retrieval import card_for

    cache.embed(["load the model"])  # loading the model is not building the index
    hybrid, build = timed_build(tools, embedder=cache)
    cache.bypass = True  # latency: every query embedded for real, one at a time
    costs: dict[str, Any] = {
        "tools": len(tools),
        "build_s": round(build, 2),
        "cards_per_s": round(len(tools) / build, 1),
        "query": latency(hybrid, queries[:200]),
    }
    # At scale a copy reuses its original's vector: what a search costs does not depend
    # on what the vectors hold, and embedding 20,000 cards here would take many minutes.
    originals = {t.name: cache.seen[card_for(t).text()] for t in tools}
    grown = grow(tools, size)
    table = {card_for(g).text(): originals[_original(g, originals)] for g in grown}
    big, big_build = timed_build(grown, embedder=_Lookup(cache, table))
    costs["at_scale"] = {
        "tools": len(grown),
        "build_s_without_embedding": round(big_build, 2),
        "build_s_extrapolated": round(len(grown) / costs["cards_per_s"], 1),
        "query": latency(big, queries[:200]),
    }
    cache.bypass = False
    return hybrid, costs


def _original(tool: Tool, originals: dict[str, Any]) -> str:
    return str(tool.metadata.get("copy_of", tool.name))


class _Cache:
    """The real embedder, keeping every vector it made.

    Quality runs embed all queries in one batch first (`prime`), which is several times
    faster than one at a time and gives the same vectors; latency runs set `bypass`.
    """

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        self.seen: dict[str, Any] = {}
        self.bypass = False

    def prime(self, texts: Sequence[str]) -> None:
        todo = list(dict.fromkeys(t for t in texts if t not in self.seen))
        if todo:
            self.embed(todo)

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        if not self.bypass and all(t in self.seen for t in texts):
            return np.vstack([self.seen[t] for t in texts])
        vectors = self.embedder.embed(texts)
        self.seen.update(zip(texts, vectors, strict=True))
        return vectors


class _Lookup:
    """Stored vectors for known cards; the model for everything else (queries)."""

    def __init__(self, embedder: Any, table: dict[str, Any]) -> None:
        self.embedder = embedder
        self.table = table

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        if all(t in self.table for t in texts):
            return np.vstack([self.table[t] for t in texts])
        return self.embedder.embed(texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dense", action="store_true", help="also run the hybrid method")
    parser.add_argument("--size", type=int, default=20_000, help="synthetic catalog size")
    args = parser.parse_args()
    root = data_dir()
    started = time.perf_counter()
    docs, queries = bfcl(root / "bfcl")
    tools = unique_tools((d, None) for d in docs)
    texts = [q.text for q in queries]
    print(f"BFCL: {len(tools)} docs, {len(queries)} queries", flush=True)
    index, build = timed_build(tools)
    cache, hybrid, dense = None, None, None
    if args.dense:
        from callgate.retrieval import MiniLMEmbedder

        cache = _Cache(MiniLMEmbedder())
        hybrid, dense = dense_costs(tools, texts, args.size, cache)
        cache.prime(texts)
    result: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "cpus": _cpus(),
            "platform": platform.platform(),
        },
        "catalog": {
            "docs": len(tools),
            "names": len({source(t) for t in tools}),
            "queries": len(queries),
            "live_queries": sum(q.live for q in queries),
            "multi_tool_queries": sum(len(q.gold) > 1 for q in queries),
        },
        "tuned_on": (
            "BFCL non-live queries; live never used for choosing. Changes were checked on "
            "live and LiveMCPBench only after being chosen on non-live, and dropped when they "
            "lost there: query-term de-duplication (lost on LiveMCPBench), a word-pair ranking "
            "and RRF k=3 with b=0.9 (lost on BFCL live). Turn-taking of clause heads lost on "
            "BFCL live when given to every multi-sentence query; it was then restricted to "
            "chained clauses (chosen on non-live, checked once more on live), so BFCL live is "
            "not fully untouched for that change."
        ),
        "methods": quality(tools, queries, index, hybrid),
    }
    result["mcp_not_tuned"] = mcp_quality(root / "mcp-tools", cache)
    sample = random.Random(7).sample(texts, 500)
    result["costs"] = {
        "bfcl": {"tools": len(tools), "build_s": round(build, 3), "query": latency(index, sample)},
        "scaled": scale(tools, sample, args.size),
        "dense": dense,
    }
    result["seconds"] = round(time.perf_counter() - started, 1)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "retrieval.json").write_text(json.dumps(result, indent=2) + "\n")
    write_doc(result)
    print(json.dumps({k: result[k] for k in ("costs", "seconds")}, indent=2))


# -- the report ---------------------------------------------------------------------------

LABELS = {
    "word_overlap_name_first_sentence": "word overlap, name + first sentence (baseline)",
    "bm25_name_description_plain_tokens": "BM25 name + description, bm25s tokenizer (baseline)",
    "bm25_name_description": "BM25 name + description, callgate analyzer (baseline)",
    "callgate_default": "**callgate default** (lexical: cards, segments, fusion)",
    "callgate_hybrid": "**callgate hybrid** (+ MiniLM embeddings, RRF)",
}
START, END = "<!-- results:start -->", "<!-- results:end -->"


def write_doc(result: dict[str, Any]) -> None:
    text = (
        DOC.read_text(encoding="utf-8") if DOC.exists() else f"# Tool retrieval\n\n{START}\n{END}\n"
    )
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    DOC.write_text(head + START + "\n" + report(result) + END + tail, encoding="utf-8")


def report(r: dict[str, Any]) -> str:
    c = r["catalog"]
    lines = [
        f"BFCL pooled catalog: {c['docs']:,} docs under {c['names']:,} names; "
        f"{c['queries']:,} queries ({c['queries'] - c['live_queries']:,} non-live, "
        f"{c['live_queries']:,} live; {c['multi_tool_queries']} with several gold tools). "
        "Defaults tuned on non-live only.",
        "",
        "| method | recall@5 | recall@8 | recall@10 | all gold@5 (multi) | MRR | nDCG@10 "
        "| recall@5 non-live (tuned) | recall@5 live (not tuned) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, m in r["methods"].items():
        a = m["all"]
        lines.append(
            f"| {LABELS.get(name, name)} | {a['recall@5']:.3f} | {a['recall@8']:.3f} "
            f"| {a['recall@10']:.3f} | {a['all_gold@5']:.3f} | {a['mrr']:.3f} "
            f"| {a['ndcg@10']:.3f} | {m['non_live']['recall@5']:.3f} "
            f"| {m['live']['recall@5']:.3f} |"
        )
    mcp = r["mcp_not_tuned"]
    lines += [
        "",
        f"Not tuned on: LiveMCPBench, {mcp['queries']} server descriptions as queries, "
        f"that server's tools as gold, {mcp['tools']:,} tools (Docker MCP registry tools "
        "as distractors).",
        "",
        "| method | hit@1 | hit@5 | recall@5 (capped) | MRR | nDCG@10 |",
        "|---|---|---|---|---|---|",
    ]
    for name, m in mcp["methods"].items():
        lines.append(
            f"| {LABELS.get(name, name)} | {m['hit@1']:.3f} | {m['hit@5']:.3f} "
            f"| {m['recall@5_capped']:.3f} | {m['mrr']:.3f} | {m['ndcg@10']:.3f} |"
        )
    lines += [
        "",
        *costs_table(r["costs"]),
        "",
        f"Machine: {r['machine']['cpus']} CPUs, Python {r['machine']['python']}; "
        f"whole run {r['seconds']:.0f} s (`python benchmarks/retrieval.py"
        f"{' --dense' if r['costs']['dense'] else ''}`).",
        "",
    ]
    return "\n".join(lines)


def costs_table(costs: dict[str, Any]) -> list[str]:
    b, s = costs["bfcl"], costs["scaled"]
    lines = [
        "| index | tools | build | query p50 | query p95 | memory |",
        "|---|---|---|---|---|---|",
        f"| lexical | {b['tools']:,} | {b['build_s']:.2f} s | {b['query']['p50_ms']:.2f} ms "
        f"| {b['query']['p95_ms']:.2f} ms | |",
        f"| lexical | {s['tools']:,} | {s['build_s']:.2f} s | {s['query']['p50_ms']:.2f} ms "
        f"| {s['query']['p95_ms']:.2f} ms | {s['memory']['tracemalloc_peak_mb']:.0f} MB "
        f"peak, {s['memory']['tracemalloc_held_mb']:.0f} MB held (tracemalloc); RSS "
        f"+{s['memory']['rss_growth_mb']:.0f} MB |",
    ]
    d = costs["dense"]
    if d:
        big = d["at_scale"]
        lines += [
            f"| hybrid | {d['tools']:,} | {d['build_s']:.1f} s ({d['cards_per_s']:.0f} "
            f"cards/s) | {d['query']['p50_ms']:.1f} ms | {d['query']['p95_ms']:.1f} ms | |",
            f"| hybrid | {big['tools']:,} | ~{big['build_s_extrapolated']:.0f} s "
            f"(extrapolated; {big['build_s_without_embedding']:.1f} s without embedding) "
            f"| {big['query']['p50_ms']:.1f} ms | {big['query']['p95_ms']:.1f} ms | |",
        ]
    inc = s["incremental"]
    lines += [
        "",
        f"Incremental at {s['tools']:,} tools: remove one tool and search "
        f"{inc['remove_then_search_ms']:.1f} ms (the row is masked); add one and search "
        f"{inc['add_then_search_ms']:.0f} ms (BM25 rebuilt from kept tokens).",
    ]
    return lines


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    main()
