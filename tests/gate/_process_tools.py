"""Tools that run in worker processes (`run_in="process"`): they must be importable by name.
Each writes its process id to `pidfile` first, so a test can check the worker's fate."""

from __future__ import annotations

import os
import time
from pathlib import Path

from callgate import tool


def _note_pid(pidfile: str) -> None:
    Path(pidfile).write_text(str(os.getpid()))


@tool(effect="read", run_in="process", timeout=0.5)
def spin(pidfile: str) -> int:
    """Loop forever (a tool that hangs)."""
    _note_pid(pidfile)
    n = 0
    while True:
        n += 1


@tool(effect="write", run_in="process", timeout=0.5)
def spin_write(pidfile: str) -> int:
    """Write, then hang."""
    _note_pid(pidfile)
    n = 0
    while True:
        n += 1


@tool(effect="read", run_in="process", timeout=5.0)
def worker_pid(pidfile: str, delay: float = 0.0) -> int:
    """Say which process ran the call."""
    _note_pid(pidfile)
    time.sleep(delay)
    return os.getpid()


@tool(effect="read", run_in="process", timeout=5.0)
def explode(message: str) -> str:
    """Raise an unexpected error."""
    raise RuntimeError(message)
