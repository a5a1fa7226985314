"""Shared fixtures: optional extras, the evaluation data, PostgreSQL schemas, and spawned
child processes."""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import subprocess
import uuid
from collections.abc import Callable, Iterator
from multiprocessing.context import SpawnProcess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

POSTGRES = ("psycopg", "psycopg_pool")
"""The modules of the `postgres` extra: `require(*POSTGRES, extra="postgres")`."""

RETRIEVAL = ("bm25s", "Stemmer", "jieba")
"""The modules of the `retrieval` extra (BM25, stemming, segmentation)."""

SERVER = ("starlette", "uvicorn", "sse_starlette")
"""The modules of the `server` extra, which the fake provider servers run on."""


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a dotted name whose parent package is missing
        return False


def _missing(modules: tuple[str, ...], extra: str) -> str | None:
    """Why a test cannot run without these modules of `extra`, or None when all are there."""
    absent = [m for m in modules if not _installed(m)]
    return f"needs {', '.join(absent)}: pip install 'callgate[{extra}]'" if absent else None


def require(*modules: str, extra: str) -> None:
    """Skip the calling test module (called at its top) or test (called inside it) when an
    optional extra is not installed; the reason names the install command. For a folder,
    use `skip_modules_without` in its `conftest.py`."""
    reason = _missing(modules, extra)
    if reason is not None:
        pytest.skip(reason, allow_module_level=True)


class _SkippedModule(pytest.Module):
    reason = ""

    def _getobj(self) -> object:
        pytest.skip(self.reason, allow_module_level=True)


def skip_modules_without(
    *modules: str, extra: str
) -> Callable[[Path, pytest.Collector], pytest.Module | None]:
    """`require` for a whole folder: a `pytest_pycollect_makemodule` hook for its
    `conftest.py` that makes each test module below it a skip naming the install command
    (a skip raised while a conftest is imported is an error, not a skip)."""
    reason = _missing(modules, extra)

    def pytest_pycollect_makemodule(
        module_path: Path, parent: pytest.Collector
    ) -> pytest.Module | None:
        if reason is None:
            return None
        skipped = _SkippedModule.from_parent(parent, path=module_path)
        skipped.reason = reason
        return skipped

    return pytest_pycollect_makemodule


def installed(*modules: str) -> bool:
    """Whether all of these modules can be imported."""
    return all(_installed(m) for m in modules)


def needs(*modules: str, extra: str) -> pytest.MarkDecorator:
    """`require` as a mark: for one test, or one case of a parametrized test. `extra` may
    name several (`"openai,server"`)."""
    reason = _missing(modules, extra)
    return pytest.mark.skipif(reason is not None, reason=reason or "")


def shared_data_dir() -> Path | None:
    """`CALLGATE_DATA` if set, else `../shared/data` beside the repository."""
    configured = os.environ.get("CALLGATE_DATA")
    path = Path(configured) if configured else ROOT.parent / "shared" / "data"
    return path if path.is_dir() else None


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The evaluation data; skipped where absent, a failure in CI (`CI=true`)."""
    path = shared_data_dir()
    if path is None:
        reason = "evaluation data not found: set CALLGATE_DATA or place it at ../shared/data"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
"""Store backends a test is parametrized over; PostgreSQL needs `CALLGATE_PG_DSN`."""

WAIT = 60.0
"""Upper bound for a child process to report; only there so a broken test fails, not hangs."""


def pg_dsn() -> str:
    """The server's DSN; skips (or fails under CI) when none is configured, and skips when
    the driver is not installed."""
    dsn = os.environ.get("CALLGATE_PG_DSN")
    if not dsn:
        reason = "PostgreSQL not configured: set CALLGATE_PG_DSN (e.g. `. .ci/postgres.sh`)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    require(*POSTGRES, extra="postgres")
    return dsn


STOPPABLE_POSTGRES = pytest.mark.xdist_group("stoppable-postgres")
"""For a test that stops and starts the stoppable server (`stoppable_pg_schema`): all such
tests run in one pytest-xdist worker, one after another, so none stops the server under
another."""


def _stoppable_pg_dsn() -> str:
    """`CALLGATE_PG_CTL_DSN`, a server of its own that `CALLGATE_PG_CTL` stops and starts
    (so that the tests running alongside on `CALLGATE_PG_DSN` keep their server), else the
    main server when the command controls that one."""
    if not os.environ.get("CALLGATE_PG_CTL"):
        reason = "CALLGATE_PG_CTL not set: cannot stop and start the server"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    require(*POSTGRES, extra="postgres")
    return os.environ.get("CALLGATE_PG_CTL_DSN") or pg_dsn()


def pg_ctl(action: str, *, check: bool = True) -> int:
    """Run `$CALLGATE_PG_CTL <action>` (the action goes inside its quoted `sh -c` part)."""
    command = os.environ["CALLGATE_PG_CTL"]
    command = f"{command[:-1]} {action}'" if command.endswith("'") else f"{command} {action}"
    return subprocess.run(command, shell=True, check=check, capture_output=True).returncode


@pytest.fixture
def stoppable_pg_schema() -> Iterator[tuple[str, str]]:
    """A fresh schema on the server a test may stop and start; the server is running again
    and the schema dropped after the test. Mark the test with `STOPPABLE_POSTGRES`."""
    dsn = _stoppable_pg_dsn()
    schema = f"callgate_stop_{uuid.uuid4().hex[:12]}"
    try:
        yield dsn, schema
    finally:
        if pg_ctl("status", check=False) != 0:
            pg_ctl("start")
        drop_schema(dsn, schema)


def wait_until_available(store: Any) -> None:
    """Wait for a store to answer again after its server restarted: a pool reconnects in the
    background, so give it a few attempts (the last one raises)."""
    from callgate.store import StoreUnavailable

    for _ in range(30):
        try:
            store.ping()
            return
        except StoreUnavailable:
            continue
    store.ping()


def drop_schema(dsn: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@pytest.fixture
def pg_schema() -> Iterator[tuple[str, str]]:
    """A fresh schema name on the configured server, dropped after the test."""
    dsn = pg_dsn()
    schema = f"callgate_test_{uuid.uuid4().hex[:12]}"
    yield dsn, schema
    drop_schema(dsn, schema)


@pytest.fixture
def spawn() -> Iterator[Callable[..., SpawnProcess]]:
    """Start child processes (spawned, not forked); at the end kill any left and reap all."""
    ctx = multiprocessing.get_context("spawn")
    children: list[SpawnProcess] = []

    def start(target: Callable[..., None], *args: Any) -> SpawnProcess:
        child = ctx.Process(target=target, args=args, daemon=True)
        child.start()
        children.append(child)
        return child

    yield start
    for child in children:
        if child.is_alive():
            child.kill()
        child.join(WAIT)
