"""What screening untrusted tool results costs, and how often benign text is flagged.

    python benchmarks/untrusted_results.py            # writes results/untrusted_results.json

Texts: slices of 1,000, 4,000 and 16,000 characters cut from benign text a tool could
return — the user questions of BFCL (prose in many languages), the MCP registry's tool
files (JSON) and this repository's documentation (Markdown with code).

Per 1,000 characters, median over the slices, all in one run:
- `keyword filter`: one compiled regular expression of classic injection phrases over the
  lower-cased text (the cheapest detector there is: the floor);
- `scan`: `callgate.lint.scan_text`, the scan engine the gate calls (target: at most 1 ms);
- `spotlight`: escaping the boundary and wrapping (what every untrusted result pays);
- `provenance`: finding the hosts, addresses and numbers in the text
  (`callgate.gate._values.destinations`), what value provenance adds to every result of a
  run it watches (besides one store write).
Per call, through a lean gate (no store, so the screening is all that differs):
- an unlabelled tool returning the slice, in the chain as built and with the untrusted step
  taken out (the step must cost it nothing);
- the same tool labelled `untrusted_output`, spotlighted only and with detection.
And the share of slices with a high finding, by source: each would hold a run's acting calls.
"""

from __future__ import annotations

import asyncio
import json
import platform
import re
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from _data import RESULTS, ROOT, data_dir

from callgate import Context, Gate, ToolCall, tool
from callgate.gate import UntrustedResults, _outcome
from callgate.gate._untrusted import escape_boundary
from callgate.gate._values import destinations
from callgate.lint import scan_text

SIZES = (1_000, 4_000, 16_000)
SLICES = 12
"""Slices per source and size."""
REPEAT = 5
BOUNDARY = "3f9a1c2e7b6d4a05"
KEYWORDS = re.compile(
    r"ignore (?:all )?(?:previous|prior) instructions|disregard (?:the )?above|"
    r"you are now|system prompt|do not tell the user|<\s*/?\s*system\s*>"
)
SCAN = UntrustedResults(detector=scan_text, ignore={"S012"})


def sources() -> dict[str, str]:
    data = data_dir()
    questions = []
    for path in sorted((data / "bfcl").glob("BFCL_v4_*.json")):
        for line in path.read_text(encoding="utf-8").splitlines():
            for turn in json.loads(line)["question"]:
                questions += [m["content"] for m in turn if isinstance(m.get("content"), str)]
    registry = [p.read_text(encoding="utf-8") for p in sorted((data / "mcp-tools").rglob("*.json"))]
    docs = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))]
    return {"bfcl questions": "\n".join(questions), "mcp registry json": "\n".join(registry),
            "callgate docs": "\n".join(docs)}  # fmt: skip


