"""The store: receipts, idempotency records, approvals, runs and pins in a database.

`Store` is the protocol; `SQLiteStore` (embedded, the default) and `PostgresStore` (extra
`callgate[postgres]`) implement it and pass one conformance suite. `open_store(url)` opens
either from a URL.
"""

from callgate.store._batch import BatchResult, ClaimRequest, FinishRequest, GroupCommitStore
from callgate.store._chain import GENESIS_HASH, payload_hash, receipt_hash
from callgate.store._errors import RecordNotFound, StoreConflict, StoreError, StoreUnavailable
from callgate.store._migrations import MIGRATIONS, Migration
from callgate.store._open import open_store
from callgate.store._postgres import PostgresStore
from callgate.store._protocol import (
    ApprovalStore,
    IdempotencyStore,
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
    ClaimStatus,
    Consumption,
    ConsumptionStatus,
    Grant,
    IdempotencyRecord,
    IdempotencyState,
    Pin,
    RunRecord,
)
from callgate.store._sqlite import SQLiteStore

__all__ = [
    "GENESIS_HASH",
    "MIGRATIONS",
    "Approval",
    "ApprovalDraft",
    "ApprovalState",
    "ApprovalStore",
    "BatchResult",
    "ChainHead",
    "Claim",
    "ClaimRequest",
    "ClaimStatus",
    "Consumption",
    "ConsumptionStatus",
    "FinishRequest",
    "Grant",
    "GroupCommitStore",
    "IdempotencyRecord",
    "IdempotencyState",
    "IdempotencyStore",
    "Migration",
    "Pin",
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
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreUnavailable",
    "VerifyReport",
    "open_store",
    "payload_hash",
    "receipt_hash",
]
