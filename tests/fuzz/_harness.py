"""How every fuzz test runs an example: with a deadline, allowing only documented errors.

Budgets: the `ci` profile (the default) runs a fixed, derandomized set of examples so the
whole folder stays under a minute on a small shared machine; `HYPOTHESIS_PROFILE=long`
runs many more with fresh randomness, by hand:

    HYPOTHESIS_PROFILE=long pytest tests/fuzz -q
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, settings

from callgate import CallgateError

T = TypeVar("T")

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
PROFILES = {
    "ci": settings(
        max_examples=60,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=_QUIET,
    ),
    "long": settings(max_examples=3000, deadline=None, suppress_health_check=_QUIET),
}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
FUZZ = PROFILES.get(PROFILE, PROFILES["ci"])
"""The settings every fuzz test uses (`@FUZZ`)."""


def scaled(examples: int) -> settings:
    """`FUZZ` with a CI budget of `examples` (entry points that cost more per example);
    the long profile keeps its own."""
    if PROFILE == "long":
        return FUZZ
    return settings(FUZZ, max_examples=examples)


QUIET_REPR = pytest.mark.filterwarnings("ignore:Generating overly large repr")
"""Hostile examples (a 70,000-character string) have long reprs; Hypothesis warns, and the
suite turns warnings into errors. Each fuzz module sets `pytestmark = QUIET_REPR`."""

LIMIT = 20.0
"""Seconds one example may take before it counts as a hang. Far above what any example
needs, so a loaded machine does not fail it; an unbounded loop or a quadratic blow-up on
hostile input exceeds it."""


def within(fn: Callable[[], T], seconds: float = LIMIT) -> T | None:
    """Run `fn` in a worker thread; fail the test if it has not returned in `seconds`.

    Returns what `fn` returned, or None when it raised one of the library's documented
    errors (`CallgateError` and its subclasses, `UserError` among them). Any other
    exception is re-raised here, and fails the test.
    """
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = fn()
        except CallgateError as exc:
            outcome["documented"] = exc
        except BaseException as exc:
            outcome["error"] = exc

    worker = threading.Thread(target=run, daemon=True, name="fuzz-example")
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        pytest.fail(f"the example did not finish within {seconds:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def within_async(make: Callable[[], Coroutine[Any, Any, T]], seconds: float = LIMIT) -> T | None:
    """`within` for a coroutine: it runs on its own event loop in the worker thread."""
    return within(lambda: asyncio.run(make()), seconds)
