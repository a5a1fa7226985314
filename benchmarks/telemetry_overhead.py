"""What telemetry costs per call: off (the gate as it is), on with the OpenTelemetry API's
no-op providers (the API installed, no SDK), and on with the SDK recording every span and
metric; on the lean path (no store) and the durable one (SQLite receipts).

Run: python benchmarks/telemetry_overhead.py [--quick] [--repeats N] [--sample-seconds S]
     -> benchmarks/results/telemetry_overhead.json and .md
Needs the SDK: pip install -e ".[otel,dev]" (opentelemetry-sdk is a dev dependency).

Off is the baseline of every row: a gate without telemetry, whose chain has no telemetry step
at all (tests/telemetry/test_switch.py checks it), so "off" costs exactly what the gate costs
(benchmarks/gate_overhead.py measures that against its floor). Each "on" row is the same
gate made with `telemetry=`: the SDK rows use a `BatchSpanProcessor` (what production uses)
into an exporter that drops the batch, so the export itself (network, serialization) is not
counted but the SDK's span building, queueing and its worker thread are (CPU time is the
process's, all threads), and a `MeterProvider` with a reader that is never collected. The
timing method is gate_overhead.py's (imported, not copied): one sample of every case per
repeat in a fresh shuffled order, ratios taken within a repeat, medians reported.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import itertools
import json
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import RESULTS
from gate_overhead import (
    ARGS_TEXT,
    CG_FORECAST,
    CG_FORECAST_SYNC,
    EXPECTED,
    Case,
    calibrate,
    environment,
    ratios,
    spread,
    take,
)
from opentelemetry.metrics import NoOpMeterProvider
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.trace import NoOpTracerProvider

from callgate import Gate, Policy, ToolCall, tool
from callgate.telemetry import Telemetry

ORDER_SEED = 17


class Dropped(SpanExporter):
    """Takes every batch and keeps nothing: the export is not what is measured."""

    def __init__(self) -> None:
        self.spans = 0

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        self.spans += len(spans)
        return SpanExportResult.SUCCESS


@tool(effect="write")
async def record_payment(amount: int) -> str:
    """Record a payment."""
    return f"{EXPECTED}" if amount else "no"


ALLOW = Policy.loads('[[rules]]\nid = "pay"\naction = "allow"\ntools = ["record_payment"]\n')


def telemetries(exporter: Dropped) -> dict[str, Telemetry | None]:
    tracer = TracerProvider()
    tracer.add_span_processor(BatchSpanProcessor(exporter))
    meter = MeterProvider(metric_readers=[InMemoryMetricReader()])
    return {
        "off": None,
        "noop": Telemetry(tracer_provider=NoOpTracerProvider(), meter_provider=NoOpMeterProvider()),
        "sdk": Telemetry(tracer_provider=tracer, meter_provider=meter),
        "sdk_payloads": Telemetry(
            tracer_provider=tracer, meter_provider=meter, capture_payloads=True
        ),
    }


def sdk_bare(telemetry: Telemetry) -> Case:
    """The least any instrumentation with one span and two metric points pays the SDK: a
    span with the attributes a call's span carries (10 at start, 3 at the end), made current
    and ended, a counter and a histogram point; no gate."""
    from opentelemetry import context, trace

    opening = {f"attribute.{i}": f"value {i}" for i in range(10)}
    closing = {"route": "completed", "replayed": False, "rule": "default:read"}
    metric = {"route": "completed", "tool": "forecast"}

    async def bare() -> str:
        span = telemetry.tracer.start_span("execute_tool forecast", attributes=opening)
        token = context.attach(trace.set_span_in_context(span))
        context.detach(token)
        span.set_attributes(closing)
        span.end()
        telemetry.calls.add(1, metric)
        telemetry.call_duration.record(0.001, metric)
        return EXPECTED

    return Case(name="sdk_bare_span", group="sdk", what="the SDK alone: one span (10 + 3 "
                "attributes, made current), a counter and a histogram point", fn=bare,
                answer=str)  # fmt: skip


def cases(gates: dict[str, Gate], durable: dict[str, Gate]) -> list[Case]:
    read = ToolCall(id="c1", name="forecast", arguments=ARGS_TEXT)
    thread = ToolCall(id="c1", name="forecast_sync", arguments=ARGS_TEXT)
    numbers = itertools.count()

    def content(result: Any) -> str:
        return str(result.content) if result.route == "completed" else repr(result)

    def write(gate: Gate) -> Any:
        n = next(numbers)
        call = ToolCall(id=f"w{n}", name="record_payment", arguments='{"amount": 5}')
        return gate.call(call, request_id=f"req-{n}")

    out: list[Case] = []
    for mode, gate in gates.items():
        off = None if mode == "off" else "{}_off"
        out += [
            Case(name=f"call_{mode}", group="lean", what="await gate.call, async read tool",
                 fn=functools.partial(gate.call, read), answer=content),
            Case(name=f"call_sync_{mode}", group="lean", what="gate.call_sync, async read tool",
                 fn=functools.partial(gate.call_sync, read), answer=content, is_async=False),
            Case(name=f"thread_{mode}", group="lean", what="await gate.call, sync tool in a "
                 "worker thread", fn=functools.partial(gate.call, thread), answer=content),
        ]  # fmt: skip
        for case in out[-3:]:
            case.floor = off and off.format(case.name.removesuffix(f"_{mode}"))
    for mode, gate in durable.items():
        out.append(
            Case(
                name=f"durable_{mode}",
                group="durable",
                what="await gate.call, write tool, SQLite store: claim, execute, receipt",
                fn=functools.partial(write, gate),
                answer=content,
                floor=None if mode == "off" else "durable_off",
            )
        )
    return out


def check(case: Case, loop: asyncio.AbstractEventLoop) -> None:
    result = loop.run_until_complete(case.fn()) if case.is_async else case.fn()
    if case.answer(result) != EXPECTED:
        raise SystemExit(f"{case.name}: expected {EXPECTED!r}, got {case.answer(result)!r}")


def measure(repeats: int, sample_seconds: float, mode: str) -> dict[str, Any]:
    import os

    load = os.getloadavg()
    exporter = Dropped()
    modes = telemetries(exporter)
    loop = asyncio.new_event_loop()
    gates = {m: Gate([CG_FORECAST, CG_FORECAST_SYNC], telemetry=t) for m, t in modes.items()}
    durable = {
        m: Gate([record_payment], policy=ALLOW, store="sqlite://:memory:", telemetry=t)
        for m, t in modes.items()
        if m in ("off", "sdk")
    }
    try:
        sdk = modes["sdk"]
        assert sdk is not None
        timed = [*cases(gates, durable), sdk_bare(sdk)]
        for case in timed:
            check(case, loop)
            case.iterations = calibrate(case, loop, sample_seconds)
        order = random.Random(ORDER_SEED)
        steps: list[Callable[[], None]] = [functools.partial(take, c, loop) for c in timed]
        for repeat in range(repeats):
            order.shuffle(steps)
            for step in steps:
                step()
            print(f"repeat {repeat + 1}/{repeats}", file=sys.stderr, flush=True)
        by = {c.name: c for c in timed}
        rows = {c.name: _row(c, by) for c in timed}
    finally:
        for gate in [*gates.values(), *durable.values()]:
            gate.close()
        loop.close()
    return {
        **environment(load),
        "mode": mode,
        "repeats": repeats,
        "sample_seconds": sample_seconds,
        "order_seed": ORDER_SEED,
        "statistic": "µs per call: median and quartiles of the per-repeat samples (elapsed, "
        "and the process's CPU time over all threads); vs_off: each sample over the same "
        "path's off sample of the same repeat, median and quartiles",
        "modes": {
            "off": "Gate(...) without telemetry: no telemetry step in the chain",
            "noop": "telemetry=Telemetry() on the API's no-op providers (no SDK)",
            "sdk": "the SDK: BatchSpanProcessor into a dropping exporter + a MeterProvider",
            "sdk_payloads": "sdk with capture_payloads=True (arguments and result, redacted)",
        },
        "spans_exported": exporter.spans,
        "cases": rows,
    }


def _row(case: Case, by: dict[str, Case]) -> dict[str, Any]:
    row: dict[str, Any] = {
        "what": case.what,
        "group": case.group,
        "us_per_call": spread(case.times.wall),
        "cpu_us_per_call": spread(case.times.cpu),
    }
    if case.floor is not None:
        base = by[case.floor]
        row["vs_off"] = spread(ratios(case.times.wall, base.times.wall))
        row["cpu_vs_off"] = spread(ratios(case.times.cpu, base.times.cpu))
        row["added_us"] = round(
            statistics.median(case.times.wall) - statistics.median(base.times.wall), 2
        )
    return row


def markdown(report: dict[str, Any]) -> str:
    lines = [
        "# Telemetry overhead",
        "",
        f"`python benchmarks/telemetry_overhead.py` ({report['mode']}, {report['repeats']} "
        "repeats). µs per call, median of the samples; ratios against the same path with "
        "telemetry off, within each repeat.",
        "",
        "| case | what | µs/call | CPU µs/call | vs off | CPU vs off | added µs |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, row in report["cases"].items():
        vs = row.get("vs_off", {}).get("median")
        cpu = row.get("cpu_vs_off", {}).get("median")
        lines.append(
            f"| `{name}` | {row['what']} | {row['us_per_call']['median']} | "
            f"{row['cpu_us_per_call']['median']} | {f'{vs:.2f}x' if vs else 'baseline'} | "
            f"{f'{cpu:.2f}x' if cpu else ''} | {row.get('added_us', '')} |"
        )
    lines += ["", *(f"- `{k}`: {v}" for k, v in report["modes"].items()), ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter samples")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--sample-seconds", type=float, default=None)
    args = parser.parse_args()
    repeats = args.repeats or (5 if args.quick else 25)
    seconds = args.sample_seconds or (0.02 if args.quick else 0.05)
    report = measure(repeats, seconds, "quick" if args.quick else "full")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "telemetry_overhead.json").write_text(json.dumps(report, indent=2) + "\n")
    text = markdown(report)
    (RESULTS / "telemetry_overhead.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
