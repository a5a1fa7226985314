"""resolve -> parse -> validate: the first step, from a proposed call to an `Attempt`."""

from __future__ import annotations

import dataclasses

from callgate._backoff import Clock
from callgate._errors import UserError
from callgate.contract import Catalog, Effect, ToolResult
from callgate.gate import _outcome
from callgate.gate._arguments import Rejected, check_arguments
from callgate.gate._attempt import (
    Attempt,
    Handler,
    Outcome,
    Request,
    Step,
    derive_key,
    request_hash,
)
from callgate.gate._inject import MissingContext, context_values
from callgate.schema import ArgumentLimits

__all__ = ["Prepare"]


class Prepare:
    """Resolves the tool, checks the arguments and takes the server-side values from the
    context; a refused or invalid call stops here."""

    def __init__(
        self,
        next: Handler,
        *,
        catalog: Catalog,
        limits: ArgumentLimits,
        default_timeout: float,
        clock: Clock,
        binds: bool,
    ) -> None:
        self.next = next
        self.catalog = catalog
        self.limits = limits
        self.default_timeout = default_timeout
        self.clock = clock
        self.binds = binds
        """Compute the request hash: only a gate with a store binds anything to it."""

    def __call__(self, request: Request) -> Step:
        # Not a coroutine: a valid call gets what the rest of the chain hands back, so this
        # step adds no frame to the call's path, and a stopped call is answered at once.
        call = request.call
        if request.refusal is not None:
            return _stopped(_outcome.refused(call, request.refusal))
        entry = self.catalog.exact(call.name) or self.catalog.compiled(call.name)
        if entry is None:
            return _stopped(
                _outcome.unknown_tool(call, self.catalog.suggest(call.name), self.catalog.names)
            )
        arguments = check_arguments(entry, call.arguments, self.limits)
        if isinstance(arguments, Rejected):
            return _stopped(_outcome.rejected(call, entry, arguments))
        tool = entry.tool
        try:
            injected = context_values(tool, request.context) if tool.server_parameters else {}
        except MissingContext as exc:
            return _stopped(_outcome.denied(call, tool.name, str(exc), rule_id=None))
        key = None
        if tool.effect is not Effect.READ:
            key = derive_key(tool, call, request.context, request.request_id)
        attempt = Attempt(  # by position: the order of Attempt's fields
            request,
            entry,
            arguments,
            injected,
            request_hash(tool, tool.name, arguments, request.context) if self.binds else "",
            key,
            self.clock.monotonic() + (tool.timeout or self.default_timeout),
        )
        if request.approval is not None and attempt.request_hash not in (
            request.approval.request_hash,
            request.approval.edited_request_hash,
        ):
            raise UserError(
                f"approval {request.approval.id} was made for another request (tool, "
                "arguments, principal or run differ); pass the original call and context to "
                "resume() — stored arguments may have been redacted"
            )
        return self.next(attempt)


def _stopped(result: ToolResult) -> Outcome:
    return Outcome(result=result)


def with_arguments(attempt: Attempt, arguments: dict[str, object]) -> Attempt:
    """The attempt with other (already checked) arguments, and the request hash they get."""
    hashed = request_hash(attempt.tool, attempt.tool.name, arguments, attempt.context)
    return dataclasses.replace(attempt, arguments=arguments, request_hash=hashed)
