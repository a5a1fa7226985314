"""The gate: every call a model proposes passes through here before it becomes an action."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
import weakref
from collections.abc import Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from callgate._errors import UserError
from callgate.contract import Catalog, Context, Tool, ToolCall, ToolResult
from callgate.gate import _outcome
from callgate.gate._approvals import Approvals
from callgate.gate._attempt import Attempt, chain, derive_key, request_hash
from callgate.gate._execute import ExecutionSettings, execute
from callgate.gate._inject import MissingContext, context_values
from callgate.gate._policy import Policy
from callgate.gate._prepare import Prepared, prepare
from callgate.gate._record import ReceiptSettings
from callgate.gate._redact import Redactor, install_log_redaction
from callgate.gate._retry import RetrySettings
from callgate.gate._setup import GateSteps, build_steps
from callgate.gate._taint import TaintTracker
from callgate.schema import ArgumentLimits, content_hash
from callgate.store import Approval, Store, open_store

__all__ = ["Gate"]

T = TypeVar("T")


class Gate:
    """Resolves, validates, authorizes and executes the calls of a batch, one route per call.

    All calls of a batch run concurrently (async tools on the event loop, sync tools in
    worker threads) up to `max_concurrency`; a tool marked `sequential` runs alone.
    Results come back in the order of the calls, and one call's failure never hides another.

    With neither `policy` nor `store` the gate is lean: every valid call is run (the
    development setting). With either, calls are authorized by the policy (`Policy()`
    when none is given: reads allowed, writes and irreversible calls asked), held calls
    wait in the store (`sqlite://:memory:` when none is given), writes run exactly once
    per idempotency key, and every routed call leaves a hash-chained receipt.

    Held calls: a call that needs a human comes back as `held` with `approval_id`. Once a
    person decided (`gate.approvals.approve(...)`, `callgate approvals approve`), the host
    calls `await gate.resume(approval_id)` (or proposes the very same call again, under
    the same context): the approved call runs once; a declined one returns `declined`; an
    undecided one is `held` again with the same id.
    """

    def __init__(
        self,
        catalog: Catalog | Iterable[Tool],
        *,
        context: Context | None = None,
        limits: ArgumentLimits | None = None,
        max_concurrency: int = 16,
        default_timeout: float = 30.0,
        max_result_chars: int = 20_000,
        policy: Policy | str | Path | None = None,
        store: Store | str | None = None,
        redactor: Redactor | None = None,
        receipts: ReceiptSettings | None = None,
        retry: RetrySettings | None = None,
        approval_ttl: float = 24 * 3600.0,
        lease_margin: float = 5.0,
    ) -> None:
        if max_concurrency < 1:
            raise UserError("max_concurrency must be at least 1")
        self.catalog = catalog if isinstance(catalog, Catalog) else Catalog(catalog)
        self.context = context or Context()
        self.limits = limits or ArgumentLimits()
        self.max_concurrency = max_concurrency
        self.settings = ExecutionSettings(
            default_timeout=default_timeout, max_result_chars=max_result_chars
        )
        self.policy = Policy.from_toml(policy) if isinstance(policy, str | Path) else policy
        self._owns_store = isinstance(store, str) or (store is None and self.policy is not None)
        if isinstance(store, str):
            store = open_store(store)
        elif store is None and self.policy is not None:
            store = open_store("sqlite://:memory:")
        self.store: Store | None = store
        self.redactor = redactor or Redactor()
        install_log_redaction(self.redactor)
        self.taint = TaintTracker()
        self._threads = ThreadPoolExecutor(max_concurrency, thread_name_prefix="callgate-tool")
        self._steps: GateSteps = build_steps(
            store=store,
            policy=self.policy,
            taint=self.taint,
            redactor=self.redactor,
            receipts=receipts,
            retry=retry or RetrySettings(),
            approval_ttl=approval_ttl,
            lease_margin=lease_margin,
            default_timeout=default_timeout,
        )
        self._chain = chain(self._steps.steps, self._terminal)
        self._after_retry = chain(self._steps.inner, self._terminal)
        self._semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]
        self._semaphores = weakref.WeakKeyDictionary()
        self._portal: _Portal | None = None

    async def call(
        self, call: ToolCall, *, context: Context | None = None, request_id: str | None = None
    ) -> ToolResult:
        """Route one call.

        `request_id` is the caller's id for this request: with the tenant and the tool it
        forms the idempotency key `tenant:request_id:tool`. Without it the key derives from
        the context's `run_id` and the call id; with neither, a write has no key.
        """
        return await self._route(call, context or self.context, request_id, None)

    async def resume(
        self,
        target: ToolCall | str,
        /,
        *,
        approval_id: str | None = None,
        context: Context | None = None,
        request_id: str | None = None,
    ) -> ToolResult:
        """Continue a held call after its approval was decided: `resume(approval_id)`, or
        `resume(call, approval_id=...)` with the original call.

        Returns the call's route: the approved call's outcome (run once: resuming twice
        replays it), `declined`, or `held` again while nobody has decided. Without a call
        it is rebuilt from the approval (tool, call id, arguments); pass the original call
        when the stored arguments were redacted. Without `context` the gate's context is
        used with the approval's principal, tenant and run. The policy is consulted again,
        so a rule added since the call was held still applies.
        """
        call = target if isinstance(target, ToolCall) else None
        approval_id = target if isinstance(target, str) else approval_id
        if approval_id is None:
            raise UserError("resume needs the approval id: resume(call, approval_id=...)")
        approval = await self._approval(approval_id)
        if call is None:
            call = ToolCall(
                id=approval.call_id or approval_id,
                name=approval.tool_name,
                arguments=approval.arguments,
            )
        ctx = context or dataclasses.replace(
            self.context,
            principal=approval.principal,
            tenant=approval.tenant,
            run_id=approval.run_id,
        )
        return await self._route(call, ctx, request_id, approval)

    async def decide(
        self,
        approval_id: str,
        *,
        approve: bool,
        decided_by: str,
        note: str | None = None,
        edited_arguments: Any = None,
        grant: bool = False,
        context: Context | None = None,
    ) -> Approval:
        """Record a human decision on a held call (it does not run the call: `resume` does).

        `edited_arguments` replace the call's arguments (validated again, new request hash);
        `grant` allows the tool for the rest of the approval's run. `context`, when given,
        must be the one the call was held under.
        """
        approval = await self._approval(approval_id)
        if context is not None and (context.principal, context.tenant, context.run_id) != (
            approval.principal,
            approval.tenant,
            approval.run_id,
        ):
            raise UserError(
                f"approval {approval_id} was filed for another principal, tenant or run"
            )
        queue = self.approvals
        if not approve:
            return await asyncio.to_thread(queue.deny, approval_id, by=decided_by, note=note)
        return await asyncio.to_thread(
            queue.approve,
            approval_id,
            by=decided_by,
            note=note,
            arguments=edited_arguments,
            grant=grant,
        )

    async def _approval(self, approval_id: str) -> Approval:
        store = self._require_store("approvals")
        approval = await asyncio.to_thread(store.approvals.get, approval_id)
        if approval is None:
            raise UserError(f"no approval {approval_id!r}")
        return approval

    @property
    def approvals(self) -> Approvals:
        """The approval queue of this gate's store, able to validate edited arguments."""
        return Approvals(self._require_store("approvals"), self.catalog)

    def prune_payloads(self, older_than: float | None = None) -> int:
        """Drop raw payloads older than the retention setting (or `older_than`, Unix time)."""
        store = self._require_store("prune_payloads")
        retention = self._steps.receipts.retention_seconds
        if older_than is None:
            if retention is None:
                return 0
            older_than = time.time() - retention
        return store.receipts.prune_payloads(older_than)

    async def run_batch(
        self, calls: Sequence[ToolCall], *, context: Context | None = None
    ) -> list[ToolResult]:
        """Route every call of one model turn; results in the order of `calls`."""
        ctx = context or self.context
        results: list[ToolResult | None] = [None] * len(calls)
        for group in _groups(self.catalog, calls):
            outcomes = await asyncio.gather(*(self.call(calls[i], context=ctx) for i in group))
            for i, outcome in zip(group, outcomes, strict=True):
                results[i] = outcome
        return [r for r in results if r is not None]

    def run_batch_sync(
        self, calls: Sequence[ToolCall], *, context: Context | None = None
    ) -> list[ToolResult]:
        """`run_batch` for synchronous callers (not from inside a running event loop)."""
        return self._blocking(self.run_batch(calls, context=context))

    def call_sync(
        self, call: ToolCall, *, context: Context | None = None, request_id: str | None = None
    ) -> ToolResult:
        """`call` for synchronous callers."""
        return self._blocking(self.call(call, context=context, request_id=request_id))

    def resume_sync(
        self,
        target: ToolCall | str,
        /,
        *,
        approval_id: str | None = None,
        context: Context | None = None,
    ) -> ToolResult:
        """`resume` for synchronous callers."""
        return self._blocking(self.resume(target, approval_id=approval_id, context=context))

    def close(self) -> None:
        """Stop the worker threads, the background loop of the synchronous API, and a store
        the gate opened itself."""
        if self._portal is not None:
            self._portal.close()
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._owns_store and self.store is not None:
            self.store.close()

    def __enter__(self) -> Gate:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def _route(
        self, call: ToolCall, context: Context, request_id: str | None, approval: Approval | None
    ) -> ToolResult:
        prepared = prepare(self.catalog, call, self.limits)
        if isinstance(prepared, ToolResult):
            if self._steps.record is not None:
                await self._record_invalid(call, prepared, context)
            return prepared
        async with self._semaphore():
            tool = prepared.entry.tool
            if self._steps.lean and not tool.server_parameters and tool.read_back is None:
                result = await execute(prepared, context, self.settings, self._threads)
                if result.reason != _outcome.TRANSIENT:
                    return result
                attempt = self._attempt(prepared, context, {}, request_id, None)
                return await self._steps.retry.after(attempt, result, self._after_retry)
            return await self._guarded(prepared, context, request_id, approval)

    async def _guarded(
        self,
        prepared: Prepared,
        context: Context,
        request_id: str | None,
        approval: Approval | None,
    ) -> ToolResult:
        tool = prepared.entry.tool
        try:
            injected = context_values(tool, context) if tool.server_parameters else {}
        except MissingContext as exc:
            return _outcome.denied(prepared.call, tool.name, str(exc), rule_id=None)
        attempt = self._attempt(prepared, context, injected, request_id, approval)
        if approval is not None and attempt.request_hash not in (
            approval.request_hash,
            approval.edited_request_hash,
        ):
            raise UserError(
                f"approval {approval.id} was made for another request (tool, "
                "arguments, principal or run differ); pass the original call and "
                "context to resume() — stored arguments may have been redacted"
            )
        result = await self._chain(attempt)
        if self.redactor.in_results:
            result = dataclasses.replace(
                result,
                content=self.redactor.text(result.content),
                structured=self.redactor.value(result.structured),
            )
        return result

    def _attempt(
        self,
        prepared: Prepared,
        context: Context,
        injected: dict[str, Any],
        request_id: str | None,
        approval: Approval | None,
    ) -> Attempt:
        tool = prepared.entry.tool
        return Attempt(
            prepared=prepared,
            context=context,
            injected=injected,
            request_hash=(
                request_hash(tool, prepared.arguments, context) if not self._steps.lean else ""
            ),
            idempotency_key=derive_key(tool, prepared.call, context, request_id),
            started_at=time.time(),
            deadline=time.monotonic() + (tool.timeout or self.settings.default_timeout),
            approval_id=approval.id if approval is not None else None,
        )

    async def _terminal(self, attempt: Attempt) -> ToolResult:
        remaining = attempt.deadline - time.monotonic()
        timeout = None if attempt.number == 1 else max(remaining, 0.001)
        return await execute(
            attempt.prepared,
            attempt.context,
            self.settings,
            self._threads,
            idempotency_key=attempt.idempotency_key,
            injected=attempt.injected,
            attempt=attempt.number,
            budget=timeout,
        )

    async def _record_invalid(self, call: ToolCall, result: ToolResult, context: Context) -> None:
        record = self._steps.record
        assert record is not None
        raw = call.arguments if isinstance(call.arguments, str | None) else dict(call.arguments)
        try:
            digest = content_hash(
                {
                    "name": call.name,
                    "arguments": raw,
                    "principal": context.principal,
                    "tenant": context.tenant,
                    "run": context.run_id,
                }
            )
        except (TypeError, ValueError):
            digest = content_hash({"name": call.name, "arguments": repr(raw)})
        draft = record.draft(
            call,
            result,
            context,
            self.catalog.resolve(call.name),
            request_hash=digest,
            arguments=raw,
            started_at=time.time(),
        )
        await record.append(draft)

    def _require_store(self, what: str) -> Store:
        if self.store is None:
            raise UserError(f"{what} needs a store: Gate(..., store='sqlite:///callgate.db')")
        return self.store

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        sem = self._semaphores.get(loop)
        if sem is None:
            sem = self._semaphores[loop] = asyncio.Semaphore(self.max_concurrency)
        return sem

    def _blocking(self, coro: Coroutine[Any, Any, T]) -> T:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            coro.close()
            raise UserError(
                "the synchronous API was called inside a running event loop; "
                "use `await gate.run_batch(...)` there"
            )
        if self._portal is None:
            self._portal = _Portal()
        return self._portal.run(coro)


def _groups(catalog: Catalog, calls: Sequence[ToolCall]) -> list[list[int]]:
    """Consecutive ordinary calls form one concurrent group; a sequential tool runs alone."""
    groups: list[list[int]] = []
    current: list[int] = []
    for i, call in enumerate(calls):
        tool = catalog.resolve(call.name)
        if tool is not None and tool.sequential:
            if current:
                groups.append(current)
                current = []
            groups.append([i])
        else:
            current.append(i)
    if current:
        groups.append(current)
    return groups


class _Portal:
    """One event loop in a daemon thread, shared by every synchronous call of a gate.

    Reusing a loop keeps the per-call cost of the synchronous API to a thread hand-off
    instead of creating and tearing down a loop each time.
    """

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, daemon=True, name="callgate-sync"
        )
        self._thread.start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self._loop.close()
