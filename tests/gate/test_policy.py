"""Policy: each matcher, deny wins, the defaults, argument predicates, the hook, TOML."""

from __future__ import annotations

from pathlib import Path

import pytest

from callgate import Catalog, Context, Effect, ToolAnnotations, ToolCall, UserError, tool
from callgate.contract import Route, Tool
from callgate.gate import Decision, Gate, Policy, PolicyRequest, Rule

ANN = Context(principal="ann", tenant="acme", roles=frozenset({"clerk"}), run_id="r1")


def _tools() -> list[Tool]:
    @tool(effect="read", namespace="crm")
    def lookup(customer: str) -> str:
        """Look a customer up."""
        return customer

    @tool(effect="write")
    def pay_invoice(invoice: str, amount: float) -> str:
        """Pay an invoice."""
        return f"paid {invoice}"

    @tool(effect="irreversible", annotations=ToolAnnotations(open_world=True))
    def send_email(to: str, body: str) -> str:
        """Send an e-mail."""
        return f"sent to {to}"

    return [lookup, pay_invoice, send_email]


def _request(
    name: str, arguments: dict[str, object] | None = None, context: Context = ANN
) -> PolicyRequest:
    catalog = Catalog(_tools())
    return PolicyRequest(tool=catalog.get(name), arguments=arguments or {}, context=context)


async def _decide(
    policy: Policy, name: str, arguments: dict[str, object] | None = None, context: Context = ANN
) -> Decision:
    return await policy.decide(_request(name, arguments, context))


@pytest.mark.parametrize(
    ("matcher", "hit", "miss"),
    [
        ({"tools": ["pay_invoice"]}, "pay_invoice", "send_email"),
        ({"tools": ["pay_*"]}, "pay_invoice", "crm_lookup"),
        ({"namespaces": ["crm"]}, "crm_lookup", "pay_invoice"),
        ({"effects": ["irreversible"]}, "send_email", "pay_invoice"),
        ({"annotations": {"open_world": True}}, "send_email", "pay_invoice"),
        ({"annotations": {"read_only": True}}, "crm_lookup", "send_email"),
    ],
)
async def test_each_tool_matcher(matcher: dict[str, object], hit: str, miss: str) -> None:
    policy = Policy([Rule.deny("r", "because", **matcher)])
    assert (await _decide(policy, hit)).action == "deny"
    assert (await _decide(policy, miss)).rule_id != "r"


async def test_principal_matchers() -> None:
    bob = Context(principal="bob", tenant="globex", roles=frozenset({"viewer"}))
    cases = [
        (Rule.deny("r", roles=["clerk"]), ANN, bob),
        (Rule.deny("r", lacks_roles=["clerk"]), bob, ANN),
        (Rule.deny("r", principals=["an*"]), ANN, bob),
        (Rule.deny("r", tenants=["globex"]), bob, ANN),
    ]
    for rule, hit, miss in cases:
        policy = Policy([rule])
        assert (await _decide(policy, "crm_lookup", context=hit)).action == "deny", rule
        assert (await _decide(policy, "crm_lookup", context=miss)).action == "allow", rule


async def test_argument_predicates_are_json_schema_fragments() -> None:
    policy = Policy(
        [
            Rule.deny(
                "big-payments",
                "above 1000 needs the finance desk",
                tools=["pay_invoice"],
                arguments={
                    "properties": {"amount": {"exclusiveMinimum": 1000}},
                    "required": ["amount"],
                },
            ),
            Rule.allow("small-payments", tools=["pay_invoice"]),
            Rule.allow(
                "mail-inside",
                tools=["send_email"],
                arguments={"properties": {"to": {"pattern": "@acme\\.com$"}}},
            ),
        ]
    )
    assert (await _decide(policy, "pay_invoice", {"invoice": "i", "amount": 5000})).rule_id == (
        "big-payments"
    )
    assert (await _decide(policy, "pay_invoice", {"invoice": "i", "amount": 999})).action == (
        "allow"
    )
    inside = await _decide(policy, "send_email", {"to": "bo@acme.com", "body": "hi"})
    outside = await _decide(policy, "send_email", {"to": "eve@evil.example", "body": "hi"})
    assert inside.rule_id == "mail-inside"
    assert (outside.action, outside.rule_id) == ("ask", "default:irreversible")


async def test_deny_wins_whatever_the_order() -> None:
    allow, deny, ask = (
        Rule.allow("a", tools=["pay_invoice"]),
        Rule.deny("d", "no payments", tools=["pay_*"]),
        Rule.ask("q", tools=["pay_invoice"]),
    )
    for rules in ([allow, deny, ask], [ask, allow, deny], [deny, allow]):
        assert (await _decide(Policy(rules), "pay_invoice")).rule_id == "d"
    assert (await _decide(Policy([allow, ask]), "pay_invoice")).rule_id == "q"


