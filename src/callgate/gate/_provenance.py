"""provenance: where the values of an acting call came from, once untrusted content entered
its run.

The Rule of Two needs all three legs; an injection that only wants a link sent, a stranger
invited or money moved to its own account needs two (untrusted input and an action). What
such an injection must bring is a value — the host, the address, the account — and the
value has to come from somewhere. With `UntrustedResults(provenance="values")` an acting
call (irreversible, or a public sink by its tool's labels or the policy's) whose arguments
name a host, an e-mail address, an account, card or phone number (`_values.destinations`)
that no trusted source gave is held for a human, with rule `untrusted-value` and a reason
naming the untrusted result that showed the value. Trusted sources are the user's request
(`Context.attributes["request"]`), the host's `trusted_values` (the catalog's among
them), the calls a person approved, and the results of tools not labelled
`untrusted_output` — less what the call that returned them carried itself, so that a tool
echoing the model's arguments does not vouch for them.

A hold lists every foreign value its call carries, whole (`_outcome.shown_values`), in
its reason and in its approval (`Approval.foreign_values`): every surface that asks shows
that list before the arguments it may cut (the gateway shows 4,000 characters of them, the
page 20,000). A call carrying more than a person can be shown is denied, not held, with a
text that says to split it. An approved call goes ahead only if every foreign value it
carries was in its approval's list or written by the approver's edit (`seen_whole`), and
those values are then vouched for in the rest of the run, in every mode: what is vouched is
what was shown. Only holds on values are lifted by it: a hold of the action itself (the
Rule of Two, `untrusted-action`) is asked each time.

The test is "given by a trusted source", not "seen in an untrusted result": a value the
model rebuilt from a spelling the extractor does not read (`fred9246 (at) gmail (dot) com`)
is held too.

Two stricter modes do not depend on the labels being right. `"request"` checks every
acting call, untrusted content in the run or not, and only the request, the host and a
person's approvals vouch: a tool labelled trusted that returns an attacker's text (a channel
name anyone can choose) vouches for nothing. `"strict"` adds a hold of every acting call
after untrusted input (rule `untrusted-action`), values or not: the price of an injection
that needs no value at all ("put an event called ... in my calendar").

The values each result brings are kept among the run's labels in the store (rows
`value:trusted:…` and `value:untrusted:…`, first source wins), so every process serving the
run and every resume judges alike. A value that could not be recorded as trusted is simply
not trusted (fail closed); labels that cannot be read deny the acting call.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from callgate.contract import Route
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Handler, Outcome, settled
from callgate.gate._authorize import labels_unreadable
from callgate.gate._decision import Decision
from callgate.gate._log import GateLog
from callgate.gate._redact import Redactor
from callgate.gate._rule_of_two import RULE_OF_TWO, action_words, acts
from callgate.gate._untrusted import SUSPECTED_INJECTION, UNTRUSTED, UntrustedResults, tool_text
from callgate.gate._values import destinations
from callgate.store import Approval, AsyncStore, StoreError

__all__ = [
    "REQUEST_ATTRIBUTE",
    "RUN_HOLDS",
    "UNTRUSTED_ACTION",
    "UNTRUSTED_VALUE",
    "Provenance",
    "carried",
    "seen_whole",
]

UNTRUSTED_VALUE = "untrusted-value"
"""The rule id of an acting call held for a value no trusted source gave."""
UNTRUSTED_ACTION = "untrusted-action"
"""The rule id of an acting call held, in strict provenance, after untrusted input."""
REQUEST_ATTRIBUTE = "request"
"""The context attribute holding the user's request (a text, or a list of texts)."""

RUN_HOLDS = frozenset({RULE_OF_TWO, SUSPECTED_INJECTION, UNTRUSTED_VALUE, UNTRUSTED_ACTION})
"""Holds that judge the run, not the call: a run grant does not lift them."""
_TRUSTED_ROW = "value:trusted:"
_UNTRUSTED_ROW = "value:untrusted:"
_VOUCHED_ROW = "value:approved:"
_NOT_APPROVED = frozenset({Route.HELD, Route.DECLINED, Route.DENIED, Route.INVALID})
_MAX_ROWS = 256
"""Values recorded per result: more trusted ones stay untrusted; more untrusted ones are
still held, named by the run's first untrusted source instead of their own."""
_TRUSTED_SOURCES = (
    "the user's request, the host's configuration, a person's approval nor a trusted tool's result"
)
_REQUEST_ONLY = "the user's request, the host's configuration nor a person's approval"
_MAX_INT_BITS = 128


