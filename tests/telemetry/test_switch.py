"""When telemetry is on, and what it costs when it is off: nothing, not even an import."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

from callgate import Gate, ToolCall, tool
from callgate.telemetry import Telemetry, current, instrument, uninstrument
from callgate.telemetry._calls import TraceCalls
from tests.telemetry.conftest import Otel


@tool(effect="read")
def ping() -> str:
    """Answer pong."""
    return "pong"


@pytest.fixture
def restore() -> Iterator[None]:
    before = current()
    yield
    if before is None:
        uninstrument()
    else:
        instrument(before)


def test_a_gate_without_telemetry_has_no_telemetry_step() -> None:
    with Gate([ping]) as lean, Gate([ping], store="sqlite://:memory:") as durable:
        assert lean.telemetry is None and durable.telemetry is None
        assert not isinstance(lean._chain, TraceCalls)
        assert type(lean._chain).__name__ == "Prepare"
        assert type(durable._chain).__name__ == "Record"


def test_a_traced_gate_wraps_the_whole_chain(otel: Otel) -> None:
    with Gate([ping], store="sqlite://:memory:", telemetry=otel.telemetry()) as g:
        assert isinstance(g._chain, TraceCalls)
        assert type(g._chain.next).__name__ == "Record"


def test_instrument_traces_the_gates_made_after_it(otel: Otel, restore: None) -> None:
    with Gate([ping]) as before:
        telemetry = instrument(otel.telemetry())
        with Gate([ping]) as after, Gate([ping], telemetry=otel.telemetry()) as own:
            assert before.telemetry is None
            assert after.telemetry is telemetry
            assert own.telemetry is not telemetry
            after.call_sync(ToolCall(id="c1", name="ping"))
        uninstrument()
        with Gate([ping]) as later:
            assert later.telemetry is None
    assert [s.name for s in otel.spans()] == ["execute_tool ping"]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_gate_without_telemetry_never_imports_opentelemetry() -> None:
    done = _run(
        """
        import sys
        from callgate import Agent, Gate, ToolCall, tool
        from callgate.models import ScriptedModel, Turn

        @tool(effect="read")
        def ping() -> str:
            "Answer pong."
            return "pong"

        with Gate([ping], store="sqlite://:memory:") as gate:
            assert gate.call_sync(ToolCall(id="c1", name="ping")).route == "completed"
        with Agent(ScriptedModel([Turn.call(("ping", {})), Turn.say("ok")]), [ping]) as agent:
            import asyncio
            assert asyncio.run(agent.run("ping")).status == "finished"
        loaded = sorted(m for m in sys.modules if m.startswith("opentelemetry"))
        print(loaded)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_without_the_extra_telemetry_names_the_install_command() -> None:
    done = _run(
        """
        import sys
        sys.modules["opentelemetry"] = None  # as if not installed
        from callgate import Gate
        from callgate.telemetry import Telemetry
        Gate([])  # a gate without telemetry does not need it
        try:
            Telemetry()
        except ImportError as exc:
            print(type(exc).__name__, exc)
        """
    )
    assert done.returncode == 0, done.stderr
    assert "MissingExtraError" in done.stdout
    assert "pip install 'callgate[otel]'" in done.stdout


def test_telemetry_uses_the_global_providers_by_default() -> None:
    telemetry = Telemetry()
    with Gate([ping], telemetry=telemetry) as g:  # the API's no-op providers: nothing fails
        assert g.call_sync(ToolCall(id="c1", name="ping")).route == "completed"
