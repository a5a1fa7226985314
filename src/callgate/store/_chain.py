"""The one place where a receipt's hash is computed, and the layouts it has had.

A receipt's hash covers its position (`seq`), the previous receipt's hash, its chain
version and the fields its version names; the raw payloads are covered through
`payload_hash`. So an edited field, a deleted receipt and a moved receipt all break the
chain, while pruning payloads (which nulls `arguments` and `result` but keeps
`payload_hash`) does not.

Each version's hashed fields are written out below, never derived from the dataclass:
adding a field to `ReceiptDraft` must not silently change what old receipts hashed, so a
new field joins the hash only in a new version, and every stored receipt keeps the version
it was written with (`tests/store/test_chain_vectors.py` holds golden vectors for each).
"""

from __future__ import annotations

from typing import Any

from callgate.schema import content_hash
from callgate.store._receipt import ReceiptDraft

__all__ = ["CHAIN_VERSION", "GENESIS_HASH", "HASHED_FIELDS", "payload_hash", "receipt_hash"]

GENESIS_HASH = "0" * 64
"""The `prev_hash` of the first receipt."""

_V1 = (
    "request_hash",
    "tool_name",
    "tool_fingerprint",
    "principal",
    "tenant",
    "run_id",
    "call_id",
    "route",
    "rule_id",
    "approval_id",
    "idempotency_key",
    "argument_hash",
    "result_hash",
    "replayed",
    "started_at",
    "duration_ms",
    "execute_ms",
    "policy_version",
    "schema_version",
)
_V2 = (*_V1, "source", "batch_id", "findings")

HASHED_FIELDS: dict[int, tuple[str, ...]] = {1: _V1, 2: _V2}
"""Chain version -> the `ReceiptDraft` fields its hash covers."""
CHAIN_VERSION = 2
"""The version new receipts are written with."""


def payload_hash(arguments: Any, result: Any) -> str | None:
    """Hash of the raw payloads as stored, or None when neither is stored."""
    if arguments is None and result is None:
        return None
    return content_hash({"arguments": arguments, "result": result})


def receipt_hash(
    draft: ReceiptDraft,
    *,
    seq: int,
    prev_hash: str,
    recorded_at: float,
    payload: str | None,
    version: int = CHAIN_VERSION,
) -> str:
    """The chain hash of one receipt. `draft` may be a stored `Receipt` (a subclass)."""
    try:
        names = HASHED_FIELDS[version]
    except KeyError:
        raise ValueError(f"unknown receipt chain version {version!r}") from None
    body: dict[str, Any] = {name: getattr(draft, name) for name in names}
    body["route"] = str(draft.route)
    if "findings" in body:
        body["findings"] = list(body["findings"])
    body.update(
        v=version, seq=seq, prev_hash=prev_hash, recorded_at=recorded_at, payload_hash=payload
    )
    return content_hash(body)
