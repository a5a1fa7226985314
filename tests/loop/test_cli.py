"""`callgate demo`, `callgate run` and `callgate chat` from the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callgate.cli import app
from callgate.models import FakeOpenAIChatServer, Turn
from tests.loop import agents
from tests.models import scenario

ROOT = Path(__file__).resolve().parents[2]


def test_demo_runs_without_network_or_key_and_exits_0() -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith("_API_KEY") and "PROXY" not in k.upper()
    }
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", "from callgate.cli import main; main()", "demo"],
        cwd=ROOT,
        env={**env, "COLUMNS": "120"},
        capture_output=True,
        text=True,
        timeout=55,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout
    for route in (
        "completed",
        "invalid",
        "failed",
        "denied",
        "held",
        "verified",
        "declined",
        "conflict",
        "unknown_outcome",
        "timeout",
    ):
        assert route in out
    assert "supplier record writes: 2" in out
    assert "ok=True" in out


def test_run_against_an_openai_compatible_server() -> None:
    scenario.CALLS.clear()
    with FakeOpenAIChatServer(scenario.script()) as server:
        result = CliRunner().invoke(
            app,
            [
                "run",
                "Weather in Paris and Lyon?",
                "--tools",
                "tests.models.scenario:TOOLS",
                "--model",
                "openai:local-model",
                "--base-url",
                server.base_url,
            ],
        )
    assert result.exit_code == 0, result.output
    assert "invalid" in result.output and "failed" in result.output
    assert "Paris and Lyon are sunny" in result.output
    assert server.requests[0].body["model"] == "local-model"


def test_chat_asks_for_approval_in_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    turns = [Turn.call(("pay", {"amount": 5})), Turn.say("Paid 5.")]
    log = tmp_path / "writes.log"
    log.touch()
    monkeypatch.setattr(agents, "LOG", log)
    with FakeOpenAIChatServer(turns) as server:
        result = CliRunner().invoke(
            app,
            [
                "chat",
                "--tools",
                "tests.loop.agents:TOOLS",
                "--model",
                "openai:m",
                "--base-url",
                server.base_url,
                "--store",
                f"sqlite:///{tmp_path / 'c.db'}",
            ],
            input="pay acme 5\ny\n\n",
        )
    assert result.exit_code == 0, result.output
    assert "held" in result.output and "Paid 5." in result.output
    assert log.read_text().splitlines() == ["pay 5"]


def test_a_bad_model_spec_is_a_clear_error() -> None:
    result = CliRunner().invoke(
        app, ["run", "hi", "--tools", "tests.models.scenario:TOOLS", "--model", "nonsense"]
    )
    assert result.exit_code == 1
    assert "PROVIDER:MODEL" in result.output