class Provenance:
    """Holds acting calls that carry values no trusted source gave; records the values each
    result brings into its run."""

    def __init__(
        self,
        next: Handler,
        *,
        settings: UntrustedResults,
        store: AsyncStore,
        log: GateLog,
        redactor: Redactor,
    ) -> None:
        self.next = next
        self.redactor = redactor
        self.mode = settings.provenance
        self.given, self.subdomains = _given(settings.trusted_values)
        self.store = store
        self.log = log

    async def __call__(self, attempt: Attempt) -> Outcome:
        run_id, decision = attempt.context.run_id, attempt.decision
        if decision is None:
            return await settled(self.next(attempt))
        if decision.values:
            decision = self._carried_only(decision, attempt)
            if decision.action == "deny":
                denied = _outcome.denied(
                    attempt.call, attempt.tool.name, decision.reason, rule_id=decision.rule_id
                )
                return Outcome(result=denied, attempt=attempt)
            attempt = dataclasses.replace(attempt, decision=decision)
        if decision.action != "deny" and acts(attempt.tool, decision.labels):
            try:
                judged = await self._judge(attempt, run_id, decision)
            except StoreError as exc:
                return labels_unreadable(attempt, exc, self.log)
            if judged is not None and judged.action == "deny":
                denied = _outcome.denied(
                    attempt.call, attempt.tool.name, judged.reason, rule_id=judged.rule_id
                )
                return Outcome(result=denied, attempt=attempt)
            if judged is not None:
                attempt = dataclasses.replace(attempt, decision=judged)
        outcome = await settled(self.next(attempt))
        if run_id is not None:
            await self._remember(attempt, outcome, run_id)
            await self._vouch(outcome, run_id)
        return outcome

    async def _judge(
        self, attempt: Attempt, run_id: str | None, decision: Decision
    ) -> Decision | None:
        """The hold of this acting call, if any, carrying the values it shows whole; or its
        denial, when they cannot all be shown. Without a run there are no labels: the
        request and the host's values alone vouch, as in `"request"`."""
        context = attempt.context
        untrusted_principal = context.attributes.get("trusted") is False
        if run_id is None and self.mode == "values" and not untrusted_principal:
            return None
        seen = {} if run_id is None else await self.store.run(self.store.store.labels.of, run_id)
        source = seen.get(UNTRUSTED)
        if source is None and untrusted_principal:
            source = f"the untrusted principal {context.principal}"
        if source is None and self.mode == "values":
            return None
        tool, acting = attempt.tool.name, action_words(attempt.tool)
        trusted = self._trusted(seen, context.attributes)
        foreign = sorted(v for v in carried(attempt.arguments) - trusted if not self._under(v))
        shown = self._showable(foreign, attempt)
        if isinstance(shown, str):
            return Decision.deny(shown, rule_id=UNTRUSTED_VALUE)
        if shown:
            where = _where(shown[0], seen, source)
            sources = _TRUSTED_SOURCES if self.mode == "values" else _REQUEST_ONLY
            why = _outcome.untrusted_value(tool, acting, shown, sources, where)
            rule_id = UNTRUSTED_VALUE
        elif self.mode == "strict" and source is not None:
            why, rule_id = _outcome.untrusted_action(tool, acting, source), UNTRUSTED_ACTION
        else:
            return None
        if decision.action != "ask":
            return Decision(
                action="ask", rule_id=rule_id, reason=why, labels=decision.labels, values=shown
            )
        if decision.rule_id in RUN_HOLDS:  # the run's own hold keeps its rule, and adds this
            reason = f"{decision.reason}; also {rule_id}: {why}"
            return dataclasses.replace(decision, reason=reason, values=shown)
        return Decision(
            action="ask",
            rule_id=rule_id,
            reason=f"{why}; also {decision.rule_id}: {decision.reason}",
            labels=decision.labels,
            values=shown,
        )

    def _carried_only(self, decision: Decision, attempt: Attempt) -> Decision:
        """A hold's values (a policy hook may name some) limited to those the call carries,
        since approving vouches for them; denied when they cannot all be shown."""
        values = sorted(set(decision.values) & carried(attempt.arguments))
        shown = self._showable(values, attempt)
        if isinstance(shown, str):
            return Decision.deny(shown, rule_id=decision.rule_id)
        return dataclasses.replace(decision, values=shown)

    def _showable(self, values: list[str], attempt: Attempt) -> tuple[str, ...] | str:
        """`values` as a hold shows them, or why they cannot all be shown to a person:
        too many, one too long, or one the host redacts (hidden from people as secret)."""
        tool, acting = attempt.tool.name, action_words(attempt.tool)
        shown = _outcome.shown_values(values)
        if shown is None:
            return _outcome.too_many_values(tool, acting, values)
        hidden = len(set(shown) - carried(self.redactor.value(dict(attempt.arguments))))
        if hidden:
            return _outcome.redacted_values(tool, acting, hidden)
        return shown

    def _trusted(self, seen: Mapping[str, str], attributes: Mapping[str, Any]) -> set[str]:
        trusted = set(self.given)
        trusted.update(k.removeprefix(_VOUCHED_ROW) for k in seen if k.startswith(_VOUCHED_ROW))
        if self.mode == "values":
            trusted.update(k.removeprefix(_TRUSTED_ROW) for k in seen if k.startswith(_TRUSTED_ROW))
        if attributes.get("trusted") is not False:  # an untrusted principal's words are not
            trusted |= carried(attributes.get(REQUEST_ATTRIBUTE, ""))
        return trusted

    async def _vouch(self, outcome: Outcome, run_id: str) -> None:
        """Records as vouched for in the rest of the run the values of a call a person
        approved that the person saw whole (`seen_whole`). A run grant used for a later call
        vouches nothing: nobody saw that call."""
        ran = outcome.attempt
        if ran is None or ran.approval_id is None or outcome.result.route in _NOT_APPROVED:
            return
        try:
            approval = await self.store.run(self.store.store.approvals.get, ran.approval_id)
            if approval is None or approval.state != "used":
                return
            if ran.request_hash not in (approval.request_hash, approval.edited_request_hash):
                return
            source = f"{approval.decided_by or 'a person'} (approval {approval.id})"
            values = sorted(seen_whole(approval))[:_MAX_ROWS]
            rows = {_VOUCHED_ROW + value: source for value in values}
            if rows:
                await self.store.run(self.store.store.labels.add, run_id, rows)
        except StoreError as exc:  # not recorded: the values stay what they were
            self.log.error(
                "values approved in %s (run %s) not recorded: %s", ran.approval_id, run_id, exc
            )

    def _under(self, value: str) -> bool:
        """`value` is a host below one the host gave as `*.name`."""
        host = value.removeprefix("host:")
        return host != value and any(host.endswith(suffix) for suffix in self.subdomains)

    async def _remember(self, attempt: Attempt, outcome: Outcome, run_id: str) -> None:
        result = outcome.result
        if not tool_text(result) or not result.content:
            return
        values = destinations(result.content)
        if UNTRUSTED in attempt.tool.labels:
            prefix = _UNTRUSTED_ROW
        else:  # what the call carried in is not the tool's to vouch for
            prefix, values = _TRUSTED_ROW, values - carried(attempt.arguments)
        if not values:
            return
        source = f"{attempt.tool.name} (call {attempt.call.id})"
        rows = {prefix + value: source for value in sorted(values)[:_MAX_ROWS]}
        try:
            await self.store.run(self.store.store.labels.add, run_id, rows)
        except StoreError as exc:
            self.log.error("values of %s (run %s) not recorded: %s", source, run_id, exc)