async def test_defaults_by_effect_and_deny_by_default() -> None:
    policy = Policy()
    assert (await _decide(policy, "crm_lookup")).action == "allow"
    assert (await _decide(policy, "pay_invoice")).action == "ask"
    assert (await _decide(policy, "send_email")).action == "ask"
    strict = Policy([Rule.allow("lookups", tools=["crm_*"])], default="deny")
    assert (await _decide(strict, "crm_lookup")).rule_id == "lookups"
    refused = await _decide(strict, "pay_invoice")
    assert (refused.action, refused.rule_id) == ("deny", "default:deny")


async def test_hook_joins_the_rules_and_its_deny_wins() -> None:
    seen: list[str] = []

    async def office_hours(request: PolicyRequest) -> Decision | None:
        seen.append(request.tool.name)
        if request.tool.effect is Effect.WRITE:
            return Decision.deny("outside office hours", rule_id="office-hours")
        return None

    policy = Policy([Rule.allow("everything", tools=["*"])], hook=office_hours)
    assert (await _decide(policy, "pay_invoice")).rule_id == "office-hours"
    assert (await _decide(policy, "crm_lookup")).rule_id == "everything"
    sync_policy = Policy(hook=lambda r: Decision.allow("trusted", rule_id="sync-hook"))
    assert (await _decide(sync_policy, "pay_invoice")).rule_id == "sync-hook"
    assert seen == ["pay_invoice", "crm_lookup"]


def test_toml_file_and_its_errors(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(
        """
version = "2026-11"
default = "deny"

[[rules]]
id = "reads"
action = "allow"
effects = ["read"]

[[rules]]
id = "big"
action = "deny"
reason = "too much"
tools = ["pay_*"]
arguments = { properties = { amount = { exclusiveMinimum = 1000 } }, required = ["amount"] }
""",
        encoding="utf-8",
    )
    policy = Policy.from_toml(path)
    assert policy.version == "2026-11" and policy.default == "deny"
    assert [r.id for r in policy.rules] == ["reads", "big"]
    with pytest.raises(UserError, match="unknown key"):
        Policy.loads('[[rules]]\nid = "x"\naction = "allow"\ntool = ["typo"]\n')
    with pytest.raises(UserError, match="action"):
        Policy.loads('[[rules]]\nid = "x"\naction = "maybe"\n')
    with pytest.raises(UserError, match="unique"):
        Policy([Rule.allow("x"), Rule.deny("x")])
    with pytest.raises(UserError, match="write"):
        Policy.loads('[[rules]]\nid = "x"\naction = "deny"\neffects = ["wrte"]\n')
    assert Policy().version == Policy().version != Policy([Rule.deny("x")]).version


async def test_a_denial_reaches_the_model_with_rule_and_reason(sqlite_url: str) -> None:
    ran: list[str] = []

    @tool(effect="write")
    def pay_invoice(invoice: str, amount: float) -> str:
        """Pay an invoice."""
        ran.append(invoice)
        return "paid"

    policy = Policy(
        [
            Rule.deny(
                "big-payments",
                "payments above 1000 need the finance desk",
                arguments={"properties": {"amount": {"minimum": 1000}}},
            )
        ],
        version="p-7",
    )
    with Gate([pay_invoice], policy=policy, store=sqlite_url) as gate:
        result = await gate.call(
            ToolCall(id="c1", name="pay_invoice", arguments={"invoice": "I-1", "amount": 5000}),
            context=ANN,
        )
        assert result.route is Route.DENIED and result.rule_id == "big-payments"
        assert "payments above 1000 need the finance desk" in result.content
        assert "big-payments" in result.content and "Do not retry" in result.content
        assert ran == []
        assert gate.store is not None
        [receipt] = gate.store.receipts.list()
        assert (receipt.route, receipt.rule_id, receipt.policy_version) == (
            Route.DENIED,
            "big-payments",
            "p-7",
        )


async def test_a_calls_labels_survive_whichever_decision_wins() -> None:
    def hook(request: PolicyRequest) -> Decision:
        return Decision.ask("a host nobody gave", rule_id="egress", labels={"public_sink"})

    asked_first = Policy([Rule.ask("review", tools=["*"])], hook=hook)
    denied = Policy([Rule.deny("never", tools=["pay_*"])], hook=hook)
    allowed = Policy([Rule.allow("all", tools=["*"])], hook=hook)
    tie = await _decide(asked_first, "crm_lookup")
    assert (tie.rule_id, tie.labels) == ("review", frozenset({"public_sink"}))
    assert (await _decide(allowed, "crm_lookup")).rule_id == "egress"
    assert (await _decide(denied, "pay_invoice")).action == "deny"  # a deny ends the search
    plain = Decision.allow(rule_id="a")
    assert plain.joined(Decision.allow(rule_id="b")) is plain
