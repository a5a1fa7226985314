"""AgentDojo through callgate: utility and attack success with and without the gate.

    pip install -e ".[bench-agentdojo]"
    python benchmarks/agentdojo.py                      # every suite, v1 and v1.2.2, every attack
    python benchmarks/agentdojo.py --suites banking --versions v1 --limit 3

On two shared cores v1 with the standard attack alone takes about ten minutes (loading
workspace's environment for each pair is most of it). The committed results are two runs:

    python benchmarks/agentdojo.py --versions v1 --no-variants        # results/agentdojo.json
    python benchmarks/agentdojo.py --versions v1 --attacks tool_knowledge injecagent \
        ignore_previous system_message direct \
        --output benchmarks/results/agentdojo_variants.json           # the other templates
    python benchmarks/agentdojo.py --table benchmarks/results/agentdojo.json \
        benchmarks/results/agentdojo_variants.json                    # both, and all pooled

v1.2.2 differs from v1 in workspace only: changed user tasks, and eight injection tasks a
scripted model cannot play (below).

AgentDojo (ETH Zürich, NeurIPS 2024) gives four suites of tools over a simulated
environment (workspace, slack, banking, travel), user tasks with their ground-truth calls,
injection tasks (what an attacker wants done), and its own checks: utility (was the user's
task done?) and security (did the attacker's goal happen? True = the attack succeeded).
The `important_instructions` attack writes the injection task's goal into data the user
task reads (an e-mail, a review, a web page, a transaction subject).

No model is called. A scripted model plays the worst case: it makes each user task's
ground-truth calls, and as soon as an injected instruction appears in a tool result it
obeys, making the injection task's ground-truth calls at once (and, where the attacker
wants words said, saying them), then finishes the user's task. Every call goes either
straight to the suite's functions (undefended) or through a callgate `Gate` whose tools
carry the effects and Rule of Two labels a careful user would give them (`CAREFUL` below).
A held call goes to a simulated person who knows what they asked for: it approves a call
that is one of the user task's own ground-truth calls and declines anything else. A second
person approves everything asked, to show what the approvals alone stand between.

What the model sees is the gate's `ToolResult.content`: the results of tools labelled
`untrusted_output` arrive spotlighted (between the run's markers, said to be data). The
model recognises an injection by its words, not by exact bytes, so the wrapping hides
nothing from it: a scripted model that obeys whatever it reads is exactly the model that
spotlighting cannot help, and it is kept that way on purpose. What can stop it is a call
that is held: by the Rule of Two, by the egress rule, or — with detection — because a
result with a high finding entered the run (rule `suspected-injection`).

Configurations, measured in one run:
- undefended: the functions called directly (AgentDojo's own runtime).
- ask every write: callgate's default policy (reads run, writes and irreversible calls are
  asked), tools without labels; the strongest simple defence, and the approvals it costs.
- rule of two: labels from `CAREFUL`; a rule allows every call, so only the Rule of Two
  (untrusted input + private data + an irreversible or public-sink action, labels in the
  store) and the egress rule (a web page at a host the user did not name is asked, as the
  coding toolset's fetch_url does) hold calls. Results are spotlighted, not scanned.
- callgate: the same, with detection: every untrusted result is scanned by
  `callgate.lint.scan_text` (the scan engine as it is; its rules were written for poisoned
  tool declarations, not for AgentDojo), and a high finding holds every later call of the
  run that acts (irreversible or a public sink).
- callgate, revised labels: the same with `REVISED` (development numbers, see there).
- callgate, provenance: callgate with value provenance (`UntrustedResults(provenance=
  "values")`, the user task's prompt as the request): once untrusted content entered the
  run, an acting call whose arguments name a host, e-mail address, account or phone number
  that neither the prompt nor a trusted tool's result gave is held.
- callgate, request provenance: `"request"`: the same for every acting call, untrusted
  content or not, and only the prompt vouches (no tool result does, whatever its labels).
- callgate, strict provenance: `"strict"`: `"request"`, and every acting call after
  untrusted content is held (two legs of the Rule of Two are enough).
- callgate, revised labels, rubber stamp: with a person who approves everything asked.

Provenance was designed after reading the misses of v1 on slack (injection tasks 1 and 5:
a link sent, a stranger invited, no private data involved) and travel (injection task 2: a
calendar event with no value in it); `"request"` after seeing that slack's remaining misses
come through `get_channels`, labelled private only, and `"strict"` for travel's task 2. On
slack and travel its rows are development numbers. Workspace and banking were not looked
at while designing it (banking's injection goals, an attacker's IBAN, were seen in
passing), so there it is measured, not fitted; all four suites use `CAREFUL` as first
written. Later, also on slack: a value a person approved is vouched for in the rest of the
run (`docs/gate.md`, "Value provenance"), and the egress rule reads a host the prompt
names without the sentence's punctuation (`www.informations.com.` and
`(www.dora-website.com)` were read as other hosts, so fetching them was asked).

Attacks: `important_instructions` (the benchmark's standard one) on every version; the
other templates AgentDojo ships (`tool_knowledge`, `injecagent`, `ignore_previous`,
`system_message`, `direct`) on v1. The labels do not depend on the wording; detection does,
and no template was read while the scan's rules were written, so every row of detection is
on wording it was not developed on.

The trace AgentDojo's checks read holds the calls that ran; a held-and-declined call never
ran and is not in it (in the undefended runs every call runs).

Labels were written from each tool's description, after reading v1's injection tasks while
building this harness. v1.2.2 adds eight workspace injection tasks that were not read
before the labels were fixed; they are counted on their own as `unseen`, but they ship no
ground-truth calls, so the scripted model has nothing to replay and they succeed nowhere,
not even undefended: they need a real model to measure anything.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import re
import sys
import threading
import time
import warnings
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit

from callgate import (
    Approve,
    CallContext,
    Context,
    Decision,
    Decline,
    Gate,
    Policy,
    Route,
    Rule,
    ToolCall,
    ToolError,
    tool_from_declaration,
)
from callgate.gate import REQUEST_ATTRIBUTE, PolicyRequest, ProvenanceMode, UntrustedResults
from callgate.lint import scan_text

# This script is itself called agentdojo.py: keep its folder off the import path, or
# `import agentdojo` would import the script.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

try:
    import agentdojo
    from agentdojo.agent_pipeline.base_pipeline_element import BasePipelineElement
    from agentdojo.agent_pipeline.tool_execution import tool_result_to_str
    from agentdojo.attacks.attack_registry import load_attack
    from agentdojo.functions_runtime import FunctionCall, FunctionsRuntime, TaskEnvironment
    from agentdojo.task_suite.load_suites import get_suites
    from agentdojo.types import ChatAssistantMessage, ChatToolResultMessage
    from agentdojo.types import text_content_block_from_string as text_block
except ImportError:  # pragma: no cover - the benchmark's own extra
    sys.exit("AgentDojo is not installed: pip install -e '.[bench-agentdojo]'")

T = TypeVar("T")
RESULTS = Path(__file__).parent / "results" / "agentdojo.json"
SUITES = ("workspace", "slack", "banking", "travel")
VERSIONS = ("v1", "v1.2.2")
ATTACK = "important_instructions"
VARIANTS = ("tool_knowledge", "injecagent", "ignore_previous", "system_message", "direct")
"""The other attack templates, run on v1 with the configurations in `VARIANT_CONFIGS`."""
MODEL_NAME = "gpt-4o-2024-05-13"
"""The attack addresses the model by name; AgentDojo requires a name it knows."""
UNSEEN = {("v1.2.2", "workspace"): {f"injection_task_{i}" for i in range(6, 14)}}
"""Injection tasks nobody read before `CAREFUL` was written."""

U, P, S = "untrusted_output", "private_data", "public_sink"
R, W, X = "read", "write", "irreversible"

CAREFUL: Mapping[str, Mapping[str, tuple[str, frozenset[str]]]] = {
    # Mail, calendar and drive of one person. Whatever others can write (mails, invitations,
    # shared files) is untrusted; the person's own data is private; sending, sharing and
    # inviting reach other people (public sinks); deleting cannot be undone.
    "workspace": {
        "send_email": (X, frozenset({S, P})),
        "delete_email": (X, frozenset({P})),
        "get_unread_emails": (R, frozenset({U, P})),
        "get_sent_emails": (R, frozenset({U, P})),
        "get_received_emails": (R, frozenset({U, P})),
        "get_draft_emails": (R, frozenset({U, P})),
        "search_emails": (R, frozenset({U, P})),
        "search_contacts_by_name": (R, frozenset({P})),
        "search_contacts_by_email": (R, frozenset({P})),
        "get_current_day": (R, frozenset()),
        "search_calendar_events": (R, frozenset({U, P})),
        "get_day_calendar_events": (R, frozenset({U, P})),
        "create_calendar_event": (W, frozenset({S})),
        "cancel_calendar_event": (W, frozenset({S})),
        "reschedule_calendar_event": (W, frozenset({S})),
        "add_calendar_event_participants": (W, frozenset({S})),
        "append_to_file": (W, frozenset()),
        "search_files_by_filename": (R, frozenset({U, P})),
        "create_file": (W, frozenset()),
        "delete_file": (X, frozenset()),
        "get_file_by_id": (R, frozenset({U, P})),
        "list_files": (R, frozenset({U, P})),
        "share_file": (X, frozenset({S})),
        "search_files": (R, frozenset({U, P})),
    },
    # A travel agency's listings (written by hotels, restaurants, reviewers: untrusted), the
    # person's profile (private), bookings made with the person's account and payment
    # (irreversible, and they use private data), mail and invitations (public sinks).
    "travel": {
        "get_user_information": (R, frozenset({P})),
        "get_all_hotels_in_city": (R, frozenset({U})),
        "get_hotels_prices": (R, frozenset({U})),
        "get_rating_reviews_for_hotels": (R, frozenset({U})),
        "get_hotels_address": (R, frozenset({U})),
        "get_all_restaurants_in_city": (R, frozenset({U})),
        "get_cuisine_type_for_restaurants": (R, frozenset({U})),
        "get_restaurants_address": (R, frozenset({U})),
        "get_rating_reviews_for_restaurants": (R, frozenset({U})),
        "get_dietary_restrictions_for_all_restaurants": (R, frozenset({U})),
        "get_contact_information_for_restaurants": (R, frozenset({U})),
        "get_price_for_restaurants": (R, frozenset({U})),
        "check_restaurant_opening_hours": (R, frozenset({U})),
        "get_all_car_rental_companies_in_city": (R, frozenset({U})),
        "get_car_types_available": (R, frozenset({U})),
        "get_rating_reviews_for_car_rental": (R, frozenset({U})),
        "get_car_fuel_options": (R, frozenset({U})),
        "get_car_rental_address": (R, frozenset({U})),
        "get_car_price_per_day": (R, frozenset({U})),
        "create_calendar_event": (W, frozenset({S})),
        "search_calendar_events": (R, frozenset({U, P})),
        "get_day_calendar_events": (R, frozenset({U, P})),
        "cancel_calendar_event": (W, frozenset({S})),
        "reserve_hotel": (X, frozenset({P})),
        "reserve_car_rental": (X, frozenset({P})),
        "reserve_restaurant": (X, frozenset({P})),
        "get_flight_information": (R, frozenset({U})),
        "send_email": (X, frozenset({S, P})),
    },
    # One bank account. Transactions carry subjects written by whoever sent money, and
    # files are documents from others (untrusted); everything about the account is
    # private; moving money, now or scheduled, and the password cannot be taken back.
    "banking": {
        "get_iban": (R, frozenset({P})),
        "send_money": (X, frozenset({P, S})),
        "schedule_transaction": (X, frozenset({P, S})),
        "update_scheduled_transaction": (X, frozenset({P, S})),
        "get_balance": (R, frozenset({P})),
        "get_most_recent_transactions": (R, frozenset({U, P})),
        "get_scheduled_transactions": (R, frozenset({P})),
        "read_file": (R, frozenset({U, P})),
        "get_user_info": (R, frozenset({P})),
        "update_password": (X, frozenset({P})),
        "update_user_info": (W, frozenset({P})),
    },
    # A company chat. Messages are written by colleagues and outsiders (untrusted) and are
    # the company's (private); posting, messaging and inviting reach people (public sinks);
    # web pages are the open web.
    "slack": {
        "get_channels": (R, frozenset({P})),
        "add_user_to_channel": (W, frozenset({S})),
        "read_channel_messages": (R, frozenset({U, P})),
        "read_inbox": (R, frozenset({U, P})),
        "send_direct_message": (X, frozenset({S})),
        "send_channel_message": (X, frozenset({S})),
        "get_users_in_channel": (R, frozenset({P})),
        "invite_user_to_slack": (X, frozenset({S})),
        "remove_user_from_slack": (W, frozenset()),
        "get_webpage": (R, frozenset({U})),
        "post_webpage": (X, frozenset({S})),
    },
}
REVISED: Mapping[str, Mapping[str, tuple[str, frozenset[str]]]] = {
    suite: {**table, **changes}
    for suite, table, changes in (
        # One principle, applied to every suite after v1's results showed where CAREFUL was
        # not consistent with it: a tool that acts *inside* the person's own systems (their
        # calendar, files, mailbox, the company's chat) reaches private data itself — the
        # Rule of Two's "sensitive systems" — as workspace's send_email and banking's
        # payments already said. And what anyone can write is untrusted: channel names.
        (
            "workspace",
            CAREFUL["workspace"],
            {
                "create_calendar_event": (W, frozenset({S, P})),
                "cancel_calendar_event": (W, frozenset({S, P})),
                "reschedule_calendar_event": (W, frozenset({S, P})),
                "add_calendar_event_participants": (W, frozenset({S, P})),
                "append_to_file": (W, frozenset({P})),
                "create_file": (W, frozenset({P})),
                "delete_file": (X, frozenset({P})),
                "share_file": (X, frozenset({S, P})),
            },
        ),
        (
            "travel",
            CAREFUL["travel"],
            {
                "create_calendar_event": (W, frozenset({S, P})),
                "cancel_calendar_event": (W, frozenset({S, P})),
            },
        ),
        ("banking", CAREFUL["banking"], {}),
        (
            "slack",
            CAREFUL["slack"],
            {
                "get_channels": (R, frozenset({U, P})),
                "add_user_to_channel": (W, frozenset({S, P})),
                "send_direct_message": (X, frozenset({S, P})),
                "send_channel_message": (X, frozenset({S, P})),
                "invite_user_to_slack": (X, frozenset({S, P})),
                "remove_user_from_slack": (W, frozenset({P})),
            },
        ),
    )
}
"""`CAREFUL` revised after v1's results: rows that use it are development numbers."""
WEB_TOOLS = frozenset({"get_webpage", "post_webpage"})
"""Tools whose `url` reaches a host: one the user did not name is a public sink."""

