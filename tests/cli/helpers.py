"""Running the command line in-process (typer's CliRunner) and in a real subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from callgate.cli import app

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, kw_only=True, slots=True)
class Ran:
    code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def cli(*args: str, env: dict[str, str] | None = None, input: str | None = None) -> Ran:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})}, input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"callgate {' '.join(args)} raised") from result.exception
    return Ran(code=result.exit_code, stdout=result.stdout, stderr=result.stderr)


def callgate(*args: str, cwd: Path = ROOT, timeout: float = 60) -> Ran:
    """`python -m callgate.cli ARGS` in a fresh interpreter: the real entry point."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CALLGATE_")}
    done = subprocess.run(
        [sys.executable, "-m", "callgate.cli", *args],
        cwd=cwd,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return Ran(code=done.returncode, stdout=done.stdout, stderr=done.stderr)


def assert_error(ran: Ran, *needles: str, code: int = 2) -> None:
    """Exit `code`, and one line on stderr starting with `error:` that mentions `needles`."""
    assert ran.code == code, ran
    assert "Traceback" not in ran.output, ran
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), ran
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
