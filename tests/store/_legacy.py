"""Receipts as the release before chain version 2 wrote them: hashed with version 1 and
inserted with only the columns of migration 1, so the same rows fit a database at any
migration (on a migrated table the new columns take their defaults: chain version 1)."""

from __future__ import annotations

from collections.abc import Sequence

from callgate.store import GENESIS_HASH, ChainHead, ReceiptDraft, payload_hash, receipt_hash
from callgate.store._db import Tx, dump_json

_V1_COLUMNS = (
    "seq, prev_hash, hash, recorded_at, request_hash, tool_name, tool_fingerprint, principal,"
    " tenant, run_id, call_id, route, rule_id, approval_id, idempotency_key, argument_hash,"
    " result_hash, replayed, started_at, duration_ms, execute_ms, policy_version,"
    " schema_version, payload_hash, arguments, result"
)


def write_v1_chain(tx: Tx, drafts: Sequence[ReceiptDraft], *, recorded_at: float) -> ChainHead:
    """Append `drafts` to an empty journal as version 1 receipts; move the chain head."""
    prev, seq = GENESIS_HASH, 0
    for seq, draft in enumerate(drafts, start=1):
        payload = payload_hash(draft.arguments, draft.result)
        digest = receipt_hash(
            draft, seq=seq, prev_hash=prev, recorded_at=recorded_at, payload=payload, version=1
        )
        values = (
            seq, prev, digest, recorded_at, draft.request_hash, draft.tool_name,
            draft.tool_fingerprint, draft.principal, draft.tenant, draft.run_id, draft.call_id,
            str(draft.route), draft.rule_id, draft.approval_id, draft.idempotency_key,
            draft.argument_hash, draft.result_hash, draft.replayed, draft.started_at,
            draft.duration_ms, draft.execute_ms, draft.policy_version, draft.schema_version,
            payload, dump_json(draft.arguments), dump_json(draft.result),
        )  # fmt: skip
        marks = ", ".join("?" * len(values))
        tx.run(f"INSERT INTO callgate_receipts ({_V1_COLUMNS}) VALUES ({marks})", values)
        prev = digest
    tx.run("UPDATE callgate_chain_head SET seq = ?, hash = ? WHERE id = 1", (seq, prev))
    return ChainHead(seq=seq, hash=prev)