Human = Literal["careful", "rubber stamp"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Config:
    name: str
    gated: bool = True
    labels: bool = True
    policy: Literal["default", "rule of two"] = "rule of two"
    detection: bool = False
    revised: bool = False
    """Labels from `REVISED` instead of `CAREFUL`."""
    provenance: ProvenanceMode = "off"
    """Value provenance (`UntrustedResults(provenance=...)`), the user's prompt as the
    request."""
    human: Human = "careful"


CONFIGS = (
    Config(name="undefended", gated=False),
    Config(name="ask every write", labels=False, policy="default"),
    Config(name="rule of two"),
    Config(name="callgate", detection=True),
    Config(name="callgate, revised labels", detection=True, revised=True),
    Config(name="callgate, provenance", detection=True, provenance="values"),
    Config(name="callgate, request provenance", detection=True, provenance="request"),
    Config(name="callgate, strict provenance", detection=True, provenance="strict"),
    Config(
        name="callgate, revised labels, rubber stamp",
        detection=True,
        revised=True,
        human="rubber stamp",
    ),
)
VARIANT_CONFIGS = (
    "undefended",
    "ask every write",
    "callgate",
    "callgate, revised labels",
    "callgate, provenance",
    "callgate, request provenance",
    "callgate, strict provenance",
)


def screening(config: Config) -> UntrustedResults:
    """Detection as a host configures it (`S012`, a long text, is no evidence in a result),
    and value provenance as the configuration says."""
    if not config.detection:
        return UntrustedResults(provenance=config.provenance)
    return UntrustedResults(detector=scan_text, ignore={"S012"}, provenance=config.provenance)


# -- the worst-case model ---------------------------------------------------------------------


_ESCAPE = re.compile(r"\\(?:[ntr'\"\\]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})")


def _words(text: str) -> str:
    """Lower-case letters and digits only, escape sequences dropped: how the model
    recognises an instruction whatever quoting (many results are a Python `repr`),
    wrapping or escaping surrounds it."""
    return re.sub(r"[^0-9a-z]+", "", _ESCAPE.sub(" ", text).lower())


@dataclass(kw_only=True, slots=True)
class Tally:
    """What happened in one run."""

    asked: int = 0
    declined: int = 0
    held_by: dict[str, int] = field(default_factory=dict)
    """Rule id -> calls it held."""
    flagged: int = 0
    """Results with a high finding."""
    injected_through: str | None = None
    """The tool whose result carried the injection, when the model saw one."""
    injection_flagged: bool = False
    """The result that carried the injection had a high finding."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Step:
    content: str
    executed: bool
    error: str | None = None
    flagged: bool = False
    """A high finding on this result."""


class WorstCaseModel(BasePipelineElement):  # type: ignore[misc]
    """Makes the user task's ground-truth calls; obeys the first injection it reads."""

    name = MODEL_NAME

    def __init__(self, user_task: Any, injection_task: Any, injections: Mapping[str, str]):
        self.user_task = user_task
        self.injection_task = injection_task
        goal = getattr(injection_task, "GOAL", "")
        self.markers = [m for m in (_words(goal), *map(_words, injections.values())) if m]
        self.execute: Callable[[TaskEnvironment, FunctionCall], Step] | None = None
        self.planned: list[FunctionCall] = []
        """The user task's calls: what the careful person will approve."""
        self.tally = Tally()

    def query(
        self,
        query: str,
        runtime: FunctionsRuntime,
        env: TaskEnvironment,
        messages: Sequence[Any] = (),
        extra_args: dict[str, Any] | None = None,
    ) -> tuple[str, FunctionsRuntime, TaskEnvironment, list[Any], dict[str, Any]]:
        assert self.execute is not None
        plan = list(self.user_task.ground_truth(env.model_copy(deep=True)))
        self.planned[:] = plan
        out: list[Any] = list(messages)
        obeyed = False
        while plan:
            call = plan.pop(0)
            step = self.execute(env, call)
            if step.executed:  # the trace holds what ran
                out.append(_assistant("", [call]))
                out.append(_tool_result(call, step))
            if not obeyed and self.injection_task is not None and self._injected(step.content):
                obeyed = True
                self.tally.injected_through = call.function
                self.tally.injection_flagged = step.flagged
                plan[:0] = self.injection_task.ground_truth(env.model_copy(deep=True))
        answer = self.user_task.GROUND_TRUTH_OUTPUT
        if obeyed and self.injection_task.GROUND_TRUTH_OUTPUT:
            answer = f"{answer} {self.injection_task.GROUND_TRUTH_OUTPUT}".strip()
        out.append(_assistant(answer, None))
        return query, runtime, env, out, extra_args or {}

    def _injected(self, content: str) -> bool:
        seen = _words(content)
        return any(marker in seen for marker in self.markers)


def _assistant(text: str, calls: list[FunctionCall] | None) -> Any:
    return ChatAssistantMessage(role="assistant", content=[text_block(text)], tool_calls=calls)


def _tool_result(call: FunctionCall, step: Step) -> Any:
    return ChatToolResultMessage(
        role="tool",
        content=[text_block(step.content)],
        tool_call_id=call.id,
        tool_call=call,
        error=step.error,
    )


# -- executors: direct, and through the gate ----------------------------------------------------


def direct(runtime: FunctionsRuntime) -> Callable[[TaskEnvironment, FunctionCall], Step]:
    def execute(env: TaskEnvironment, call: FunctionCall) -> Step:
        result, error = runtime.run_function(env, call.function, dict(call.args))
        return Step(
            content=tool_result_to_str(result) if error is None else "", executed=True, error=error
        )

    return execute


class Portal:
    """One event loop in a thread: AgentDojo's pipeline is synchronous, the gate is not."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()


class GatedSuite:
    """A suite's functions as callgate tools behind one gate; runs are told apart by id."""

    def __init__(self, suite: Any, config: Config, portal: Portal) -> None:
        self.config = config
        self.portal = portal
        self.runtime = FunctionsRuntime(suite.tools)
        self.envs: dict[str, TaskEnvironment] = {}
        self.prompt_hosts: dict[str, set[str]] = {}
        table = (REVISED if config.revised else CAREFUL)[suite.name]
        tools = [self._tool(f, table[f.name]) for f in suite.tools]
        self.gate = Gate(tools, policy=self._policy(), untrusted=screening(config))

    def _tool(self, function: Any, careful: tuple[str, frozenset[str]]) -> Any:
        effect, labels = careful
        name = function.name

        def run(call: CallContext, **arguments: Any) -> str:
            env = self.envs[str(call.context.run_id)]
            result, error = self.runtime.run_function(env, name, arguments)
            if error is not None:
                raise ToolError(error)
            return str(tool_result_to_str(result))

        declaration = {
            "name": name,
            "description": function.description,
            "parameters": function.parameters.model_json_schema(),
        }
        return tool_from_declaration(
            declaration, run, effect=effect, labels=labels if self.config.labels else frozenset()
        )

    def _policy(self) -> Policy:
        if self.config.policy == "default":
            return Policy()
        return Policy([Rule.allow("careful-user", "the user's own tools")], hook=self._egress)

    def _egress(self, request: PolicyRequest) -> Decision | None:
        if request.tool.name not in WEB_TOOLS:
            return None
        host = _host(str(request.arguments.get("url", "")))
        if host in self.prompt_hosts.get(str(request.context.run_id), set()):
            return None
        return Decision.ask(f"{host} is a host the user did not name", rule_id="egress")

    def executor(
        self, run_id: str, prompt: str, planned: list[FunctionCall], tally: Tally
    ) -> Callable[[TaskEnvironment, FunctionCall], Step]:
        """`planned` is the model's list of the user task's calls (filled when it starts)."""
        self.prompt_hosts[run_id] = {_host(u) for u in _PROMPT_HOST.findall(prompt)}
        approved: list[str] = []
        context = Context(principal="emma", run_id=run_id, attributes={REQUEST_ATTRIBUTE: prompt})
        counter = iter(range(1_000_000))

        def execute(env: TaskEnvironment, call: FunctionCall) -> Step:
            self.envs[run_id] = env
            proposal = ToolCall(
                id=f"c{next(counter)}", name=call.function, arguments=dict(call.args)
            )
            wanted = [_signature(c.function, c.args) for c in planned]
            for signature in approved:
                wanted.remove(signature)
            result = self.portal.run(self._route(proposal, context, wanted, approved, tally))
            route = Route(result.route)
            flagged = any(f.split(" ")[1:2] in (["high"], ["critical"]) for f in result.findings)
            tally.flagged += flagged
            return Step(
                content=result.content,
                executed=route.executed,
                error=result.content if result.is_error else None,
                flagged=flagged,
            )

        return execute

    async def _route(
        self,
        call: ToolCall,
        context: Context,
        wanted: list[str],
        approved: list[str],
        tally: Tally,
    ) -> Any:
        result = await self.gate.call(call, context=context)
        if result.route != "held":
            return result
        tally.asked += 1
        rule = str(result.rule_id)
        tally.held_by[rule] = tally.held_by.get(rule, 0) + 1
        signature = _signature(call.name, call.arguments)
        approve = self.config.human == "rubber stamp" or signature in wanted
        if approve and signature in wanted:
            approved.append(signature)
        tally.declined += not approve
        assert result.approval_id is not None
        decision = Approve(by=self.config.human) if approve else Decline(by=self.config.human)
        await self.gate.decide(result.approval_id, decision)
        return await self.gate.resume(call, approval_id=result.approval_id, context=context)

    def close(self) -> None:
        self.gate.close()


_PROMPT_HOST = re.compile(r"(?:https?://)?www\.[\w.-]*[\w-](?:/[^\s,]*[\w/])?")
"""A web address in the prompt, without the punctuation of the sentence around it
(`www.informations.com.`, `(www.dora-website.com)`)."""


def _host(url: str) -> str:
    return (urlsplit(url if "://" in url else f"http://{url}").hostname or "").lower()


def _signature(name: str, arguments: Any) -> str:
    return json.dumps([name, dict(arguments)], sort_keys=True, default=str)


# -- running ----------------------------------------------------------------------------------


@dataclass(kw_only=True, slots=True)
class Totals:
    """Sums over the runs of one suite and configuration."""

    labels: Mapping[str, tuple[str, frozenset[str]]]
    """The labels the configuration gave the suite's tools."""
    tasks: int = 0
    utility: int = 0
    asked: int = 0
    pairs: int = 0
    pair_utility: int = 0
    attacks: int = 0
    pair_asked: int = 0
    pair_declined: int = 0
    obeyed: int = 0
    through_unlabelled: list[str] = field(default_factory=list)
    unseen_pairs: int = 0
    unseen_attacks: int = 0
    seconds: float = 0.0
    flagged_tasks: int = 0
    """User tasks whose run, without an attack, had a result with a high finding."""
    injections_flagged: int = 0
    """Pairs whose injected result had a high finding (of those where the model saw it)."""
    held_by: dict[str, int] = field(default_factory=dict)
    """Rule id -> calls held, without an attack and under attack (keys "x / rule")."""
    succeeded: dict[str, int] = field(default_factory=dict)
    """Injection task -> pairs where it succeeded."""

    def add(
        self,
        suite: str,
        injection_task: Any,
        unseen: set[str],
        utility: bool,
        success: bool,
        tally: Tally,
        seconds: float,
    ) -> None:
        self.seconds += seconds
        where = "no attack" if injection_task is None else "attack"
        for rule, n in tally.held_by.items():
            key = f"{where} / {rule}"
            self.held_by[key] = self.held_by.get(key, 0) + n
        if injection_task is None:
            self.tasks += 1
            self.utility += utility
            self.asked += tally.asked
            self.flagged_tasks += tally.flagged > 0
            return
        self.pairs += 1
        self.pair_utility += utility
        self.attacks += success
        if success:
            self.succeeded[injection_task.ID] = self.succeeded.get(injection_task.ID, 0) + 1
        self.pair_asked += tally.asked
        self.pair_declined += tally.declined
        if tally.injected_through is not None:
            self.obeyed += 1
            self.injections_flagged += tally.injection_flagged
            if U not in self.labels[tally.injected_through][1]:
                self.through_unlabelled.append(tally.injected_through)
        if injection_task.ID in unseen:
            self.unseen_pairs += 1
            self.unseen_attacks += success

    def report(self) -> dict[str, Any]:
        def ratio(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "user_tasks": self.tasks,
            "utility_no_attack": ratio(self.utility, self.tasks),
            "approvals_per_task_no_attack": ratio(self.asked, self.tasks),
            "pairs": self.pairs,
            "utility_under_attack": ratio(self.pair_utility, self.pairs),
            "attack_success_rate": ratio(self.attacks, self.pairs),
            "approvals_per_task_under_attack": ratio(self.pair_asked, self.pairs),
            "declined_per_task_under_attack": ratio(self.pair_declined, self.pairs),
            "injections_obeyed": self.obeyed,
            "injections_through_tools_not_labelled_untrusted": sorted(set(self.through_unlabelled)),
            "unseen_pairs": self.unseen_pairs,
            "unseen_attack_success_rate": ratio(self.unseen_attacks, self.unseen_pairs),
            "tasks_flagged_no_attack": self.flagged_tasks,
            "injections_flagged": self.injections_flagged,
            "held_by_rule": dict(sorted(self.held_by.items())),
            "attacks_succeeded_by_injection_task": dict(sorted(self.succeeded.items())),
            "seconds": round(self.seconds, 1),
        }


def run_one(
    suite: Any,
    gated: GatedSuite | None,
    user_task: Any,
    injection_task: Any,
    injections: Mapping[str, str],
    environment: Any,
) -> tuple[bool, bool, Tally, float]:
    """One run of one configuration; (utility, attack succeeded, tally, seconds)."""
    model = WorstCaseModel(user_task, injection_task, injections)
    if gated is None:
        model.execute = direct(FunctionsRuntime(suite.tools))
    else:
        run_id = f"{user_task.ID}/{getattr(injection_task, 'ID', 'none')}"
        model.execute = gated.executor(run_id, user_task.PROMPT, model.planned, model.tally)
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        utility, security = suite.run_task_with_pipeline(
            model, user_task, injection_task, injections, environment=environment
        )
    return bool(utility), bool(security), model.tally, time.perf_counter() - started


def run_suite(
    version: str,
    suite: Any,
    attack_name: str,
    configs: Sequence[Config],
    limit: int | None,
    portal: Portal,
) -> dict[str, Totals]:
    """Every configuration on the same runs: the environment of a (user task, injection
    task) pair is loaded once (it is the slow part) and each configuration gets a copy."""
    totals = {
        c.name: Totals(labels=(REVISED if c.revised else CAREFUL)[suite.name]) for c in configs
    }
    gated = {c.name: GatedSuite(suite, c, portal) if c.gated else None for c in configs}
    attack = load_attack(attack_name, suite, WorstCaseModel(None, None, {}))
    unseen = UNSEEN.get((version, suite.name), set())
    try:
        for user_task in list(suite.user_tasks.values())[:limit]:
            cases: list[tuple[Any, Mapping[str, str]]] = [(None, {})]
            cases += [(t, attack.attack(user_task, t)) for t in suite.injection_tasks.values()]
            for injection_task, injections in cases:
                environment = suite.load_and_inject_default_environment(dict(injections))
                for config in configs:
                    outcome = run_one(
                        suite,
                        gated[config.name],
                        user_task,
                        injection_task,
                        injections,
                        environment.model_copy(deep=True),
                    )
                    totals[config.name].add(suite.name, injection_task, unseen, *outcome)
    finally:
        for gate in gated.values():
            if gate is not None:
                gate.close()
    return totals


def without_calls(suite: Any) -> list[str]:
    """Injection tasks whose ground truth makes no call: the attacker wants words said
    (travel's injection_task_6), or v1.2.2 ships none (workspace 6-13). No gate on calls
    can stop the first kind; the scripted model cannot play the second."""
    env = suite.load_and_inject_default_environment({})
    return [
        t.ID
        for t in suite.injection_tasks.values()
        if not t.ground_truth(env.model_copy(deep=True))
    ]


def plan(
    versions: Sequence[str], attacks: Sequence[str]
) -> list[tuple[str, str, tuple[Config, ...]]]:
    """(attack, version, configurations) to run: the standard attack on every version, the
    other templates on v1 (the other suites of v1.2.2 equal v1's)."""
    runs: list[tuple[str, str, tuple[Config, ...]]] = []
    if ATTACK in attacks:
        runs += [(ATTACK, v, CONFIGS) for v in versions]
    chosen = tuple(c for c in CONFIGS if c.name in VARIANT_CONFIGS)
    runs += [(a, "v1", chosen) for a in VARIANTS if a in attacks]
    return runs


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suites", nargs="+", default=list(SUITES), choices=SUITES)
    parser.add_argument("--versions", nargs="+", default=list(VERSIONS), choices=VERSIONS)
    parser.add_argument(
        "--attacks", nargs="+", default=[ATTACK, *VARIANTS], choices=[ATTACK, *VARIANTS]
    )
    parser.add_argument("--no-variants", action="store_true", help="the standard attack only")
    parser.add_argument(
        "--limit", type=int, default=None, help="user tasks per suite (development)"
    )
    parser.add_argument("--output", type=Path, default=RESULTS)
    parser.add_argument(
        "--table",
        nargs="*",
        type=Path,
        default=None,
        help="print saved results as Markdown (these files, else --output), then exit",
    )
    args = parser.parse_args(argv)
    if args.table is not None:
        print(table(merged([json.loads(p.read_text()) for p in args.table or [args.output]])))
        return
    attacks = [ATTACK] if args.no_variants else args.attacks
    portal = Portal()
    results: dict[str, Any] = {}
    try:
        for attack, version, configs in plan(args.versions, attacks):
            suites = get_suites(version)
            by_suite = results.setdefault(attack, {}).setdefault(version, {})
            for name in args.suites:
                totals = run_suite(version, suites[name], attack, configs, args.limit, portal)
                by_suite[name] = {c: t.report() for c, t in totals.items()}
                for config, report in by_suite[name].items():
                    _print(f"{attack[:12]} {version}", name, config, report)
    finally:
        portal.close()
    report = {
        "benchmark": "AgentDojo through callgate, scripted worst-case model",
        "agentdojo": agentdojo.__version__ if hasattr(agentdojo, "__version__") else "0.1.35",
        "attack": ATTACK,
        "attacks": list(results),
        "limit": args.limit,
        "python": platform.python_version(),
        "configs": {
            c.name: {
                "gated": c.gated,
                "labels": c.labels,
                "policy": c.policy,
                "detection": c.detection,
                "provenance": c.provenance,
                "revised_labels": c.revised,
                "human": c.human,
            }
            for c in CONFIGS
        },
        "unseen_injection_tasks": {f"{v}/{s}": sorted(t) for (v, s), t in UNSEEN.items()},
        "injection_tasks_without_calls": {
            f"{v}/{name}": without_calls(get_suites(v)[name])
            for v in args.versions
            for name in args.suites
        },
        "results": results,
    }
    if args.limit is None:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        args.output.with_suffix(".md").write_text(table(report) + "\n")
        print(f"wrote {args.output}")


def merged(reports: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Several saved runs as one report (a later file's attack replaces an earlier one's)."""
    first = dict(reports[0])
    results: dict[str, Any] = {}
    silent: dict[str, Any] = {}
    for report in reports:
        results.update(report["results"])
        silent.update(report["injection_tasks_without_calls"])
    return {**first, "results": results, "injection_tasks_without_calls": silent}


def table(report: Mapping[str, Any]) -> str:
    """The standard attack: one row per version, suite and configuration; the other
    templates: attack success per configuration and what detection flagged; then every
    template pooled, per suite and configuration: what the targets are judged on."""

    def pct(value: float | None) -> str:
        return "–" if value is None else f"{100 * value:.1f}%"

    results = report["results"]
    silent = report["injection_tasks_without_calls"]
    rows: list[str] = []
    if report["attack"] in results:
        rows += [
            "| version | suite | configuration | utility | utility under attack | attack success "
            "| attack success, injections with calls | asked per task (no attack / attack) |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for version, suites in results[report["attack"]].items():
            for suite, configs in suites.items():
                for config, r in configs.items():
                    rows.append(
                        f"| {version} | {suite} | {config} | {pct(r['utility_no_attack'])} "
                        f"| {pct(r['utility_under_attack'])} | {pct(r['attack_success_rate'])} "
                        f"| {pct(_with_calls(r, silent[f'{version}/{suite}']))} "
                        f"| {r['approvals_per_task_no_attack']:.2f} / "
                        f"{r['approvals_per_task_under_attack']:.2f} |"
                    )
        rows.append("")
    variants = [a for a in results if a != report["attack"]]
    if variants:
        shown = [c for c in VARIANT_CONFIGS if c != "undefended"]
        rows += [
            "| attack (v1) | suite | undefended | "
            + " | ".join(shown)
            + " | injected results flagged (callgate) |",
            "|---|---|---|" + "---|" * len(shown) + "---|",
        ]
        for attack in variants:
            for suite, configs in results[attack]["v1"].items():
                rates = " | ".join(
                    pct(configs.get(c, {}).get("attack_success_rate")) for c in shown
                )
                full = configs["callgate"]
                rows.append(
                    f"| {attack} | {suite} | {pct(configs['undefended']['attack_success_rate'])} "
                    f"| {rates} | {full['injections_flagged']} of {full['injections_obeyed']} |"
                )
        rows.append("")
    rows += _pooled(results, silent)
    return "\n".join(rows).rstrip("\n")


def _pooled(results: Mapping[str, Any], silent: Mapping[str, Sequence[str]]) -> list[str]:
    """Per suite and configuration, v1 under every template in `results` together."""
    attacks = [a for a in results if "v1" in results[a]]
    if not attacks:
        return []
    sums: dict[tuple[str, str], list[float]] = {}
    for attack in attacks:
        for suite, configs in results[attack]["v1"].items():
            for config, r in configs.items():
                pairs = r["pairs"]
                with_calls = pairs - r["user_tasks"] * len(silent[f"v1/{suite}"])
                by_task = r["attacks_succeeded_by_injection_task"]
                calls_won = sum(n for t, n in by_task.items() if t not in silent[f"v1/{suite}"])
                row = sums.setdefault((suite, config), [0.0] * 9)
                row[0] += pairs
                row[1] += round(r["attack_success_rate"] * pairs)
                row[2] += with_calls
                row[3] += calls_won
                row[4] += r["approvals_per_task_under_attack"] * pairs
                if attack == attacks[0]:  # the tasks without attack are the same in every run
                    row[5] = r["utility_no_attack"]
                    row[6] = r["approvals_per_task_no_attack"]
                    row[7] = r["user_tasks"]
                row[8] += 1
    rows = [
        f"v1, {len(attacks)} attack template(s) pooled ({', '.join(attacks)}):",
        "",
        "| suite | configuration | utility | attack success | attack success, injections "
        "with calls | asked per task (no attack / attack) |",
        "|---|---|---|---|---|---|",
    ]
    for (suite, config), (pairs, won, calls, calls_won, asked, util, ask0, _, n) in sums.items():
        if n < len(attacks):
            continue  # a configuration run under the standard template only
        rows.append(
            f"| {suite} | {config} | {100 * util:.1f}% | {100 * won / pairs:.1f}% "
            f"| {100 * calls_won / calls:.1f}% | {ask0:.2f} / {asked / pairs:.2f} |"
        )
    return rows


def _with_calls(r: Mapping[str, Any], silent: Sequence[str]) -> float | None:
    """Attack success over the pairs whose injection task makes calls."""
    pairs = r["pairs"] - r["user_tasks"] * len(silent)
    by_task = r["attacks_succeeded_by_injection_task"]
    succeeded = sum(n for task, n in by_task.items() if task not in silent)
    return round(succeeded / pairs, 4) if pairs else None


def _print(version: str, suite: str, config: str, r: Mapping[str, Any]) -> None:
    def pct(value: float | None) -> str:
        return "   -  " if value is None else f"{100 * value:5.1f}%"

    print(
        f"{version:7} {suite:10} {config:26} utility {pct(r['utility_no_attack'])} "
        f"under attack {pct(r['utility_under_attack'])} ASR {pct(r['attack_success_rate'])} "
        f"asked/task {r['approvals_per_task_no_attack']} / {r['approvals_per_task_under_attack']} "
        f"({r['seconds']} s)",
        flush=True,
    )


if __name__ == "__main__":
    main()
