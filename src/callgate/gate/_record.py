"""record: every routed call leaves a receipt in the hash-chained journal.

The outermost step: it sees the final route of every call, invalid and refused ones
included. When the call claimed a key, the claim's finish (with the outcome duplicates will
replay) and the receipt are written in one transaction; so are the Rule of Two labels a
completed call brought into its run. Everything stored is redacted first.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from callgate._errors import shown
from callgate.contract import Catalog, Effect, Route, Tool, ToolResult
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Outcome, Request, Step, request_hash, settled
from callgate.gate._dedupe import encode_outcome
from callgate.gate._log import GateLog
from callgate.gate._redact import Redactor
from callgate.gate._untrusted import SUSPECTED, UNTRUSTED, suspicion, tool_text
from callgate.schema import content_hash
from callgate.store import (
    AsyncStore,
    Finish,
    FinishState,
    ReceiptDraft,
    Settle,
    StoreError,
    StoreUnavailable,
)

__all__ = ["ReceiptSettings", "Record"]

_DONE = frozenset({Route.COMPLETED, Route.VERIFIED})


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
    """Appends one receipt per routed call and finishes the call's claim with it."""

    def __init__(
        self,
        next: Callable[[Request], Step],
        *,
        store: AsyncStore,
        settings: ReceiptSettings,
        redactor: Redactor,
        policy_version: str | None,
        catalog: Catalog,
        log: GateLog,
    ) -> None:
        self.next = next
        self.store = store
        self.settings = settings
        self.redactor = redactor
        self.policy_version = policy_version
        self.catalog = catalog
        self.log = log

    async def __call__(self, request: Request) -> Outcome:
        outcome = await settled(self.next(request))
        result = _annotated(outcome)
        outcome = dataclasses.replace(outcome, result=result)
        if outcome.store_down:  # the store just failed this call: nothing more to write
            return outcome
        attempt = outcome.attempt
        tool = attempt.tool if attempt is not None else self.catalog.resolve(request.call.name)
        settle = Settle(
            receipt=self._draft(request, attempt, tool, result),
            finish=self._finish(outcome),
            labels=_labels(tool, request, result),
        )
        try:
            await self.store.settle(settle)
        except StoreError as exc:
            return self._unrecorded(request, outcome, settle, exc)
        return outcome

    def _finish(self, outcome: Outcome) -> Finish | None:
        claimed = outcome.claimed
        if claimed is None:
            return None
        state: FinishState = (
            "completed"
            if outcome.result.route in _DONE
            else "unknown"
            if outcome.result.route is Route.UNKNOWN_OUTCOME
            else "failed"
        )
        stored = encode_outcome(self.redactor.result(outcome.result))
        return Finish(key=claimed.key, owner=claimed.owner, state=state, outcome=stored)

    def _unrecorded(
        self, request: Request, outcome: Outcome, settle: Settle, exc: StoreError
    ) -> Outcome:
        """The receipt (and the finish and labels that go with it) could not be written."""
        result, name = outcome.result, settle.receipt.tool_name
        if settle.finish is not None:
            # The call ran; only its record is missing. Its lease will run out and the next
            # attempt will reconcile, which is the truth: nobody here can record it now.
            self.log.error("outcome and receipt of %s (key %s) not recorded: %s", name,
                           settle.finish.key, exc)  # fmt: skip
            missing = f"outcome not recorded ({type(exc).__name__})"
            reason = missing if result.reason is None else f"{result.reason}; {missing}"
            return dataclasses.replace(outcome, result=dataclasses.replace(result, reason=reason))
        self.log.error("receipt for %s (call %s, route %s) not written: %s", name,
                       result.call_id, result.route, exc)  # fmt: skip
        withhold = settle.labels or (
            self.settings.reads_without_store == "deny" and result.route in _DONE
        )
        if withhold and isinstance(exc, StoreUnavailable):
            # Its labels would enter the run unrecorded (the Rule of Two could not hold), or
            # the host asked that no read go unrecorded: the result is withheld.
            denied = _outcome.store_unavailable(request.call, result.name)
            return dataclasses.replace(outcome, result=denied)
        return outcome

    def _draft(
        self, request: Request, attempt: Attempt | None, tool: Tool | None, result: ToolResult
    ) -> ReceiptDraft:
        call, context = request.call, request.context
        arguments: object
        if attempt is not None:
            digest, arguments = attempt.request_hash, attempt.all_arguments()
        else:
            # Never checked, so maybe not JSON at all: kept as the text it came as, or shown.
            raw = call.arguments
            arguments = raw if raw is None or isinstance(raw, str) else shown(raw)
            digest = request_hash(tool, call.name, raw, context)
        keep = self.settings.store_payloads
        timings = result.timings
        return ReceiptDraft(
            request_hash=digest,
            tool_name=result.name,
            tool_fingerprint=tool.fingerprint if tool is not None else None,
            principal=context.principal,
            tenant=context.tenant,
            run_id=context.run_id,
            call_id=call.id,
            route=result.route,
            rule_id=result.rule_id,
            approval_id=result.approval_id,
            idempotency_key=result.idempotency_key,
            argument_hash=_hash_or_none(arguments),
            result_hash=hashlib.sha256(result.content.encode("utf-8", "surrogatepass")).hexdigest(),
            replayed=result.replayed,
            started_at=request.received_at,
            duration_ms=(time.time() - request.received_at) * 1000,
            execute_ms=timings.execute_ms if timings is not None else 0.0,
            policy_version=self.policy_version,
            schema_version=tool.version if tool is not None else None,
            source=tool.source if tool is not None else None,
            batch_id=request.batch_id,
            findings=result.findings,
            arguments=self.redactor.value(arguments) if keep else None,
            result=self.redactor.text(result.content) if keep else None,
        )


def _annotated(outcome: Outcome) -> ToolResult:
    """The result with what the steps decided: rule, approval and idempotency key."""
    result, attempt = outcome.result, outcome.attempt
    if attempt is None:
        return result
    decision = attempt.decision
    rule_id = result.rule_id or (decision.rule_id if decision is not None else None)
    approval_id = result.approval_id or attempt.approval_id
    key = result.idempotency_key
    if attempt.tool.effect is not Effect.READ:
        key = key or attempt.key
    if (rule_id, approval_id, key) == (result.rule_id, result.approval_id, result.idempotency_key):
        return result
    return dataclasses.replace(
        result, rule_id=rule_id, approval_id=approval_id, idempotency_key=key
    )


def _labels(tool: Tool | None, request: Request, result: ToolResult) -> dict[str, str]:
    """What the call brought into its run: the tool's labels once it completed; untrusted
    content whenever the model read the tool's own words (an error's message too); and a
    suspected injection when the scan of them found something high."""
    if tool is None or not tool.labels or request.context.run_id is None:
        return {}
    source = f"{tool.name} (call {request.call.id})"
    labels: dict[str, str] = {}
    if result.route in _DONE:
        labels = {label: source for label in sorted(tool.labels)}
    if UNTRUSTED in tool.labels and tool_text(result):
        labels[UNTRUSTED] = source
        found = suspicion(result.findings)
        if found is not None:
            labels[SUSPECTED] = f"{found} in {source}"
    return labels


def _hash_or_none(value: object) -> str | None:
    try:
        return content_hash(value)
    except (TypeError, ValueError):
        return None
