"""Versioned, forward-only schema migrations, recorded in `callgate_migrations`.

Each migration is a list of statements that both SQLite and PostgreSQL accept (the type
names below mean the same in both). A migration is never edited once released: a change
to the schema is a new migration with the next version. A database whose schema is newer
than this code is refused rather than used half-understood.
"""

from __future__ import annotations

from dataclasses import dataclass

from callgate._errors import UserError
from callgate.store._chain import GENESIS_HASH
from callgate.store._db import Clock, Database, Tx

__all__ = ["MIGRATIONS", "Migration", "migrate"]

_TIME = "DOUBLE PRECISION"


@dataclass(frozen=True, kw_only=True, slots=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


_V1 = (
    f"""CREATE TABLE callgate_idempotency (
        key TEXT PRIMARY KEY,
        request_hash TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('started', 'completed', 'failed', 'unknown')),
        owner TEXT NOT NULL,
        lease_expires_at {_TIME} NOT NULL,
        outcome TEXT,
        attempts INTEGER NOT NULL,
        created_at {_TIME} NOT NULL,
        updated_at {_TIME} NOT NULL)""",
    # One row that holds the end of the chain: appenders lock it, and `verify` compares the
    # last receipt with it, so even a deleted newest receipt is noticed.
    """CREATE TABLE callgate_chain_head (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        seq BIGINT NOT NULL,
        hash TEXT NOT NULL)""",
    f"INSERT INTO callgate_chain_head (id, seq, hash) VALUES (1, 0, '{GENESIS_HASH}')",
    # The primary key on seq is what refuses a fork: two receipts cannot hold one position.
    # (No index on the hashes or the idempotency key: random keys make every insert touch
    # another index page, and lookups by key go to callgate_idempotency.)
    f"""CREATE TABLE callgate_receipts (
        seq BIGINT PRIMARY KEY,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        recorded_at {_TIME} NOT NULL,
        request_hash TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        tool_fingerprint TEXT,
        principal TEXT NOT NULL,
        tenant TEXT,
        run_id TEXT,
        call_id TEXT,
        route TEXT NOT NULL,
        rule_id TEXT,
        approval_id TEXT,
        idempotency_key TEXT,
        argument_hash TEXT,
        result_hash TEXT,
        replayed BOOLEAN NOT NULL,
        started_at {_TIME} NOT NULL,
        duration_ms {_TIME} NOT NULL,
        execute_ms {_TIME} NOT NULL,
        policy_version TEXT,
        schema_version TEXT,
        payload_hash TEXT,
        arguments TEXT,
        result TEXT)""",
    "CREATE INDEX callgate_receipts_tool ON callgate_receipts (tool_name, seq)",
    "CREATE INDEX callgate_receipts_run ON callgate_receipts (run_id, seq)",
    "CREATE INDEX callgate_receipts_tenant ON callgate_receipts (tenant, seq)",
    "CREATE INDEX callgate_receipts_recorded ON callgate_receipts (recorded_at)",
    f"""CREATE TABLE callgate_approvals (
        id TEXT PRIMARY KEY,
        request_hash TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        arguments TEXT NOT NULL,
        principal TEXT NOT NULL,
        tenant TEXT,
        run_id TEXT,
        call_id TEXT,
        reason TEXT NOT NULL,
        rule_id TEXT,
        created_at {_TIME} NOT NULL,
        expires_at {_TIME} NOT NULL,
        state TEXT NOT NULL
            CHECK (state IN ('pending', 'approved', 'denied', 'expired', 'used')),
        decided_by TEXT,
        decided_at {_TIME},
        note TEXT,
        edited_arguments TEXT,
        edited_request_hash TEXT,
        grant_run BOOLEAN NOT NULL,
        used_at {_TIME})""",
    "CREATE INDEX callgate_approvals_state ON callgate_approvals (state, created_at)",
    f"""CREATE TABLE callgate_grants (
        run_id TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        approval_id TEXT NOT NULL REFERENCES callgate_approvals (id),
        granted_by TEXT NOT NULL,
        granted_at {_TIME} NOT NULL,
        PRIMARY KEY (run_id, tool_name))""",
    f"""CREATE TABLE callgate_runs (
        run_id TEXT PRIMARY KEY,
        version BIGINT NOT NULL,
        status TEXT NOT NULL,
        state_format INTEGER NOT NULL,
        state TEXT NOT NULL,
        created_at {_TIME} NOT NULL,
        updated_at {_TIME} NOT NULL)""",
    "CREATE INDEX callgate_runs_status ON callgate_runs (status, updated_at)",
    f"""CREATE TABLE callgate_pins (
        source TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        tool_version TEXT,
        pinned_by TEXT,
        pinned_at {_TIME} NOT NULL,
        PRIMARY KEY (source, tool_name))""",
)

# `ApprovalStore.find`: a re-proposed held call is looked up by its request hash.
_V2 = (
    "CREATE INDEX callgate_approvals_request ON callgate_approvals (request_hash, created_at)",
    "CREATE INDEX callgate_approvals_edited"
    " ON callgate_approvals (edited_request_hash, created_at)",
)

# Receipts of chain version 2 (`_chain.py`) name the tool's source, the batch and the
# findings on an untrusted result; a run's Rule of Two labels are shared by every process.
_V3 = (
    "ALTER TABLE callgate_receipts ADD COLUMN source TEXT",
    "ALTER TABLE callgate_receipts ADD COLUMN batch_id TEXT",
    "ALTER TABLE callgate_receipts ADD COLUMN findings TEXT",
    "ALTER TABLE callgate_receipts ADD COLUMN chain_version INTEGER NOT NULL DEFAULT 1",
    f"""CREATE TABLE callgate_labels (
        run_id TEXT NOT NULL,
        label TEXT NOT NULL,
        source TEXT NOT NULL,
        added_at {_TIME} NOT NULL,
        PRIMARY KEY (run_id, label))""",
)

_PIN_COLUMNS = (
    "source, tool_name, state, fingerprint, pinned, observed_fingerprint, observed, reasons,"
    " details, findings, tool_version, pinned_by, pinned_at, decided_by, updated_at, version"
)

# A pin holds the whole review of a tool (state, the approved and the observed contract,
# reasons, findings, who decided), so one table says whether a tool may be offered and why
# not; `fingerprint` is NULL while nothing was ever approved. SQLite cannot drop a NOT NULL,
# so the table is rebuilt. The reviews the gateway kept in `callgate_runs` before are
# dropped: each tool is assessed again from its pin on the next listing (fail closed: a
# tool whose approved fingerprint differs stays quarantined).
# Counters: per-principal rate limits and call budgets, one row per limit and window,
# taken by one atomic upsert, so every gateway process on the database counts together.
_V4 = (
    f"""CREATE TABLE callgate_pins_v4 (
        source TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pinned', 'new', 'changed', 'rejected')),
        fingerprint TEXT,
        pinned TEXT,
        observed_fingerprint TEXT,
        observed TEXT,
        reasons TEXT NOT NULL,
        details TEXT NOT NULL,
        findings TEXT NOT NULL,
        tool_version TEXT,
        pinned_by TEXT,
        pinned_at {_TIME},
        decided_by TEXT,
        updated_at {_TIME} NOT NULL,
        version BIGINT NOT NULL,
        PRIMARY KEY (source, tool_name))""",
    f"INSERT INTO callgate_pins_v4 ({_PIN_COLUMNS})"
    " SELECT source, tool_name, 'pinned', fingerprint, NULL, NULL, NULL, '[]', '[]', '[]',"
    " tool_version, pinned_by, pinned_at, pinned_by, pinned_at, 1 FROM callgate_pins",
    "DROP TABLE callgate_pins",
    "ALTER TABLE callgate_pins_v4 RENAME TO callgate_pins",
    "DELETE FROM callgate_runs WHERE status = 'pin-review'"
    " AND substr(run_id, 1, 13) = 'callgate-pin/'",
    f"""CREATE TABLE callgate_counters (
        key TEXT NOT NULL,
        slot BIGINT NOT NULL,
        used BIGINT NOT NULL,
        expires_at {_TIME} NOT NULL,
        PRIMARY KEY (key, slot))""",
    "CREATE INDEX callgate_counters_expiry ON callgate_counters (expires_at)",
)

# The values a held call's approval shows whole and vouches for (a JSON list; NULL: none).
_V5 = ("ALTER TABLE callgate_approvals ADD COLUMN foreign_values TEXT",)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(version=1, name="initial tables", statements=_V1),
    Migration(version=2, name="approvals by request hash", statements=_V2),
    Migration(version=3, name="receipt chain version 2 and run labels", statements=_V3),
    Migration(version=4, name="pin reviews and counters", statements=_V4),
    Migration(version=5, name="foreign values of approvals", statements=_V5),
)

