"""Several `callgate serve --transport http` processes on one store, each on a port of its
own that survives a restart (so a client retries the same URL), for the multi-process
tests, the fault test and the benchmarks. Kept free of pytest."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.mcp._support import ROOT, WAIT, callgate_command, free_port, wait_for_port

LEDGER = str(ROOT / "tests" / "mcp" / "servers" / "ledger.py")
TOKEN = "multi-token-0123456789abcdef"


def ledger(db: Path, piddir: Path, delay: float = 0.0, **settings: Any) -> dict[str, Any]:
    """A stdio `mcpServers` entry of the ledger server (`tests/mcp/servers/ledger.py`)."""
    entry: dict[str, Any] = {
        "command": sys.executable,
        "args": [LEDGER],
        "env": {"LEDGER_DB": str(db), "LEDGER_DELAY": str(delay), "LEDGER_PIDDIR": str(piddir)},
    }
    if settings:
        entry["callgate"] = settings
    return entry


def settings_toml(extra: str = "") -> str:
    """A callgate.toml with one HTTP client (token `TOKEN`) and `extra` under [gateway]."""
    return (
        f"[gateway]\n{extra}\n\n"
        '[[gateway.clients]]\nprincipal = "agent"\ntenant = "acme"\ntoken = "${MULTI_TOKEN}"\n'
    )


@dataclass(kw_only=True)
class Gateways:
    """`count` gateway processes sharing `store`, the same config, policy and settings."""

    workdir: Path
    store: str
    servers: Mapping[str, Any]
    settings: str = field(default_factory=settings_toml)
    policy: str | None = None
    count: int = 1
    env: Mapping[str, str] = field(default_factory=dict)
    """More environment for the processes."""
    children: list[subprocess.Popen[bytes] | None] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        (self.workdir / ".mcp.json").write_text(json.dumps({"mcpServers": dict(self.servers)}))
        (self.workdir / "callgate.toml").write_text(self.settings)
        if self.policy is not None:
            (self.workdir / "policy.toml").write_text(self.policy)
        self.ports = [free_port() for _ in range(self.count)]
        self.children = [None] * self.count

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}/mcp" for port in self.ports]

    def argv(self, index: int) -> list[str]:
        args = [*callgate_command(), "serve", "--mcp-config", ".mcp.json", "--store", self.store]
        if self.policy is not None:
            args += ["--policy", "policy.toml"]
        return [*args, "--transport", "http", "--port", str(self.ports[index])]

    def start(self, index: int) -> None:
        with open(self.workdir / f"gateway-{index}.log", "ab") as log:  # the child keeps a copy
            child = subprocess.Popen(
                self.argv(index),
                cwd=self.workdir,
                env={**os.environ, **self.env, "MULTI_TOKEN": TOKEN, "PYTHONPATH": str(ROOT)},
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        self.children[index] = child
        wait_for_port(self.ports[index], child)

    def start_all(self) -> None:
        for index in range(self.count):
            self.start(index)

    def kill(self, index: int) -> None:
        """SIGKILL: no shutdown, no cleanup, an in-flight call cut wherever it was."""
        child = self.children[index]
        if child is not None and child.poll() is None:
            child.send_signal(signal.SIGKILL)
            child.wait(WAIT)

    def alive(self, index: int) -> bool:
        child = self.children[index]
        return child is not None and child.poll() is None

    def close(self) -> None:
        for child in self.children:
            if child is not None and child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in self.children:
            if child is not None:
                try:
                    child.wait(WAIT)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait(WAIT)


@contextlib.contextmanager
def gateways(**options: Any) -> Iterator[Gateways]:
    group = Gateways(**options)
    try:
        group.start_all()
        yield group
    finally:
        group.close()


@contextlib.contextmanager
def pg_database(dsn: str) -> Iterator[str]:
    """A database of its own on the server of `dsn`; yields its URL, drops it afterwards."""
    from urllib.parse import urlsplit

    import psycopg

    name = f"callgate_gw_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield urlsplit(dsn)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def leftover_servers(piddir: Path) -> list[int]:
    """Pids of ledger servers (named in `piddir`) still running."""
    from tests.mcp._support import alive

    return [int(p.name) for p in piddir.iterdir() if alive(int(p.name))]
