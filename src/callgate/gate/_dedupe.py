"""dedupe: a call that changes something runs at most once per idempotency key.

Every write claims a key before it runs (a write with no key of its own gets a fresh one),
so no write ever runs before the store has durably recorded that it started. The key's
record moves `started` -> `completed` | `failed` | `unknown` under a lease. A duplicate gets
the stored outcome (`replayed=True`); one that arrives while the first attempt runs waits
for it; an attempt whose owner died or timed out is `unknown`, and only the tool's
`reconcile(key)` can clear it: applied -> done, not applied -> run again, with a full
time budget of its own. The record step finishes the claim together with the receipt.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import secrets
import socket
from typing import Any

from callgate._backoff import Backoff, Clock
from callgate.contract import Effect, Route, ToolResult
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Claimed, Handler, Outcome, once_key, settled
from callgate.gate._hooks import ask_reconcile
from callgate.gate._log import GateLog
from callgate.store import (
    AsyncStore,
    Claim,
    ClaimRequest,
    StoreError,
    StoreUnavailable,
)

__all__ = ["Dedupe", "decode_outcome"]

_FIELDS = (
    "route",
    "content",
    "structured",
    "is_error",
    "reason",
    "reference",
    "rule_id",
    "approval_id",
    "findings",
)
_WAIT = Backoff(initial=0.002, max_delay=0.1, jitter=0.0)
"""How often a duplicate looks again while another owner holds the key."""


def encode_outcome(result: ToolResult) -> dict[str, Any]:
    """The JSON form of a result, as stored for replay (the caller redacts first)."""
    return {f: getattr(result, f) for f in _FIELDS}


def decode_outcome(stored: Any, attempt: Attempt, key: str) -> ToolResult:
    data = dict(stored)
    data["findings"] = tuple(data.get("findings") or ())
    return ToolResult(
        call_id=attempt.call.id,
        name=attempt.tool.name,
        route=Route(data.pop("route")),
        replayed=True,
        idempotency_key=key,
        **{k: v for k, v in data.items() if k in _FIELDS},
    )


class Dedupe:
    """Claims the key of every write and irreversible call before it runs."""

    def __init__(
        self,
        next: Handler,
        *,
        store: AsyncStore,
        clock: Clock,
        lease_margin: float,
        default_timeout: float,
        log: GateLog,
    ) -> None:
        self.next = next
        self.log = log
        self.store = store
        self.clock = clock
        self.lease_margin = lease_margin
        self.default_timeout = default_timeout
        self._owner_prefix = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._counter = itertools.count()

    async def __call__(self, attempt: Attempt) -> Outcome:
        if attempt.tool.effect is Effect.READ:
            return await settled(self.next(attempt))
        if attempt.key is None:
            attempt = dataclasses.replace(attempt, key=once_key(attempt.tool, attempt.context))
        key = attempt.key
        assert key is not None
        owner = f"{self._owner_prefix}:{next(self._counter)}"
        try:
            claim = await self._claim(attempt, key, owner)
            if claim is None:
                return _stop(_outcome.still_running(attempt.call, attempt.tool.name), attempt)
            return await self._after(claim, attempt, key, owner)
        except StoreUnavailable:
            # Nothing ran: a claim that cannot be written is a call that must not run.
            return Outcome(
                result=_outcome.store_unavailable(attempt.call, attempt.tool.name),
                attempt=attempt,
                store_down=True,
            )

    async def _after(self, claim: Claim, attempt: Attempt, key: str, owner: str) -> Outcome:
        if claim.status == "claimed":
            return _claimed(await settled(self.next(attempt)), key, owner)
        if claim.status == "replay":
            return Outcome(
                result=decode_outcome(claim.record.outcome, attempt, key), attempt=attempt
            )
        if claim.status == "mismatch":
            denied = _outcome.denied(
                attempt.call,
                attempt.tool.name,
                "this idempotency key was already used for a different request; use a new "
                "request id",
                rule_id=None,
            )
            return _stop(denied, attempt)
        return await self._after_unknown(attempt, key, owner)

    def _lease(self, attempt: Attempt) -> float:
        return (attempt.tool.timeout or self.default_timeout) + self.lease_margin

    async def _claim(self, attempt: Attempt, key: str, owner: str) -> Claim | None:
        """Claim the key; while another owner's lease is live, wait for it (bounded)."""
        lease = self._lease(attempt)
        request = ClaimRequest(
            key=key, request_hash=attempt.request_hash, owner=owner, lease_seconds=lease
        )
        give_up = self.clock.monotonic() + lease + self.lease_margin
        for wait in _WAIT.delays():
            claim = await self.store.claim(request)
            if claim.status != "in_progress":
                return claim
            if self.clock.monotonic() >= give_up:
                return None
            await self.clock.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover - delays() never ends

    async def _after_unknown(self, attempt: Attempt, key: str, owner: str) -> Outcome:
        tool, call = attempt.tool, attempt.call
        if tool.reconcile is None:
            why = "the tool has no reconcile hook, so a write is never retried automatically"
            return _stop(_outcome.earlier_attempt_unknown(call, tool.name, why), attempt)
        status = await ask_reconcile(tool.reconcile, key, tool.name, self.log)
        if status == "unknown":
            why = "the target system could not say whether it took effect"
            return _stop(_outcome.earlier_attempt_unknown(call, tool.name, why), attempt)
        request = ClaimRequest(
            key=key,
            request_hash=attempt.request_hash,
            owner=owner,
            lease_seconds=self._lease(attempt),
        )
        try:
            record = await self.store.run(self.store.store.idempotency.reclaim, request)
        except StoreUnavailable:
            raise
        except StoreError:  # another caller reclaimed it first
            return _stop(_outcome.still_running(call, tool.name), attempt)
        if status == "applied":
            return _claimed(Outcome(result=_outcome.reconciled(call, tool.name), attempt=attempt),
                            key, owner)  # fmt: skip
        # Not applied: run again, with a time budget of its own (the wait for the dead
        # owner's lease must not eat the re-run's time).
        rerun = dataclasses.replace(
            attempt,
            number=record.attempts,
            deadline=self.clock.monotonic() + (tool.timeout or self.default_timeout),
        )
        return _claimed(await settled(self.next(rerun)), key, owner)


def _claimed(outcome: Outcome, key: str, owner: str) -> Outcome:
    return dataclasses.replace(outcome, claimed=Claimed(key=key, owner=owner))


def _stop(result: ToolResult, attempt: Attempt) -> Outcome:
    return Outcome(result=result, attempt=attempt)