_BOOKKEEPING = f"""CREATE TABLE IF NOT EXISTS callgate_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at {_TIME} NOT NULL)"""


def migrate(
    db: Database, *, clock: Clock, migrations: tuple[Migration, ...] = MIGRATIONS
) -> list[int]:
    """Apply the missing migrations in one transaction; return the versions applied.

    A database that is already current is only read: opening a store takes no write lock
    (another process may hold it, or the database may be read-only)."""
    if _current(db, migrations):
        return []
    with db.transaction(write=True) as tx:
        db.before_migrations(tx)
        tx.run(_BOOKKEEPING)
        applied = {int(row[0]) for row in tx.rows("SELECT version FROM callgate_migrations")}
        _refuse_newer(applied, migrations)
        done = []
        for migration in migrations:
            if migration.version not in applied:
                _apply(tx, migration, clock())
                done.append(migration.version)
        return done


def _current(db: Database, migrations: tuple[Migration, ...]) -> bool:
    try:
        with db.transaction(write=False) as tx:
            rows = tx.rows("SELECT version FROM callgate_migrations")
    except Exception:  # no bookkeeping table yet (or unreadable): the write path decides
        return False
    applied = {int(row[0]) for row in rows}
    _refuse_newer(applied, migrations)
    return {m.version for m in migrations} <= applied


def _refuse_newer(applied: set[int], migrations: tuple[Migration, ...]) -> None:
    known = max((m.version for m in migrations), default=0)
    newest = max(applied, default=0)
    if newest > known:
        raise UserError(
            f"the database schema is at version {newest}, newer than this callgate knows "
            f"({known}); upgrade callgate"
        )


def _apply(tx: Tx, migration: Migration, now: float) -> None:
    for statement in migration.statements:
        tx.run(statement)
    tx.run(
        "INSERT INTO callgate_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        (migration.version, migration.name, now),
    )
