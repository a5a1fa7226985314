"""Fixtures of the gate tests: stores on SQLite files and, where a server runs, PostgreSQL.

PostgreSQL cases skip without `CALLGATE_PG_DSN`, except under `CI=true` where they fail.
Each PostgreSQL test gets a schema of its own, dropped afterwards.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from callgate.contract import Context
from tests.conftest import BACKENDS, drop_schema, pg_dsn

StoreSpec = tuple[str, str, str | None]
"""("sqlite", path, None) or ("postgres", dsn, schema): enough to open the same database."""

ACME = Context(principal="ann", tenant="acme", roles=frozenset({"supplier_admin"}), run_id="run-1")


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'callgate.db'}"


@pytest.fixture(params=BACKENDS)
def store_spec(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreSpec]:
    """("sqlite", path, None) or ("postgres", dsn, schema): one fresh database per test."""
    if request.param == "sqlite":
        yield "sqlite", str(tmp_path / "callgate.db"), None
        return
    dsn = pg_dsn()
    schema = f"callgate_gate_{uuid.uuid4().hex[:12]}"
    yield "postgres", dsn, schema
    drop_schema(dsn, schema)
