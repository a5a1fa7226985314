"""record: every routed call leaves a receipt in the hash-chained journal, and a store that
cannot be reached stops every call that would change something (fail closed)."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Literal

from callgate.contract import Context, Effect, Tool, ToolCall, ToolResult
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Next, Settlement, annotate
from callgate.gate._dedupe import encode_outcome
from callgate.gate._redact import Redactor
from callgate.gate._store_io import StoreIO
from callgate.schema import content_hash
from callgate.store import ReceiptDraft, StoreConflict, StoreUnavailable

__all__ = ["FailClosed", "ReceiptSettings", "Record"]

log = logging.getLogger("callgate.gate")


@dataclass(frozen=True, kw_only=True, slots=True)
class ReceiptSettings:
    """What receipts keep besides the hashes."""

    store_payloads: bool = False
    """Keep raw arguments and results (redacted) in each receipt."""
    retention_seconds: float | None = None
    """Raw payloads older than this are pruned (`Gate.prune_payloads`); the chain stays."""
    reads_without_store: Literal["allow", "deny"] = "allow"
    """A read whose receipt cannot be written: return its result anyway, or withhold it."""


class Record:
    """Appends one receipt per routed call (outermost step: it sees the final route)."""

    def __init__(
        self, io: StoreIO, settings: ReceiptSettings, redactor: Redactor, policy_version: str | None
    ) -> None:
        self.io = io
        self.settings = settings
        self.redactor = redactor
        self.policy_version = policy_version

    async def __call__(self, attempt: Attempt, call_next: Next) -> ToolResult:
        settlement = attempt.settlement = Settlement()
        result = annotate(await call_next(attempt), attempt)
        arguments = {**attempt.prepared.arguments, **attempt.injected}
        draft = self.draft(
            attempt.call,
            result,
            attempt.context,
            attempt.tool,
            request_hash=attempt.request_hash,
            arguments=arguments,
            started_at=attempt.started_at,
        )
        if settlement.key is not None:
            return await self._settle(settlement, result, draft)
        stored = await self.append(draft)
        if (
            not stored
            and attempt.tool.effect is Effect.READ
            and (self.settings.reads_without_store == "deny")
        ):
            return _outcome.store_unavailable(attempt.call, attempt.tool.name)
        return result

    async def _settle(
        self, settlement: Settlement, result: ToolResult, draft: ReceiptDraft
    ) -> ToolResult:
        """Finish the idempotency record and append the receipt in one transaction."""
        assert settlement.owner is not None and settlement.state is not None
        try:
            await self.io.finish_and_record(
                settlement.key or "",
                owner=settlement.owner,
                state=settlement.state,
                outcome=encode_outcome(result, self.redactor),
                receipt=draft,
            )
        except (StoreUnavailable, StoreConflict) as exc:
            # The call ran; only its record is missing. Its lease will run out and the next
            # attempt reconciles, which is the truth: nobody here can record it now.
            log.error(
                "outcome and receipt of %s (key %s) not recorded: %s",
                draft.tool_name,
                settlement.key,
                exc,
            )
            return dataclasses.replace(
                result, reason=f"{result.reason}; outcome not recorded ({type(exc).__name__})"
            )
        return result

    async def append(self, draft: ReceiptDraft) -> bool:
        try:
            await self.io(self.io.store.receipts.append, draft)
        except StoreUnavailable as exc:
            log.error(
                "receipt for %s (call %s, route %s) not written: %s",
                draft.tool_name,
                draft.call_id,
                draft.route,
                exc,
            )
            return False
        return True

    def draft(
        self,
        call: ToolCall,
        result: ToolResult,
        context: Context,
        tool: Tool | None,
        *,
        request_hash: str,
        arguments: object,
        started_at: float,
    ) -> ReceiptDraft:
        timings = result.timings
        keep = self.settings.store_payloads
        return ReceiptDraft(
            request_hash=request_hash,
            tool_name=result.name,
            tool_fingerprint=tool.fingerprint if tool else None,
            principal=context.principal,
            tenant=context.tenant,
            run_id=context.run_id,
            call_id=call.id,
            route=result.route,
            rule_id=result.rule_id,
            approval_id=result.approval_id,
            idempotency_key=result.idempotency_key,
            argument_hash=_hash_or_none(arguments),
            result_hash=_sha(result.content),
            replayed=result.replayed,
            started_at=started_at,
            duration_ms=(time.time() - started_at) * 1000,
            execute_ms=timings.execute_ms if timings else 0.0,
            policy_version=self.policy_version,
            schema_version=tool.version if tool else None,
            arguments=self.redactor.value(arguments) if keep else None,
            result=self.redactor.text(result.content) if keep else None,
        )


class FailClosed:
    """A store failure before the tool ran denies the call: nothing runs unrecorded."""

    def __init__(self, io: StoreIO) -> None:
        self.io = io

    async def __call__(self, attempt: Attempt, call_next: Next) -> ToolResult:
        try:
            if attempt.tool.effect is not Effect.READ and attempt.idempotency_key is None:
                await self.io(self.io.store.ping)  # no other store step precedes execution
            return await call_next(attempt)
        except StoreUnavailable as exc:
            log.error("store unavailable before %s ran: %s", attempt.tool.name, exc)
            return _outcome.store_unavailable(attempt.call, attempt.tool.name)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _hash_or_none(value: object) -> str | None:
    try:
        return content_hash(value)
    except (TypeError, ValueError):
        return None
