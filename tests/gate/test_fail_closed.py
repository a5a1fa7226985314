"""Fail closed for real: a write runs only after its claim is durably written, and any store
that cannot give a clean answer (locked, read-only, replaced, out of reach) denies the call
before the tool runs; a policy that cannot decide does too."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from callgate import CallContext, Context, ToolCall, tool
from callgate.contract import Route, Tool
from callgate.gate import Decision, Gate, Policy, Rule
from callgate.gate._attempt import request_hash
from callgate.store import ClaimRequest, PostgresStore, SQLiteStore
from tests.conftest import pg_dsn

ALLOW = Policy([Rule.allow("ok", tools=["*"])])
CTX = Context(principal="ann", tenant="acme")  # no run id: the writes have no key of their own


def _counting_write(name: str = "pay", **options: Any) -> tuple[Tool, list[str]]:
    ran: list[str] = []

    @tool(name=name, effect="write", **options)
    async def pay(invoice: str) -> str:
        """Pay an invoice."""
        ran.append(invoice)
        return f"paid {invoice}"

    return pay, ran


def _pay(call_id: str = "c1") -> ToolCall:
    return ToolCall(id=call_id, name="pay", arguments={"invoice": "INV-1"})


@pytest.fixture
def locked_by_another_process(tmp_path: Path) -> Iterator[Path]:
    """A SQLite store file whose write lock another process holds."""
    path = tmp_path / "cg.db"
    SQLiteStore(path).close()  # migrated
    script = (
        "import sqlite3, sys, time\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE')\n"
        "print('locked', flush=True)\n"
        "time.sleep(60)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline() == b"locked\n"
    yield path
    child.kill()
    child.wait()
    child.stdout.close()


async def test_a_write_locked_sqlite_denies_an_unkeyed_write_before_it_runs(
    locked_by_another_process: Path,
) -> None:
    pay, ran = _counting_write()
    store = SQLiteStore(locked_by_another_process, busy_timeout=0.2)
    with Gate([pay], store=store, policy=ALLOW) as gate:
        started = time.monotonic()
        result = await gate.call(_pay(), context=CTX)
        elapsed = time.monotonic() - started
    store.close()
    assert result.route is Route.DENIED and result.reason == "store unavailable"
    assert ran == []
    assert elapsed < 5  # one busy timeout, not one per store call


async def test_a_replaced_or_removed_sqlite_file_denies_writes(tmp_path: Path) -> None:
    pay, ran = _counting_write()
    path, other = tmp_path / "cg.db", tmp_path / "other.db"
    SQLiteStore(other).close()
    store = SQLiteStore(path)
    with Gate([pay], store=store, policy=ALLOW) as gate:
        first = await gate.call(_pay("c1"), context=CTX)
        shutil.copy(other, tmp_path / "swap.db")
        os.replace(tmp_path / "swap.db", path)  # another database now answers to the path
        replaced = await gate.call(_pay("c2"), context=CTX)
        path.unlink()
        removed = await gate.call(_pay("c3"), context=CTX)
    store.close()
    assert first.route is Route.COMPLETED
    assert replaced.route is Route.DENIED and replaced.reason == "store unavailable"
    assert removed.route is Route.DENIED and removed.reason == "store unavailable"
    assert ran == ["INV-1"]


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A database of its own on the configured server (so it can be made read-only)."""
    dsn = pg_dsn()
    import psycopg

    name = f"callgate_ro_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(dsn)
    yield urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.mark.postgres
async def test_a_read_only_postgresql_denies_writes_instead_of_raising(pg_database: str) -> None:
    import psycopg

    pay, ran = _counting_write()
    store = PostgresStore(pg_database)
    name = urlsplit(pg_database).path.lstrip("/")
    with Gate([pay], store=store, policy=ALLOW) as gate:
        ok = await gate.call(_pay("c1"), context=CTX)
        with psycopg.connect(pg_dsn(), autocommit=True) as admin:  # a failover to a standby
            admin.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            )
        refused = await gate.call(_pay("c2"), context=CTX)
    store.close()
    assert ok.route is Route.COMPLETED
    assert refused.route is Route.DENIED and refused.reason == "store unavailable"
    assert ran == ["INV-1"]


