"""Per-call cost of the gate (resolve + parse + validate + execute + render) for a trivial tool.

Run: python benchmarks/gate_overhead.py   -> benchmarks/results/gate_overhead.json

Baselines measured in the same run: a direct call of the function, and a bare jsonschema-rs
validation plus the direct call (with and without `json.loads` of the argument text).
DESIGN's target: the gate costs at most 2x the bare validation + direct call.
"""

from __future__ import annotations

import asyncio
import json
import platform
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import jsonschema_rs

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import RESULTS

from callgate import Gate, ToolCall, tool

N = 20_000
REPEATS = 7
ARGS_TEXT = '{"city": "Moscow", "days": 3}'


@tool(effect="read")
async def forecast(city: str, days: int = 3) -> str:
    """Return the forecast for a city."""
    return city


@tool(effect="read")
def forecast_sync(city: str, days: int = 3) -> str:
    """Return the forecast for a city."""
    return city


async def _time_async(fn: Callable[[], Awaitable[Any]], n: int) -> float:
    best: list[float] = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(n):
            await fn()
        best.append((time.perf_counter() - start) / n * 1e6)
    return statistics.median(best)


def _time_sync(fn: Callable[[], Any], n: int) -> float:
    runs: list[float] = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        runs.append((time.perf_counter() - start) / n * 1e6)
    return statistics.median(runs)


async def measure_async(gate: Gate) -> dict[str, float]:
    validator = jsonschema_rs.validator_for(forecast.input_schema)
    executor = forecast.executor
    assert executor is not None
    args = {"city": "Moscow", "days": 3}
    call = ToolCall(id="c1", name="forecast", arguments=ARGS_TEXT)

    async def direct() -> Any:
        return await executor(**args)

    async def validate_and_call() -> Any:
        validator.is_valid(args)
        return await executor(**args)

    async def parse_validate_and_call() -> Any:
        parsed = json.loads(ARGS_TEXT)
        validator.is_valid(parsed)
        return await executor(**parsed)

    async def through_gate() -> Any:
        return await gate.call(call)

    result = await gate.call(call)
    assert result.route == "completed", result
    return {
        "direct_call_us": await _time_async(direct, N),
        "validate_plus_call_us": await _time_async(validate_and_call, N),
        "parse_validate_plus_call_us": await _time_async(parse_validate_and_call, N),
        "gate_call_us": await _time_async(through_gate, N),
    }


async def measure_sync_tool_in_loop(gate: Gate) -> float:
    call = ToolCall(id="c1", name="forecast_sync", arguments=ARGS_TEXT)
    return await _time_async(lambda: gate.call(call), N // 4)


def main() -> None:
    gate = Gate([forecast, forecast_sync])
    numbers = asyncio.run(measure_async(gate))
    numbers["gate_sync_tool_in_loop_us"] = asyncio.run(measure_sync_tool_in_loop(gate))
    sync_call = ToolCall(id="c1", name="forecast_sync", arguments=ARGS_TEXT)
    numbers["gate_call_sync_api_us"] = _time_sync(lambda: gate.call_sync(sync_call), N // 4)
    gate.close()
    floor = numbers["validate_plus_call_us"]
    report = {
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "iterations": N,
        "repeats": REPEATS,
        "unit": "microseconds per call (median of repeats)",
        "numbers": {k: round(v, 3) for k, v in numbers.items()},
        "ratios": {
            "gate_vs_validate_plus_call": round(numbers["gate_call_us"] / floor, 2),
            "gate_vs_parse_validate_plus_call": round(
                numbers["gate_call_us"] / numbers["parse_validate_plus_call_us"], 2
            ),
            "gate_vs_direct_call": round(numbers["gate_call_us"] / numbers["direct_call_us"], 2),
        },
        "gate_calls_per_second": round(1e6 / numbers["gate_call_us"]),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "gate_overhead.json").write_text(json.dumps(report, indent=2) + "\n")
    for key, value in numbers.items():
        print(f"{key:34} {value:9.2f} us")
    for key, value in report["ratios"].items():
        print(f"{key:34} {value:9.2f} x")
    print(f"{'gate calls/s (async read tool)':34} {report['gate_calls_per_second']:9d}")


if __name__ == "__main__":
    main()
