"""The gate: every call a model proposes passes through here before it becomes an action."""

from __future__ import annotations

import asyncio
import dataclasses
import time
import uuid
from collections.abc import Coroutine, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from callgate._backoff import SYSTEM_CLOCK, Clock
from callgate._errors import UserError
from callgate._threads import Threads
from callgate.contract import ApprovalDecision, Catalog, Context, Tool, ToolCall, ToolResult
from callgate.gate._approvals import Approvals, approval_context
from callgate.gate._attempt import Outcome, Refusal, Request, settled
from callgate.gate._execute import ExecutionSettings
from callgate.gate._log import GateLog
from callgate.gate._policy import Policy
from callgate.gate._process import ProcessRunner
from callgate.gate._record import ReceiptSettings
from callgate.gate._redact import Redactor
from callgate.gate._retry import RetrySettings
from callgate.gate._setup import Durable, build_chain
from callgate.gate._sync import SyncRunner
from callgate.gate._untrusted import UntrustedResults
from callgate.schema import ArgumentLimits
from callgate.store import Approval, AsyncStore, Store, open_store
from callgate.telemetry import Telemetry, current

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
    person decided (`await gate.decide(id, Approve(by="ann"))`, `callgate approvals
    approve`), the host calls `await gate.resume(approval_id)` (or proposes the very same
    call again, under the same context): the approved call runs once; a declined one
    returns `declined`; an undecided one is `held` again with the same id.
    """

    def __init__(
        self,
        catalog: Catalog | Iterable[Tool],
        *,
        context: Context | None = None,
        limits: ArgumentLimits | None = None,
        execution: ExecutionSettings | None = None,
        max_concurrency: int = 16,
        policy: Policy | str | Path | None = None,
        store: Store | str | None = None,
        redactor: Redactor | None = None,
        receipts: ReceiptSettings | None = None,
        retry: RetrySettings | None = None,
        approval_ttl: float = 24 * 3600.0,
        lease_margin: float = 5.0,
        clock: Clock = SYSTEM_CLOCK,
        untrusted: UntrustedResults | None = None,
        telemetry: Telemetry | None = None,
    ) -> None:
        if max_concurrency < 1:
            raise UserError("max_concurrency must be at least 1")
        self.catalog = catalog if isinstance(catalog, Catalog) else Catalog(catalog)
        self.context = context or Context()
        self.limits = limits or ArgumentLimits()
        self.execution = execution or ExecutionSettings()
        self.redactor = redactor or Redactor()
        self.policy = Policy.from_toml(policy) if isinstance(policy, str | Path) else policy
        self.receipts = receipts or ReceiptSettings()
        self._owns_store = isinstance(store, str) or (store is None and self.policy is not None)
        if isinstance(store, str):
            store = open_store(store)
        elif store is None and self.policy is not None:
            store = open_store("sqlite://:memory:")
        self.store: Store | None = store
        self._io = AsyncStore(store) if store is not None else None
        self._threads = Threads(max_concurrency, name="callgate-tool")
        self._processes = ProcessRunner()
        self._sync = SyncRunner()
        # Without one of its own, the gate takes the one `callgate.telemetry.instrument()`
        # put in force; with neither its chain has no telemetry step.
        self.telemetry = telemetry if telemetry is not None else current()
        self._chain = build_chain(
            catalog=self.catalog,
            limits=self.limits,
            execution=self.execution,
            max_concurrency=max_concurrency,
            retry=retry or RetrySettings(),
            redactor=self.redactor,
            clock=clock,
            threads=self._threads,
            processes=self._processes,
            log=GateLog(self.redactor),
            untrusted=_with_catalog_values(untrusted or UntrustedResults(), self.catalog),
            durable=(
                None
                if self._io is None
                else Durable(
                    store=self._io,
                    # A durable gate is never "allow everything".
                    policy=self.policy or Policy(),
                    receipts=self.receipts,
                    approval_ttl=approval_ttl,
                    lease_margin=lease_margin,
                )
            ),
            telemetry=self.telemetry,
        )

    # -- routing ----------------------------------------------------------------------------

    async def call(
        self,
        call: ToolCall,
        *,
        context: Context | None = None,
        request_id: str | None = None,
        batch_id: str | None = None,
    ) -> ToolResult:
        """Route one call.

        `request_id` is the caller's id for this request: with the tenant and the tool it
        forms the idempotency key `tenant:request_id:tool`. Without it the key derives from
        the context's `run_id` and the call id; with neither, a write gets a key of its own
        (its claim is still written before it runs, but nothing ties a retry to it).
        """
        request = Request(call, context or self.context, time.time(), request_id, None, batch_id)
        step = self._chain(request)
        result = (step if type(step) is Outcome else await step).result  # type: ignore[misc]
        return self.redactor.result(result) if self.redactor.in_results else result

    async def run_batch(
        self,
        calls: Sequence[ToolCall],
        *,
        context: Context | None = None,
        batch_id: str | None = None,
    ) -> list[ToolResult]:
        """Route every call of one model turn; results in the order of `calls`. The calls
        share `batch_id` in their receipts (a fresh one when not given)."""
        if len(calls) == 1:
            return [await self.call(calls[0], context=context, batch_id=batch_id)]
        batch = batch_id or (uuid.uuid4().hex[:16] if self.store is not None else None)
        results: list[ToolResult | None] = [None] * len(calls)
        for group in _groups(self.catalog, calls):
            outcomes = await asyncio.gather(
                *(self.call(calls[i], context=context, batch_id=batch) for i in group)
            )
            for i, outcome in zip(group, outcomes, strict=True):
                results[i] = outcome
        return [r for r in results if r is not None]

    async def refuse(
        self,
        call: ToolCall,
        refusal: Refusal,
        *,
        context: Context | None = None,
        batch_id: str | None = None,
    ) -> ToolResult:
        """Route a call as `denied` without running it (a host's own limit): it gets the
        refusal's rule id and, with a store, a receipt like every other route."""
        request = Request(
            call=call,
            context=context or self.context,
            received_at=time.time(),
            batch_id=batch_id,
            refusal=refusal,
        )
        return await self._route(request)

    async def resume(
        self,
        target: ToolCall | str,
        /,
        *,
        approval_id: str | None = None,
        context: Context | None = None,
        request_id: str | None = None,
        batch_id: str | None = None,
    ) -> ToolResult:
        """Continue a held call after its approval was decided: `resume(approval_id)`, or
        `resume(call, approval_id=...)` with the original (or, after an edit, the edited)
        call.

        Returns the call's route: the approved call's outcome (run once: resuming twice
        replays it), `declined`, or `held` again while nobody has decided. Without a call
        it is rebuilt from the approval (tool, call id, arguments); pass the call when the
        stored arguments were redacted. Without `context` the gate's context is used with
        the approval's principal, tenant and run. The policy is consulted again, so a rule
        added since the call was held still applies. `batch_id` records the call in the
        batch it was proposed in.
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
        request = Request(
            call=call,
            context=context or approval_context(approval, self.context),
            received_at=time.time(),
            request_id=request_id,
            approval=approval,
            batch_id=batch_id,
        )
        return await self._route(request)

    async def decide(
        self, approval_id: str, decision: ApprovalDecision, *, context: Context | None = None
    ) -> Approval:
        """Record a person's decision on a held call (it does not run the call: `resume`
        does). `Edit` arguments pass the same check as a proposal and get a new request
        hash; a grant allows the tool for the rest of the approval's run. `context`, when
        given, must be the one the call was held under."""
        io = self._require_io("decide")
        return await io.run(self.approvals.decide, approval_id, decision, context=context)

    @property
    def approvals(self) -> Approvals:
        """The approval queue of this gate's store, able to check edited arguments."""
        return Approvals(
            self._require_store("approvals"),
            self.catalog,
            limits=self.limits,
            redactor=self.redactor,
        )

    def prune_payloads(self, older_than: float | None = None) -> int:
        """Drop raw payloads older than the retention setting (or `older_than`, Unix time)."""
        store = self._require_store("prune_payloads")
        if older_than is None:
            if self.receipts.retention_seconds is None:
                return 0
            older_than = time.time() - self.receipts.retention_seconds
        return store.receipts.prune_payloads(older_than)

    # -- synchronous callers ----------------------------------------------------------------

    def call_sync(
        self, call: ToolCall, *, context: Context | None = None, request_id: str | None = None
    ) -> ToolResult:
        """`call` for synchronous callers (not from inside a running event loop)."""
        return self._sync.run(self.call(call, context=context, request_id=request_id))

    def run_batch_sync(
        self, calls: Sequence[ToolCall], *, context: Context | None = None
    ) -> list[ToolResult]:
        """`run_batch` for synchronous callers."""
        return self._blocking(self.run_batch(calls, context=context))

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

    def decide_sync(
        self, approval_id: str, decision: ApprovalDecision, *, context: Context | None = None
    ) -> Approval:
        """`decide` for synchronous callers."""
        return self.approvals.decide(approval_id, decision, context=context)

    # -- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the worker threads and processes, and close a store the gate opened."""
        self._sync.close()
        self._processes.close()
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._io is not None:
            self._io.close()
        if self._owns_store and self.store is not None:
            self.store.close()

    def __enter__(self) -> Gate:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> Gate:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    # -- internals --------------------------------------------------------------------------

    async def _route(self, request: Request) -> ToolResult:
        result = (await settled(self._chain(request))).result
        if self.redactor.in_results:
            result = self.redactor.result(result)
        return result

    async def _approval(self, approval_id: str) -> Approval:
        io = self._require_io("approvals")
        approval = await io.run(io.store.approvals.get, approval_id)
        if approval is None:
            raise UserError(f"no approval {approval_id!r}")
        return approval

    def _require_store(self, what: str) -> Store:
        if self.store is None:
            raise UserError(f"{what} needs a store: Gate(..., store='sqlite:///callgate.db')")
        return self.store

    def _require_io(self, what: str) -> AsyncStore:
        self._require_store(what)
        assert self._io is not None
        return self._io

    def _blocking(self, coro: Coroutine[Any, Any, T]) -> T:
        return self._sync.run(coro)


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


def _with_catalog_values(untrusted: UntrustedResults, catalog: Catalog) -> UntrustedResults:
    """`untrusted` with the catalog's own trusted values added (a toolset's given hosts)."""
    if not catalog.trusted_values:
        return untrusted
    values = (*untrusted.trusted_values, *catalog.trusted_values)
    return dataclasses.replace(untrusted, trusted_values=values)
