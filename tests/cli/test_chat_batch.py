"""`callgate chat` asks about the held calls of one model step together: listed, each
with its reason, then decided all at once or each in turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from callgate.cli import app
from callgate.models import FakeOpenAIChatServer, Turn
from tests.loop import agents
from tests.models.scenario import OPENAI_OVER_HTTP


def _chat(
    tmp_path: Path, answers: str, *, amounts: tuple[int, int] = (5, 7), end: str = "\n"
) -> tuple[str, list[str]]:
    log = tmp_path / "writes.log"
    log.touch()
    pays = [("pay", {"amount": amount}) for amount in amounts]
    turns = [Turn.call(*pays), Turn.say("Done.")]
    with pytest.MonkeyPatch.context() as patch, FakeOpenAIChatServer(turns) as server:
        patch.setattr(agents, "LOG", log)
        store = f"sqlite:///{tmp_path / 'c.db'}"
        args = ["chat", "--tools", "tests.loop.agents:TOOLS", "--model", "openai:m"]
        args += ["--base-url", server.base_url, "--store", store, "--create"]
        result = CliRunner().invoke(app, args, input=f"pay acme 5 and 7\n{answers}{end}")
    assert result.exit_code == 0, result.output
    return result.output, log.read_text().splitlines()


@OPENAI_OVER_HTTP
def test_all_held_calls_of_a_step_are_listed_and_approved_at_once(tmp_path: Path) -> None:
    out, writes = _chat(tmp_path, "all\n")
    assert "2 calls of this step wait for approval" in out
    assert '1. pay({"amount": 5})' in out and '2. pay({"amount": 7})' in out
    assert sorted(writes) == ["pay 5", "pay 7"] and "Done." in out


@OPENAI_OVER_HTTP
def test_declining_all_runs_none(tmp_path: Path) -> None:
    out, writes = _chat(tmp_path, "none\nnot today\n")
    assert writes == [] and "declined" in out


@OPENAI_OVER_HTTP
def test_each_call_can_be_decided_in_turn(tmp_path: Path) -> None:
    out, writes = _chat(tmp_path, "each\ny\nn\nno\n")
    assert writes == ["pay 5"] and "declined" in out


@OPENAI_OVER_HTTP
def test_input_ending_at_the_reason_leaves_the_calls_held(tmp_path: Path) -> None:
    out, writes = _chat(tmp_path, "none", end="")
    assert writes == [] and "unexpected" not in out


@OPENAI_OVER_HTTP
def test_identical_calls_share_one_approval_and_each_approval_runs_one(tmp_path: Path) -> None:
    # One approval is spent by one execution: the second identical call is held afresh
    # under its own approval and asked about, instead of failing on the spent one.
    out, writes = _chat(tmp_path, "all\ny\n", amounts=(5, 5))
    assert "2 calls of this step wait for approval" in out
    assert writes == ["pay 5", "pay 5"] and "Done." in out
