"""dedupe: a call that changes something runs at most once per idempotency key.

The key's record moves `started` -> `completed` | `failed` | `unknown` under a lease. A
duplicate gets the stored outcome (`replayed=True`); a duplicate that arrives while the
first attempt runs waits for it; an attempt whose owner died or timed out is `unknown`, and
only the tool's `reconcile(key)` can clear it: applied -> done, not applied -> run again.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
import os
import secrets
import socket
import time
from typing import Any, Literal

from callgate.contract import Effect, Route, ToolResult
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Next
from callgate.gate._hooks import ask_reconcile
from callgate.gate._redact import Redactor
from callgate.gate._store_io import StoreIO
from callgate.store import Claim, StoreConflict, StoreUnavailable

__all__ = ["Dedupe", "decode_outcome", "encode_outcome"]

log = logging.getLogger("callgate.gate")

_DONE = {Route.COMPLETED: "completed", Route.VERIFIED: "completed"}
_FIELDS = (
    "route",
    "content",
    "structured",
    "is_error",
    "reason",
    "reference",
    "rule_id",
    "approval_id",
)


def encode_outcome(result: ToolResult, redactor: Redactor) -> dict[str, Any]:
    """The JSON form of a result, as stored for replay, secrets redacted."""
    data = {f: getattr(result, f) for f in _FIELDS}
    data["content"] = redactor.text(result.content)
    data["structured"] = redactor.value(result.structured)
    return data


def decode_outcome(stored: Any, attempt: Attempt, key: str) -> ToolResult:
    data = dict(stored)
    return ToolResult(
        call_id=attempt.call.id,
        name=attempt.tool.name,
        route=Route(data.pop("route")),
        replayed=True,
        idempotency_key=key,
        **{k: v for k, v in data.items() if k in _FIELDS},
    )


class Dedupe:
    """Exactly-once for writes and irreversible calls that carry an idempotency key."""

    def __init__(
        self, io: StoreIO, *, redactor: Redactor, lease_margin: float, default_timeout: float
    ) -> None:
        self.io = io
        self.redactor = redactor
        self.lease_margin = lease_margin
        self.default_timeout = default_timeout
        self._owner_prefix = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._counter = itertools.count()

    async def __call__(self, attempt: Attempt, call_next: Next) -> ToolResult:
        key = attempt.idempotency_key
        if key is None or attempt.tool.effect is Effect.READ:
            return await call_next(attempt)
        owner = f"{self._owner_prefix}:{next(self._counter)}"
        claim = await self._claim(key, attempt, owner)
        if claim is None:
            return _keyed(_outcome.still_running(attempt.call, attempt.tool.name), key)
        if claim.status == "replay":
            return decode_outcome(claim.record.outcome, attempt, key)
        if claim.status == "mismatch":
            return _keyed(
                _outcome.denied(
                    attempt.call,
                    attempt.tool.name,
                    "this idempotency key was already used for "
                    "a different request; use a new request id",
                    rule_id=None,
                ),
                key,
            )
        if claim.status == "unknown":
            return await self._after_unknown(attempt, key, owner, call_next)
        return await self._run(attempt, key, owner, call_next)

    def _lease(self, attempt: Attempt) -> float:
        return (attempt.tool.timeout or self.default_timeout) + self.lease_margin

    async def _claim(self, key: str, attempt: Attempt, owner: str) -> Claim | None:
        """Claim the key; while another owner's lease is live, wait for it (bounded)."""
        lease = self._lease(attempt)
        give_up = time.monotonic() + lease + self.lease_margin
        delay = 0.002
        while True:
            claim = await self.io.begin(
                key, request_hash=attempt.request_hash, owner=owner, lease_seconds=lease
            )
            if claim.status != "in_progress":
                return claim
            if time.monotonic() >= give_up:
                return None
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.1)

    async def _run(self, attempt: Attempt, key: str, owner: str, call_next: Next) -> ToolResult:
        result = await call_next(attempt)
        idem = self.io.store.idempotency
        state: Literal["completed", "failed"] = "completed" if result.route in _DONE else "failed"
        settlement = attempt.settlement
        try:
            if result.route is Route.UNKNOWN_OUTCOME:
                await self.io(idem.mark_unknown, key, owner=owner)
            elif settlement is not None:  # finished with the receipt, in one transaction
                settlement.key, settlement.owner, settlement.state = key, owner, state
            else:
                await self.io(
                    idem.finish,
                    key,
                    owner=owner,
                    state=state,
                    outcome=encode_outcome(result, self.redactor),
                )
        except (StoreUnavailable, StoreConflict) as exc:
            # The call ran; only its record is missing. The lease will run out and the next
            # attempt will reconcile, which is the truth: nobody here can record it now.
            log.error("outcome of %s under key %s not recorded: %s", attempt.tool.name, key, exc)
            result = dataclasses.replace(
                result, reason=f"{result.reason}; outcome not recorded ({type(exc).__name__})"
            )
        return result

    async def _after_unknown(
        self, attempt: Attempt, key: str, owner: str, call_next: Next
    ) -> ToolResult:
        tool, call = attempt.tool, attempt.call
        if tool.reconcile is None:
            return _keyed(
                _outcome.earlier_attempt_unknown(
                    call,
                    tool.name,
                    "the tool has no reconcile hook, so a write is never retried automatically",
                ),
                key,
            )
        status = await ask_reconcile(tool.reconcile, key, tool.name)
        if status == "unknown":
            return _keyed(
                _outcome.earlier_attempt_unknown(
                    call, tool.name, "the target system could not say whether it took effect"
                ),
                key,
            )
        try:
            record = await self.io(
                self.io.store.idempotency.reclaim,
                key,
                owner=owner,
                lease_seconds=self._lease(attempt),
            )
        except StoreConflict:
            return _keyed(_outcome.still_running(call, tool.name), key)
        if status == "applied":
            done = _outcome.reconciled(call, tool.name)
            await self.io(
                self.io.store.idempotency.finish,
                key,
                owner=owner,
                state="completed",
                outcome=encode_outcome(done, self.redactor),
            )
            return _keyed(done, key)
        attempt.number = record.attempts
        return await self._run(attempt, key, owner, call_next)


def _keyed(result: ToolResult, key: str) -> ToolResult:
    """Only for results made here; the record step adds the key to all others."""
    return dataclasses.replace(result, idempotency_key=key)
