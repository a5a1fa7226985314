"""`callgate ui` as a process of its own, on a free port, for the browser tests."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from tests.mcp._support import ROOT, WAIT, callgate_command

_LISTENING = "callgate ui listening on "


@contextlib.contextmanager
def callgate_ui(store_url: str, config: Path, *extra: str) -> Iterator[str]:
    """Start `callgate ui` on 127.0.0.1 and yield its address; stop it at the end."""
    process = subprocess.Popen(
        [
            *callgate_command(),
            "ui",
            "--store",
            store_url,
            "--config",
            str(config),
            "--port",
            "0",
            *extra,
        ],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=_forward, args=(process, lines), daemon=True)
    reader.start()
    try:
        yield _address(process, lines)
    finally:
        process.terminate()
        try:
            process.wait(WAIT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(WAIT)
        reader.join(WAIT)
        if process.stderr is not None:
            process.stderr.close()


def _forward(process: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
    assert process.stderr is not None
    for line in process.stderr:
        lines.put(line)


def _address(process: subprocess.Popen[str], lines: queue.Queue[str]) -> str:
    seen: list[str] = []
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.1)
        except queue.Empty:
            if process.poll() is not None and lines.empty():
                break
            continue
        seen.append(line)
        if line.startswith(_LISTENING):
            return line[len(_LISTENING) :].strip()
    raise AssertionError(f"callgate ui did not start: {''.join(seen)}")
