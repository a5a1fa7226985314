"""The store: receipts, idempotency records, approvals, run labels, runs, pins and
counters in a database.

`Store` is the protocol; `SQLiteStore` (embedded, the default) and `PostgresStore` (extra
`callgate[postgres]`) implement it and pass one conformance suite. `open_store(url)` opens
either from a URL; `AsyncStore` is how async code reaches one.
"""

from callgate.store._async import AsyncStore
from callgate.store._chain import (
    CHAIN_VERSION,
    GENESIS_HASH,
    HASHED_FIELDS,
    payload_hash,
    receipt_hash,
)
from callgate.store._errors import RecordNotFound, StoreConflict, StoreError, StoreUnavailable
from callgate.store._migrations import MIGRATIONS, Migration
from callgate.store._open import open_store
from callgate.store._postgres import PostgresStore
from callgate.store._protocol import (
    ApprovalStore,
    CounterStore,
    IdempotencyStore,
    LabelStore,
    PinStore,
    ReceiptStore,
    RunStore,
    Store,
)
from callgate.store._receipt import ChainHead, Receipt, ReceiptDraft, ReceiptQuery, VerifyReport
from callgate.store._records import (
    Approval,
    ApprovalDraft,
    ApprovalState,
    Claim,
    ClaimRequest,
    ClaimStatus,
    Consumption,
    ConsumptionStatus,
    Count,
    Finish,
    FinishState,
    Grant,
    IdempotencyRecord,
    IdempotencyState,
    Pin,
    PinState,
    RunRecord,
    Settle,
    Settled,
)
from callgate.store._sqlite import SQLiteStore

__all__ = [
    "CHAIN_VERSION",
    "GENESIS_HASH",
    "HASHED_FIELDS",
    "MIGRATIONS",
    "Approval",
    "ApprovalDraft",
    "ApprovalState",
    "ApprovalStore",
    "AsyncStore",
    "ChainHead",
    "Claim",
    "ClaimRequest",
    "ClaimStatus",
    "Consumption",
    "ConsumptionStatus",
    "Count",
    "CounterStore",
    "Finish",
    "FinishState",
    "Grant",
    "IdempotencyRecord",
    "IdempotencyState",
    "IdempotencyStore",
    "LabelStore",
    "Migration",
    "Pin",
    "PinState",
    "PinStore",
    "PostgresStore",
    "Receipt",
    "ReceiptDraft",
    "ReceiptQuery",
    "ReceiptStore",
    "RecordNotFound",
    "RunRecord",
    "RunStore",
    "SQLiteStore",
    "Settle",
    "Settled",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreUnavailable",
    "VerifyReport",
    "open_store",
    "payload_hash",
    "receipt_hash",
]