class _Proxy:
    """A TCP proxy in front of PostgreSQL that can be cut, as a network outage: after `cut`
    open connections are broken and new ones are accepted into a black hole (the server
    never answers), which is what a dead host behind a live network looks like."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self.cut_off = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.sockets.append(client)
            if self.cut_off:
                continue  # held open, never answered
            upstream = socket.create_connection(self.target)
            self.sockets.append(upstream)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass

    def cut(self) -> None:
        self.cut_off = True
        for sock in list(self.sockets):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def close(self) -> None:
        self.cut()
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()


@pytest.mark.postgres
async def test_a_postgresql_outage_denies_within_the_connect_timeout(
    pg_schema: tuple[str, str],
) -> None:
    dsn, schema = pg_schema
    parts = urlsplit(dsn)
    proxy = _Proxy(parts.hostname or "127.0.0.1", parts.port or 5432)
    via_proxy = urlunsplit(parts._replace(netloc=f"{parts.username}@127.0.0.1:{proxy.port}"))
    pay, ran = _counting_write()
    store = PostgresStore(via_proxy, schema=schema)  # timeout: 2 s by default
    with Gate([pay], store=store, policy=ALLOW) as gate:
        ok = await gate.call(_pay("c1"), context=CTX)
        proxy.cut()
        started = time.monotonic()
        refused = await gate.call(_pay("c2"), context=CTX)
        elapsed = time.monotonic() - started
    store.close()
    proxy.close()
    assert ok.route is Route.COMPLETED
    assert refused.route is Route.DENIED and refused.reason == "store unavailable"
    assert ran == ["INV-1"]
    assert elapsed < 6.0, elapsed  # about one connect timeout (2 s), not two pool timeouts


async def test_a_reconciled_rerun_gets_a_full_time_budget(tmp_path: Path) -> None:
    """The wait for a dead owner's lease must not eat the re-run's time."""
    applied: list[str] = []

    @tool(effect="write", timeout=0.8, reconcile=lambda key: "not_applied")
    async def pay(invoice: str, call: CallContext) -> str:
        """Pay an invoice."""
        await asyncio.sleep(0.4)
        applied.append(call.idempotency_key or "")
        return f"paid {invoice}"

    store = SQLiteStore(tmp_path / "cg.db")
    context = Context(principal="ann", tenant="acme", run_id="run-r")
    key = "acme:req-1:pay"
    digest = request_hash(pay, "pay", {"invoice": "INV-1"}, context)
    # An owner that claimed the key and died: its lease runs out 0.6 s from now.
    store.claim([ClaimRequest(key=key, request_hash=digest, owner="dead", lease_seconds=0.6)])
    with Gate([pay], store=store, policy=ALLOW, lease_margin=0.2) as gate:
        result = await gate.call(_pay(), context=context, request_id="req-1")
    store.close()
    assert result.route is Route.COMPLETED, result.content
    assert applied == [key]


async def test_a_policy_that_cannot_decide_denies_the_call() -> None:
    pay, ran = _counting_write()

    def broken(request: object) -> Decision | None:
        raise RuntimeError("the rules service is down")

    with Gate([pay], policy=Policy(hook=broken)) as gate:
        result = await gate.call(_pay(), context=CTX)
    assert result.route is Route.DENIED and result.rule_id == "policy:error"
    assert "could not be evaluated" in result.content and "rules service" not in result.content
    assert ran == []


async def test_labels_that_cannot_be_read_deny_an_acting_call(tmp_path: Path) -> None:
    """The Rule of Two needs the run's labels; without them an irreversible call waits."""

    @tool(effect="irreversible")
    def send(to: str) -> str:
        """Send for good."""
        return "sent"

    path = tmp_path / "cg.db"
    store = SQLiteStore(path)
    context = Context(principal="ann", tenant="acme", run_id="run-l")
    with Gate([send], store=store, policy=Policy([Rule.allow("all", tools=["*"])])) as gate:
        path.unlink()
        result = await gate.call(
            ToolCall(id="s", name="send", arguments={"to": "x"}), context=context
        )
    store.close()
    assert result.route is Route.DENIED and result.reason == "store unavailable"
