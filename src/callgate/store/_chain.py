"""The one place where a receipt's hash is computed.

A receipt's hash covers its position (`seq`), the previous receipt's hash and every field
except the raw payloads; the payloads are covered through `payload_hash`. So an edited
field, a deleted receipt and a moved receipt all break the chain, while pruning payloads
(which nulls `arguments` and `result` but keeps `payload_hash`) does not.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from callgate.schema import content_hash
from callgate.store._receipt import ReceiptDraft

__all__ = ["CHAIN_VERSION", "GENESIS_HASH", "payload_hash", "receipt_hash"]

CHAIN_VERSION = 1
"""Bumped if the hashed layout ever changes, so old chains stay verifiable."""
GENESIS_HASH = "0" * 64
"""The `prev_hash` of the first receipt."""

_PAYLOADS = frozenset({"arguments", "result"})
_HASHED = tuple(f.name for f in fields(ReceiptDraft) if f.name not in _PAYLOADS)


def payload_hash(arguments: Any, result: Any) -> str | None:
    """Hash of the raw payloads as stored, or None when neither is stored."""
    if arguments is None and result is None:
        return None
    return content_hash({"arguments": arguments, "result": result})


def receipt_hash(
    draft: ReceiptDraft, *, seq: int, prev_hash: str, recorded_at: float, payload: str | None
) -> str:
    """The chain hash of one receipt. `draft` may be a stored `Receipt` (a subclass)."""
    body: dict[str, Any] = {name: getattr(draft, name) for name in _HASHED}
    body["route"] = str(draft.route)
    body.update(
        v=CHAIN_VERSION,
        seq=seq,
        prev_hash=prev_hash,
        recorded_at=recorded_at,
        payload_hash=payload,
    )
    return content_hash(body)
