"""Golden vectors for the receipt hash: fixed receipts and the hashes each chain version gives
them. A change to what a version hashes fails here; a new layout needs a new version, and
the old versions' vectors must still hold so that stored chains keep verifying."""

from __future__ import annotations

import dataclasses

import pytest

from callgate.contract import Route
from callgate.store import CHAIN_VERSION, HASHED_FIELDS, ReceiptDraft, payload_hash, receipt_hash

WRITE = ReceiptDraft(
    request_hash="a" * 64,
    tool_name="refund",
    tool_fingerprint="f" * 64,
    principal="ann",
    tenant="acme",
    run_id="run-1",
    call_id="c1",
    route=Route.COMPLETED,
    rule_id="small-refunds",
    approval_id=None,
    idempotency_key="acme:run-1/c1:refund",
    argument_hash="b" * 64,
    result_hash="c" * 64,
    replayed=False,
    started_at=1764579600.25,
    duration_ms=1.5,
    execute_ms=0.75,
    policy_version="2026-11",
    schema_version="2",
    arguments={"amount": 20},
    result="refunded 20",
)
INVALID = ReceiptDraft(
    request_hash="d" * 64,
    tool_name="get_weather",
    principal="anonymous",
    route=Route.INVALID,
    started_at=1764579601.0,
)
GATEWAY = dataclasses.replace(
    WRITE, source="gitlab", batch_id="run-1/3", findings=("S101 at description",)
)

# Version 1 values were computed by the release that wrote version 1 chains; version 2 values
# by the first release that writes version 2 chains (they pin its layout from now on).
VECTORS = [
    (1, WRITE, 1, "0" * 64, 1764579600.5, True,
     "730607bf7f5d913e4ad9b8f6f1fd678c5dfa042fd5c5cd0cda3f56455a55dbf6"),
    (1, INVALID, 2, "e" * 64, 1764579601.125, False,
     "e63b61b97fd211599d333fcaa09b2fae467bf338c1d69b0e6d24ac894982e950"),
    (2, WRITE, 1, "0" * 64, 1764579600.5, True,
     "7234123bfed727fdf100adbe028b239d7bfffaf62325c155df546b1b2010696a"),
    (2, GATEWAY, 7, "9" * 64, 1764579700.0, True,
     "f83e67dd0867901cd33d97032b27b556003e2ec9ce733f2cc95e894a25c5e543"),
]  # fmt: skip


def test_payload_hash_is_pinned() -> None:
    digest = payload_hash(WRITE.arguments, WRITE.result)
    assert digest == "f7da9222ebd7f2a7f8535394e1f52a485a2489aa830a953706c24fdac635e03e"
    assert payload_hash(None, None) is None


@pytest.mark.parametrize(("version", "draft", "seq", "prev", "recorded", "payload", "expected"),
                         VECTORS)  # fmt: skip
def test_golden_vectors(
    version: int,
    draft: ReceiptDraft,
    seq: int,
    prev: str,
    recorded: float,
    payload: bool,
    expected: str,
) -> None:
    digest = payload_hash(draft.arguments, draft.result) if payload else None
    got = receipt_hash(
        draft, seq=seq, prev_hash=prev, recorded_at=recorded, payload=digest, version=version
    )
    assert got == expected


def test_version_1_ignores_the_fields_version_2_added() -> None:
    """So receipts written before those fields existed still verify."""
    digest = payload_hash(WRITE.arguments, WRITE.result)
    one = {"seq": 1, "prev_hash": "0" * 64, "recorded_at": 1.0, "payload": digest, "version": 1}
    assert receipt_hash(WRITE, **one) == receipt_hash(GATEWAY, **one)  # type: ignore[arg-type]
    two = {**one, "version": 2}
    assert receipt_hash(WRITE, **two) != receipt_hash(GATEWAY, **two)  # type: ignore[arg-type]


def test_every_draft_field_is_hashed_by_the_current_version_or_is_a_payload() -> None:
    """A field added to `ReceiptDraft` without a new chain version fails here."""
    names = {f.name for f in dataclasses.fields(ReceiptDraft)}
    assert names - set(HASHED_FIELDS[CHAIN_VERSION]) == {"arguments", "result"}


def test_an_unknown_version_is_refused() -> None:
    with pytest.raises(ValueError, match="chain version"):
        receipt_hash(WRITE, seq=1, prev_hash="0" * 64, recorded_at=1.0, payload=None, version=99)
