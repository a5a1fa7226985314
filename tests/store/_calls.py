"""One call's writes through the store's batch API (a claim, a finish or a receipt is a
batch of one, and the member's own refusal is raised, as a single call would see it), the
receipts the tests record, and direct edits of the tables.

Kept free of pytest so that child processes can import it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

from callgate.contract import Route
from callgate.schema import content_hash
from callgate.store import (
    Claim,
    ClaimRequest,
    Finish,
    FinishState,
    IdempotencyRecord,
    Receipt,
    ReceiptDraft,
    Settle,
    Settled,
    Store,
    StoreError,
)
from callgate.store._sql_store import SQLStore

T = TypeVar("T")


def only(results: list[T | StoreError]) -> T:
    """The single member's answer; its refusal is raised."""
    (result,) = results
    if isinstance(result, StoreError):
        raise result
    return result


def claim(
    store: Store,
    key: str,
    *,
    request_hash: str = "h",
    owner: str = "a",
    lease_seconds: float = 30.0,
) -> Claim:
    request = ClaimRequest(
        key=key, request_hash=request_hash, owner=owner, lease_seconds=lease_seconds
    )
    return only(store.claim([request]))


def settle(store: Store, request: Settle) -> Settled:
    return only(store.settle([request]))


def append(store: Store, draft: ReceiptDraft, labels: Mapping[str, str] | None = None) -> Receipt:
    """A receipt of a call that claimed no key."""
    return settle(store, Settle(receipt=draft, labels=labels or {})).receipt


def ending(key: str, owner: str = "a") -> ReceiptDraft:
    """The receipt written with a finish, when the test is about the finish."""
    return ReceiptDraft(
        request_hash=f"request of {key}",
        tool_name="pay",
        principal=owner,
        route=Route.COMPLETED,
        idempotency_key=key,
        started_at=1.0,
    )


def finish(
    store: Store,
    key: str,
    *,
    owner: str = "a",
    state: FinishState = "completed",
    outcome: Any = None,
    receipt: ReceiptDraft | None = None,
) -> IdempotencyRecord:
    """Finish `key` (with its receipt, as every finish is now written)."""
    end = Finish(key=key, owner=owner, state=state, outcome=outcome)
    settled = settle(store, Settle(receipt=receipt or ending(key, owner), finish=end))
    assert settled.record is not None
    return settled.record


def draft(n: int = 0, **changes: Any) -> ReceiptDraft:
    """The receipt of call `n`, with every field set and its payloads stored."""
    base = ReceiptDraft(
        request_hash=content_hash({"n": n}),
        tool_name="pay",
        tool_fingerprint="f" * 64,
        principal="alice",
        tenant="acme",
        run_id="run-1",
        call_id=f"call-{n}",
        route=Route.COMPLETED,
        rule_id="writes-ask",
        approval_id="ap1",
        idempotency_key=f"acme:{n}:pay",
        argument_hash=content_hash({"amount": n}),
        result_hash=content_hash({"ok": True}),
        started_at=1_700_000_000.0 + n,
        duration_ms=1.25,
        execute_ms=0.5,
        policy_version="p3",
        schema_version="2",
        arguments={"amount": n},
        result={"ok": True},
    )
    return replace(base, **changes)


def tamper(store: Store, statement: str, params: tuple[Any, ...] = ()) -> None:
    """Change the tables directly, as an attacker with database access would."""
    assert isinstance(store, SQLStore)
    with store._db.transaction(write=True) as tx:
        tx.run(statement, params)
