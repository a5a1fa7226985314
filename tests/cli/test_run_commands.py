"""`callgate demo`, `callgate run` and `callgate chat` from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callgate.cli import app
from callgate.models import FakeOpenAIChatServer, Turn
from tests.cli.helpers import assert_error, cli
from tests.conftest import needs
from tests.loop import agents
from tests.models import scenario
from tests.models.scenario import OPENAI_OVER_HTTP

ROOT = Path(__file__).resolve().parents[2]


@OPENAI_OVER_HTTP
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
    # Each final answer once: streamed, not repeated by the summary.
    assert out.count("Ann has one order, O-1001") == 1
    assert out.count("The change was declined: the supplier has not confirmed it.") == 1


@OPENAI_OVER_HTTP
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


@OPENAI_OVER_HTTP
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
                "--create",
            ],
            input="pay acme 5\ny\n\n",
        )
    assert result.exit_code == 0, result.output
    assert "held" in result.output and "Paid 5." in result.output
    assert log.read_text().splitlines() == ["pay 5"]


def test_a_bad_model_spec_is_a_clear_error() -> None:
    ran = cli("run", "hi", "--tools", "tests.models.scenario:TOOLS", "--model", "nonsense")
    assert_error(ran, "PROVIDER:MODEL")


PAY = ["--tools", "tests.loop.agents:TOOLS", "--model", "openai:m"]


@pytest.fixture
def writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    log = tmp_path / "writes.log"
    log.touch()
    monkeypatch.setattr(agents, "LOG", log)
    return log


def _paused_run(base_url: str, store: Path) -> str:
    ran = cli(
        "run", "pay acme 5", *PAY, "--base-url", base_url,
        "--store", str(store), "--create", "--json",
    )  # fmt: skip
    assert ran.code == 3, ran
    outcome = json.loads(ran.stdout)
    assert outcome["status"] == "paused" and outcome["saved"] is True
    assert f"callgate resume {outcome['run_id']} --store {store}" in ran.stderr
    return str(outcome["run_id"])


def _approvals(store: Path) -> list[dict[str, object]]:
    listed: list[dict[str, object]] = json.loads(
        cli("approvals", "list", "--store", str(store), "--json").stdout
    )
    return listed


@OPENAI_OVER_HTTP
def test_a_paused_run_is_decided_with_approvals_and_resumed(tmp_path: Path, writes: Path) -> None:
    store = tmp_path / "c.db"
    with FakeOpenAIChatServer([Turn.call(("pay", {"amount": 5})), Turn.say("Paid 5.")]) as server:
        run_id = _paused_run(server.base_url, store)
        [pending] = _approvals(store)
        assert pending["run_id"] == run_id
        assert cli("approvals", "approve", str(pending["id"]), "--store", str(store)).code == 0
        assert writes.read_text() == ""  # a decision does not run the call
        ran = cli(
            "resume", run_id, *PAY, "--base-url", server.base_url, "--store", str(store), "--json"
        )
    assert ran.code == 0, ran
    outcome = json.loads(ran.stdout)
    assert outcome["status"] == "finished" and outcome["answer"] == "Paid 5."
    assert writes.read_text().splitlines() == ["pay 5"]
    assert_error(cli("resume", run_id, *PAY, "--store", str(store)), "has finished")


@OPENAI_OVER_HTTP
def test_resume_asks_at_the_prompt_and_asks_again_for_a_bad_edit(
    tmp_path: Path, writes: Path
) -> None:
    store = tmp_path / "c.db"
    with FakeOpenAIChatServer([Turn.call(("pay", {"amount": 5})), Turn.say("Paid 7.")]) as server:
        run_id = _paused_run(server.base_url, store)
        ran = cli(
            "resume", run_id, *PAY, "--base-url", server.base_url, "--store", str(store),
            input='e\nnot json\n[1]\n{"amount": 7}\n',
        )  # fmt: skip
    assert ran.code == 0, ran
    assert "not JSON" in ran.stdout and "must be a JSON object" in ran.stdout
    assert "Paid 7." in ran.stdout and "Traceback" not in ran.output
    assert writes.read_text().splitlines() == ["pay 7"]


@OPENAI_OVER_HTTP
def test_without_a_store_a_pause_says_nothing_was_saved(tmp_path: Path, writes: Path) -> None:
    policy = tmp_path / "policy.toml"
    policy.write_text('[[rules]]\nid = "ask"\naction = "ask"\ntools = ["pay"]\n')
    with FakeOpenAIChatServer([Turn.call(("pay", {"amount": 5}))]) as server:
        ran = cli("run", "pay 5", *PAY, "--base-url", server.base_url, "--policy", str(policy))
    assert ran.code == 3
    assert "nothing was saved" in ran.stderr and "state is in" not in ran.output
    assert writes.read_text() == ""


@OPENAI_OVER_HTTP
def test_policy_file(tmp_path: Path, writes: Path) -> None:
    policy = tmp_path / "policy.toml"
    policy.write_text(
        '[[rules]]\nid = "no-pay"\naction = "deny"\nreason = "not today"\ntools = ["pay"]\n'
    )
    turns = [Turn.call(("pay", {"amount": 5})), Turn.say("Could not pay.")]
    with FakeOpenAIChatServer(turns) as server:
        ran = cli(
            "run", "pay", *PAY, "--base-url", server.base_url, "--policy", str(policy), "--json"
        )
    assert ran.code == 0, ran
    assert [c["route"] for c in json.loads(ran.stdout)["calls"]] == ["denied"]
    assert writes.read_text() == ""
    policy.write_text("rules = 3\n[oops")
    assert_error(cli("run", "pay", *PAY, "--policy", str(policy)), str(policy))
    assert_error(cli("run", "pay", *PAY, "--policy", str(tmp_path / "none.toml")), "none.toml")


@OPENAI_OVER_HTTP
def test_tools_are_found_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cli_run_tools_here.py").write_text(
        "from callgate import tool\n"
        "@tool\n"
        "def shout(text: str) -> str:\n"
        '    """Shout a text."""\n'
        "    return text.upper()\n"
        "def make():\n"
        "    return [shout]\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    turns = [Turn.call(("shout", {"text": "hi"})), Turn.say("HI")]
    with FakeOpenAIChatServer(turns) as server:
        ran = cli(
            "run", "shout hi", "--tools", "cli_run_tools_here:make", "--model", "openai:m",
            "--base-url", server.base_url, "--json",
        )  # fmt: skip
    assert ran.code == 0, ran
    assert [c["route"] for c in json.loads(ran.stdout)["calls"]] == ["completed"]


@pytest.mark.parametrize(
    ("tools", "needle"),
    [
        ("no_such_module_xyz:TOOLS", "cannot import 'no_such_module_xyz'"),
        ("tests.loop.agents:NOPE", "has no attribute 'NOPE'"),
        ("tests.loop.agents:LOG", "expected a Catalog"),
        ("tests.loop.agents", "expected MODULE:ATTRIBUTE"),
    ],
)
def test_tools_that_cannot_be_loaded(tools: str, needle: str) -> None:
    assert_error(cli("run", "hi", "--tools", tools, "--model", "openai:m"), "--tools", needle)


@needs("openai", extra="openai")
def test_a_missing_api_key_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_ADMIN_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    ran = cli("run", "hi", "--tools", "tests.loop.agents:TOOLS", "--model", "openai:gpt-4o-mini")
    assert_error(ran, "'openai:gpt-4o-mini' could not be started", "OPENAI_API_KEY")


@OPENAI_OVER_HTTP
def test_stores_for_runs(tmp_path: Path) -> None:
    missing = tmp_path / "new.db"
    assert_error(cli("run", "hi", *PAY, "--store", str(missing)), "does not exist", "--create")
    assert not missing.exists()
    assert_error(cli("resume", "run_nope", *PAY, "--store", str(missing)), "does not exist")
    with FakeOpenAIChatServer([Turn.say("hello")]) as server:
        made = cli(
            "run", "hi", *PAY, "--base-url", server.base_url, "--store", str(missing), "--create"
        )
    assert made.code == 0 and missing.exists()
    nope = cli("resume", "run_nope", *PAY, "--store", str(missing))
    assert_error(nope, "no saved run 'run_nope'")
