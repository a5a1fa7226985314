"""`callgate ui`, and `callgate serve --ui`, as processes of their own on a free port, for
the browser tests and the gateway's page."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

from tests.mcp._support import ROOT, WAIT, callgate_command

_LISTENING = " listening on "
_UI = "callgate ui" + _LISTENING


@contextlib.contextmanager
def callgate_ui(store_url: str, config: Path, *extra: str) -> Iterator[str]:
    """Start `callgate ui` on 127.0.0.1 and yield its address; stop it at the end."""
    command = ["ui", "--store", store_url, "--config", str(config), "--port", "0", *extra]
    with _started(command, ROOT, {}) as addresses:
        yield addresses["callgate ui"]


@contextlib.contextmanager
def callgate_serve_ui(
    folder: Path, env: Mapping[str, str], *arguments: str
) -> Iterator[tuple[str, str]]:
    """Start `callgate serve --transport http --ui` in `folder`; yield the MCP endpoint's
    address and the page's."""
    command = ["serve", "--transport", "http", "--port", "0", "--ui", *arguments]
    with _started(command, folder, env) as addresses:
        yield addresses["callgate gateway"], addresses["callgate ui"]


@contextlib.contextmanager
def _started(arguments: list[str], cwd: Path, env: Mapping[str, str]) -> Iterator[dict[str, str]]:
    """The process's announced addresses by who announced them, up to the page's."""
    process = subprocess.Popen(
        [*callgate_command(), *arguments],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=_forward, args=(process, lines), daemon=True)
    reader.start()
    try:
        yield _addresses(process, lines)
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


def _addresses(process: subprocess.Popen[str], lines: queue.Queue[str]) -> dict[str, str]:
    seen: list[str] = []
    found: dict[str, str] = {}
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.1)
        except queue.Empty:
            if process.poll() is not None and lines.empty():
                break
            continue
        seen.append(line)
        if _LISTENING in line:
            who, address = line.strip().split(_LISTENING, 1)
            found[who] = address
        if line.startswith(_UI):
            return found
    raise AssertionError(f"callgate did not start: {''.join(seen)}")
