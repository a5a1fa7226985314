"""The chain of steps a gate runs, built once from its configuration (DESIGN.md, the path
of one call):

    record( prepare -> authorize -> approve -> dedupe -> untrusted( retry( verify( execute ) ) ) )

`record` wraps the whole chain: it is the first to see a call and the last to act, so it
writes the receipt of every route (`invalid` and `denied` included) once the rest is done.
`untrusted` sees what a tool returned once, below dedupe (a duplicate replays the result as
it was first shown) and above retry (a retried failure is screened only if it is the last).
A gate with no store and no policy is the same chain without record, authorize, approve and
dedupe; a gate that never retries (`RetrySettings(max_attempts=1)`) has no retry step. Value
provenance (`UntrustedResults(provenance=...)`) adds one step between authorize and approve.
A gate with telemetry wraps it all in one more step, outside record, so that its span sees
the route the caller gets (callgate.telemetry); without telemetry the chain is exactly the
one above. A step that finishes without suspending hands its outcome up as it is, not as an
awaitable (`_attempt.Step`): a call whose tool returns at once runs in no coroutine but
`Gate.call`'s.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from callgate._backoff import Clock
from callgate._errors import UserError
from callgate._threads import Threads
from callgate.contract import Catalog
from callgate.gate._approve import Approve
from callgate.gate._attempt import Handler, Outcome, Request, Step, settled
from callgate.gate._authorize import Authorize
from callgate.gate._dedupe import Dedupe
from callgate.gate._execute import Execute, ExecutionSettings
from callgate.gate._log import GateLog
from callgate.gate._policy import Policy
from callgate.gate._prepare import Prepare
from callgate.gate._process import ProcessRunner
from callgate.gate._provenance import Provenance
from callgate.gate._record import ReceiptSettings, Record
from callgate.gate._redact import Redactor
from callgate.gate._retry import Retry, RetrySettings
from callgate.gate._untrusted import Untrusted, UntrustedResults
from callgate.gate._verify import Verify
from callgate.schema import ArgumentLimits
from callgate.store import AsyncStore
from callgate.telemetry import Telemetry

__all__ = ["Awaited", "Chain", "Durable", "build_chain"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Durable:
    """What a gate with a store adds: the store, the policy and their settings."""

    store: AsyncStore
    policy: Policy
    receipts: ReceiptSettings
    approval_ttl: float
    lease_margin: float


Chain = Callable[[Request], Step]
"""The chain: a request in, its outcome (or, when the call suspended, an awaitable of it) out."""
Awaited = Callable[[Request], Awaitable[Outcome]]
"""The chain as a step outside it awaits it (telemetry): always an awaitable."""


def build_chain(
    *,
    catalog: Catalog,
    limits: ArgumentLimits,
    execution: ExecutionSettings,
    max_concurrency: int,
    retry: RetrySettings,
    redactor: Redactor,
    clock: Clock,
    threads: Threads,
    processes: ProcessRunner,
    log: GateLog,
    durable: Durable | None,
    untrusted: UntrustedResults,
    telemetry: Telemetry | None = None,
) -> Chain:
    if durable is None and untrusted.provenance != "off":  # never silently off
        raise UserError(
            f"provenance={untrusted.provenance!r} keeps the values of each run in a store: "
            "Gate(..., store='sqlite:///callgate.db')"
        )
    timeout = execution.default_timeout
    run: Handler = Execute(
        settings=execution,
        max_concurrency=max_concurrency,
        threads=threads,
        processes=processes,
        clock=clock,
        log=log,
    )
    run = Verify(run, log=log)
    if retry.max_attempts > 1:  # else it could only ever hand the first outcome up
        run = Retry(run, settings=retry, clock=clock, log=log)
    run = Untrusted(
        run,
        settings=untrusted,
        store=durable.store if durable is not None else None,
        threads=threads,
        log=log,
    )
    if durable is not None:
        store = durable.store
        run = Dedupe(
            run,
            store=store,
            clock=clock,
            lease_margin=durable.lease_margin,
            default_timeout=timeout,
            log=log,
        )
        run = Approve(run, store=store, ttl=durable.approval_ttl, redactor=redactor, limits=limits)
        if untrusted.provenance != "off":
            run = Provenance(run, settings=untrusted, store=store, log=log, redactor=redactor)
        run = Authorize(
            run,
            policy=durable.policy,
            store=store,
            log=log,
            hold_suspected=untrusted.hold and untrusted.detector is not None,
        )
    chain: Chain = Prepare(
        run,
        catalog=catalog,
        limits=limits,
        default_timeout=timeout,
        clock=clock,
        binds=durable is not None,
    )
    awaited: Awaited | None = None
    if durable is not None:
        chain = awaited = Record(
            chain,
            store=durable.store,
            settings=durable.receipts,
            redactor=redactor,
            policy_version=durable.policy.version,
            catalog=catalog,
            log=log,
        )
    if telemetry is not None:
        watched = durable.store.store if durable is not None else None
        awaited = awaited or _awaited(chain)
        chain = telemetry.traced(awaited, catalog=catalog, redactor=redactor, store=watched)
    return chain


def _awaited(chain: Chain) -> Awaited:
    """A chain whose first step may answer at once (prepare), as an awaitable."""

    def awaited(request: Request) -> Awaitable[Outcome]:
        return settled(chain(request))

    return awaited
