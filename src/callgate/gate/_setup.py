"""Which steps a gate runs, chosen once from its configuration (DESIGN.md, the path of one
call): record -> fail closed -> authorize -> approve -> dedupe -> retry -> verify -> execute.
"""

from __future__ import annotations

from dataclasses import dataclass

from callgate.gate._approve import Approve
from callgate.gate._attempt import Step
from callgate.gate._authorize import Authorize
from callgate.gate._dedupe import Dedupe
from callgate.gate._policy import Policy
from callgate.gate._record import FailClosed, ReceiptSettings, Record
from callgate.gate._redact import Redactor
from callgate.gate._retry import Retry, RetrySettings
from callgate.gate._store_io import StoreIO
from callgate.gate._taint import TaintTracker
from callgate.gate._verify import Verify
from callgate.store import Store

__all__ = ["GateSteps", "build_steps"]


@dataclass(frozen=True, kw_only=True, slots=True)
class GateSteps:
    steps: tuple[Step, ...]
    """Every step, outermost first."""
    inner: tuple[Step, ...]
    """The steps after `retry` (what one retry runs again)."""
    retry: Retry
    record: Record | None
    receipts: ReceiptSettings
    lean: bool
    """No policy and no store: valid calls go straight to execution."""


def build_steps(
    *,
    store: Store | None,
    policy: Policy | None,
    taint: TaintTracker,
    redactor: Redactor,
    receipts: ReceiptSettings | None,
    retry: RetrySettings,
    approval_ttl: float,
    lease_margin: float,
    default_timeout: float,
) -> GateSteps:
    settings = receipts or ReceiptSettings()
    retry_step = Retry(retry)
    inner: tuple[Step, ...] = (Verify(),)
    outer: list[Step] = []
    record = None
    if store is not None:
        io = StoreIO(store)
        policy = policy or Policy()  # a durable gate is never "allow everything"
        record = Record(io, settings, redactor, policy.version)
        outer += [
            record,
            FailClosed(io),
            Authorize(policy, taint),
            Approve(io, ttl=approval_ttl, redactor=redactor),
            Dedupe(
                io, redactor=redactor, lease_margin=lease_margin, default_timeout=default_timeout
            ),
        ]
    return GateSteps(
        steps=(*outer, retry_step, *inner),
        inner=inner,
        retry=retry_step,
        record=record,
        receipts=settings,
        lean=store is None and policy is None,
    )