def seen_whole(approval: Approval) -> set[str]:
    """The values of `approval`'s call its approver saw whole or wrote: those its hold
    showed (`Approval.foreign_values`, what every surface that asks lists whole), and those
    an edit brought in that the held call did not carry. Approving vouches for these, and
    an approved call goes ahead only if it carries no other foreign value."""
    shown = set(approval.foreign_values)
    if approval.edited_arguments is None:
        return shown
    edited = carried(approval.edited_arguments)
    return (shown & edited) | (edited - carried(approval.arguments))


def _given(texts: Iterable[str]) -> tuple[frozenset[str], tuple[str, ...]]:
    """The values of the host's texts, and the `.name` suffixes its `*.name` texts give
    (every subdomain of name, as the coding toolset's `hosts` reads them)."""
    given: set[str] = set()
    suffixes: list[str] = []
    for text in texts:
        found = destinations(text)
        hosts = [v.removeprefix("host:") for v in found if v.startswith("host:")]
        if text.strip().startswith("*.") and len(found) == len(hosts) == 1:
            suffixes.append("." + hosts[0])  # the name itself is not given, as for fetch_url
        else:
            given |= found
    return frozenset(given), tuple(suffixes)


def _where(value: str, seen: Mapping[str, str], source: str | None) -> str:
    """Where `value` came into the run, as far as the run's records tell."""
    shown = seen.get(_UNTRUSTED_ROW + value)
    if shown is not None:
        return f"{value} was shown by {shown}"
    given = seen.get(_TRUSTED_ROW + value)
    if given is not None:
        return f"{value} came from the result of {given}"
    if source is not None:
        return f"the run has taken in untrusted content (from {source})"
    return "no result of this run showed it"


def carried(value: Any) -> set[str]:
    """The destinations named anywhere in an argument value: its strings, mapping keys,
    integers and integral floats (an account number sent as a number), at any depth."""
    return destinations("\n".join(_texts(value)))


def _texts(value: Any) -> Iterator[str]:
    """The texts in `value`, depth first, without recursion (no nesting is too deep)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, float) and item.is_integer() and abs(item) < 2.0**_MAX_INT_BITS:
            yield str(int(item))  # the validator takes 55779911234.0 for an integer
        elif isinstance(item, int):
            if item.bit_length() <= _MAX_INT_BITS:  # longer is no account number (nor printable)
                yield str(item)
        elif isinstance(item, Mapping):
            for key, inner in reversed(list(item.items())):
                stack += [inner, key]
        elif isinstance(item, list | tuple):
            stack.extend(reversed(item))
