"""run_command: the allowlist, attempts to get around it, and how commands are run."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from callgate import UserError
from callgate.toolsets import CodingLimits, coding_tools
from tests.gate._spotlight import data_of
from tests.toolsets.conftest import Session

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git on PATH")


@pytest.fixture
def repo(workspace: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("needs git on PATH")
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    return workspace


@needs_git
async def test_an_allowlisted_command_runs_at_once(
    session: Callable[..., Session], repo: Path
) -> None:
    result = await session().call("run_command", argv=["git", "status", "--short"])
    assert result.route == "completed" and result.rule_id == "toolset:allowlist"
    assert data_of(result.content).startswith("$ git status --short\nexit code 0\n")
    assert "?? README.md" in result.content


BYPASSES = [
    ["git", "-c", "core.pager=sh -c 'touch pwned'", "status"],
    ["git", "status", "-c", "core.fsmonitor=touch pwned"],
    ["git", "--git-dir=/tmp", "status"],
    ["git", "diff", "--output=/tmp/pwned"],
    ["git", "diff", "--outp=pwned"],
    ["git", "diff", "--ext-diff"],
    ["git", "diff", "--no-index", "/etc/passwd", "README.md"],
    ["git", "status", "/etc"],
    ["git", "diff", "--", "../outside.txt"],
    ["git", "push"],
    ["env", "git", "status"],
    ["sh", "-c", "git status; touch pwned"],
    ["bash", "-c", "git status"],
    ["python", "-c", "open('pwned', 'w')"],
    ["python3", "-c", "open('pwned', 'w')"],
    ["xargs", "touch"],
    ["find", ".", "-exec", "touch", "pwned", ";"],
    ["/usr/bin/git", "status"],
    ["./git", "status"],
    ["pytest", "-p", "pwn"],
    ["pytest", "-xppwn"],
    ["pytest", "--rootdir=/"],
    ["pytest", "--pastebin=all"],
    ["ruff", "check", "--fix"],
    ["ruff", "check", "--output-file", "/tmp/pwned"],
    ["gitx", "status"],
    ["git status"],
]


@pytest.mark.parametrize("argv", BYPASSES, ids=lambda a: " ".join(a)[:40])
async def test_allowlist_bypasses_are_held(
    session: Callable[..., Session], workspace: Path, argv: list[str]
) -> None:
    result = await session().call("run_command", argv=argv)
    assert result.route == "held", result
    assert result.rule_id == "toolset:command"
    assert not (workspace / "pwned").exists()


@pytest.mark.parametrize("argv", BYPASSES[:6] + BYPASSES[11:14], ids=lambda a: a[0])
async def test_without_the_policy_bypasses_fail_closed(
    session: Callable[..., Session], workspace: Path, argv: list[str]
) -> None:
    result = await session(lean=True).call("run_command", argv=argv)
    assert result.route == "failed" and "does not ask people" in result.content
    assert not (workspace / "pwned").exists()


@needs_git
@pytest.mark.parametrize(
    "tail", [[";", "touch", "pwned"], ["&&", "touch", "pwned"], ["$(touch pwned)"], ["|", "sh"]]
)
async def test_shell_syntax_is_only_arguments(
    session: Callable[..., Session], repo: Path, tail: list[str]
) -> None:
    result = await session().call("run_command", argv=["git", "status", *tail])
    assert result.route == "completed"  # allowlisted: git gets odd pathspecs, nothing else runs
    assert not (repo / "pwned").exists()


@needs_git
async def test_an_approved_command_runs_as_approved(
    session: Callable[..., Session], repo: Path
) -> None:
    s = session()
    held = await s.call("run_command", argv=["git", "log", "-1"])
    assert held.route == "held"
    done = await s.approve(held)
    assert done.route == "completed" and "$ git log -1" in done.content


@pytest.fixture
def hostile_repo(repo: Path) -> Path:
    """A checkout whose own configuration names a program for git to run on `status`."""
    subprocess.run(["git", "-C", str(repo), "config", "core.fsmonitor", "touch pwned"], check=True)
    return repo


@needs_git
async def test_a_repository_fsmonitor_does_not_run_on_git_status(
    session: Callable[..., Session], hostile_repo: Path
) -> None:
    repo = hostile_repo
    result = await session().call("run_command", argv=["git", "status"])
    assert result.route == "completed"
    assert not (repo / "pwned").exists()


def test_allowlist_entries_that_run_anything_are_refused(workspace: Path) -> None:
    for entry in ["env", "sh -c", "bash", "python", "python3 -c", "xargs", "/usr/bin/git status"]:
        with pytest.raises(UserError):
            coding_tools(workspace, allow=[entry])
    coding_tools(workspace, allow=["python -m pytest", "find"])


async def test_find_is_allowed_without_exec(
    session: Callable[..., Session], workspace: Path
) -> None:
    s = session(allow=["find"])
    listed = await s.call("run_command", argv=["find", ".", "-name", "*.py"])
    executed = await s.call("run_command", argv=["find", ".", "-delete"])
    assert listed.route == "completed" and "app.py" in listed.content
    assert executed.route == "held"
    assert (workspace / "README.md").exists()


async def test_the_environment_is_scrubbed_and_the_directory_is_the_root(
    session: Callable[..., Session],
    workspace: Path,
    bin_dir: Callable[[str, str], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-live-secret")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-secret")
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@db/x")
    bin_dir("showenv", "pwd; env | sort")
    result = await session(allow=["showenv"], env={"EXTRA": "yes"}).call(
        "run_command", argv=["showenv"]
    )
    assert result.route == "completed"
    assert f"\n{workspace}\n" in result.content
    for secret in ("sk-live-secret", "aws-secret", "postgres://"):
        assert secret not in result.content
    assert "PATH=" in result.content and "EXTRA=yes" in result.content
    assert "GIT_TERMINAL_PROMPT=0" in result.content


async def test_a_command_past_its_timeout_is_stopped(
    session: Callable[..., Session], bin_dir: Callable[[str, str], None], tmp_path: Path
) -> None:
    marker = tmp_path / "still-running"
    bin_dir("slow", f"echo started; sleep 30; touch {marker}")
    result = await session(allow=["slow"]).call("run_command", argv=["slow"], timeout=1)
    assert result.route == "failed"
    assert "ran past its timeout of 1 s and was stopped" in result.content
    assert "started" in result.content
    assert not marker.exists()


async def test_long_output_is_cut_with_a_notice(
    session: Callable[..., Session], bin_dir: Callable[[str, str], None]
) -> None:
    bin_dir(
        "noisy",
        'echo FIRST; i=0; while [ $i -lt 3000 ]; do echo "line $i"; i=$((i+1)); done; echo LAST',
    )
    s = session(allow=["noisy"], limits=CodingLimits(command_output_chars=2000))
    result = await s.call("run_command", argv=["noisy"])
    assert result.route == "completed"
    assert "FIRST" in result.content and "LAST" in result.content
    assert "output cut:" in result.content and len(data_of(result.content)) < 2300


async def test_a_failing_command_is_reported_not_raised(
    session: Callable[..., Session], bin_dir: Callable[[str, str], None]
) -> None:
    bin_dir("fails", "echo broken >&2; exit 3")
    result = await session(allow=["fails"]).call("run_command", argv=["fails"])
    assert result.route == "completed" and "exit code 3\nbroken" in result.content


@pytest.mark.parametrize("argv", [[], [""], ["git", "a\x00b"]])
async def test_malformed_argv_never_runs(session: Callable[..., Session], argv: list[str]) -> None:
    result = await session().call("run_command", argv=argv)
    assert result.route in ("invalid", "denied")


def test_programs_are_found_on_absolute_path_entries_only(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_rel = workspace / "bin"
    bin_rel.mkdir()
    fake = bin_rel / "planted"
    fake.write_text("#!/bin/sh\necho planted\n")
    fake.chmod(0o755)
    monkeypatch.chdir(workspace)
    monkeypatch.setenv("PATH", f"bin{os.pathsep}{os.environ.get('PATH', '')}")
    catalog = coding_tools(workspace, allow=["planted"])
    assert catalog.guard.allowlist.programs["planted"] is None