def slices(text: str, size: int) -> Iterator[str]:
    step = max((len(text) - size) // SLICES, 1)
    for i in range(SLICES):
        yield text[i * step : i * step + size]


def per_1k(fn: Callable[[str], object], texts: list[str], *, fresh: bool = False) -> float:
    """Median milliseconds per 1,000 characters (best of `REPEAT` per text). `fresh`: each
    repeat reads a text never seen before (the slice and a number of its own), for a
    function that remembers whole texts — the scan engine caches each distinct string, so
    a repeat of the same text would time a lookup; words seen before stay cached, as they
    would across a run's results."""
    times = []
    for n, text in enumerate(texts):
        spelled = [f"{text}\n{n}.{i}" if fresh else text for i in range(REPEAT)]
        best = min(_timed(fn, t) for t in spelled)
        times.append(best * 1000 / (len(text) / 1000))
    return statistics.median(times)


def _timed(fn: Callable[[str], object], text: str) -> float:
    t0 = time.perf_counter()
    fn(text)
    return time.perf_counter() - t0


def spotlight(text: str) -> str:
    return _outcome.spotlighted(
        escape_boundary(text, BOUNDARY), tool="fetch", boundary=BOUNDARY, flagged=[]
    )


def gate_call_us(labels: frozenset[str], untrusted: UntrustedResults | None, text: str,
                 *, without_step: bool = False, calls: int = 300) -> float:  # fmt: skip
    """Median microseconds of one call through a lean gate."""

    served = iter(range(1_000_000))

    @tool(effect="read", labels=labels, run_in="inline")
    def fetch(url: str) -> str:
        """Fetch a page."""
        return f"{text}\n{next(served)}"  # a page never seen before (see `per_1k`)

    gate = Gate([fetch], untrusted=untrusted)
    if without_step:  # the same chain with the untrusted step taken out
        prepare: Any = gate._chain
        prepare.next = prepare.next.next
    call, ctx = ToolCall(id="c1", name="fetch", arguments={"url": "x"}), Context(run_id="r")

    async def run() -> list[float]:
        times = []
        for _ in range(calls):
            t0 = time.perf_counter()
            await gate.call(call, context=ctx)
            times.append(time.perf_counter() - t0)
        return times

    try:
        times = asyncio.run(run())
    finally:
        gate.close()
    return statistics.median(times) * 1e6


def main() -> None:
    texts = {name: {size: list(slices(text, size)) for size in SIZES}
             for name, text in sources().items()}  # fmt: skip
    spotlight(texts["callgate docs"][1000][0])  # the fold table is built once per process
    destinations("")  # and so is the table of invisible characters
    costs: dict[str, Any] = {}
    for size in SIZES:
        pooled = [t for by_size in texts.values() for t in by_size[size]]
        floor = per_1k(lambda t: KEYWORDS.search(t.lower()), pooled)
        scan = per_1k(scan_text, pooled, fresh=True)
        wrap = per_1k(spotlight, pooled)
        values = per_1k(destinations, pooled)
        costs[str(size)] = {
            "keyword_filter_ms_per_1k": round(floor, 4),
            "scan_ms_per_1k": round(scan, 4),
            "spotlight_ms_per_1k": round(wrap, 4),
            "provenance_ms_per_1k": round(values, 4),
            "provenance_vs_keyword_filter": round(values / floor, 1),
            "scan_vs_target_1ms": round(scan / 1.0, 2),
            "scan_vs_keyword_filter": round(scan / floor, 1),
        }
        print(f"{size:>6} chars: keyword filter {floor:.4f} ms/1k, scan {scan:.3f} ms/1k "
              f"({scan / floor:.0f}x the filter), spotlight {wrap:.4f} ms/1k, "
              f"provenance {values:.4f} ms/1k ({values / floor:.0f}x)")  # fmt: skip
    sample = texts["callgate docs"][4000][0]
    untrusted = frozenset({"untrusted_output"})
    gate_costs = {
        "plain_tool_us": gate_call_us(frozenset(), None, sample),
        "plain_tool_without_step_us": gate_call_us(frozenset(), None, sample, without_step=True),
        "untrusted_spotlight_only_us": gate_call_us(untrusted, None, sample),
        "untrusted_with_detection_us": gate_call_us(untrusted, SCAN, sample, calls=60),
    }
    gate_costs = {k: round(v, 1) for k, v in gate_costs.items()}
    gate_costs["plain_step_overhead_ratio"] = round(
        gate_costs["plain_tool_us"] / gate_costs["plain_tool_without_step_us"], 3
    )
    print("gate, 4,000 characters:", gate_costs)
    flagged: dict[str, Any] = {}
    for name, by_size in texts.items():
        rules = [sorted({h.rule for h in scan_text(p) if h.severity >= 3 and h.rule != "S012"})
                 for p in by_size[4000]]  # fmt: skip
        flagged[name] = {
            "slices": len(rules),
            "with_a_high_finding": sum(1 for r in rules if r),
            "rules": sorted({rule for r in rules for rule in r}),
        }
    print("benign slices of 4,000 characters with a high finding:", flagged)
    report = {
        "benchmark": "screening untrusted tool results",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "slices_per_source_and_size": SLICES,
        "per_1k_characters": costs,
        "gate_call_4000_chars": gate_costs,
        "benign_flagged_4000_chars": flagged,
    }
    out = RESULTS / "untrusted_results.json"
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out.relative_to(Path.cwd()) if out.is_relative_to(Path.cwd()) else out}")


if __name__ == "__main__":
    main()
