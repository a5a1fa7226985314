from __future__ import annotations

import pytest

from callgate import Context, Effect, Tool, UnknownToolError
from callgate.dialects import Message
from callgate.gate import Policy, Rule
from callgate.retrieval import ToolIndex, ToolSelector, policy_filter, select_tools
from tests.conftest import RETRIEVAL, require
from tests.retrieval.tools import catalog, make

require(*RETRIEVAL, extra="retrieval")


def names(tools: list[Tool] | tuple[Tool, ...]) -> list[str]:
    return [t.name for t in tools]


def test_pinned_tools_come_first_and_do_not_count_against_k() -> None:
    index = ToolIndex(catalog())
    chosen = index.select("weather in Oslo", k=1, pinned=["translate_text", "send_email"])
    assert names(chosen) == ["translate_text", "send_email", "get_weather"]
    # A pinned tool that also matches is not offered twice, and k counts the others.
    picked = names(index.select("send an email message", k=1, pinned=["send_email"]))
    assert picked[0] == "send_email" and len(picked) <= 2 and picked.count("send_email") == 1
    with pytest.raises(UnknownToolError):
        index.select("weather", pinned=["no_such_tool"])


def test_pinned_tool_objects_need_not_be_indexed() -> None:
    extra = make("tool_search", "Search tools.")
    chosen = ToolIndex(catalog()).select("weather", k=1, pinned=[extra])
    assert names(chosen) == ["tool_search", "get_weather"]


def test_the_filter_removes_tools_before_the_cut() -> None:
    index = ToolIndex(catalog())
    reads_only = lambda tool: tool.effect is Effect.READ  # noqa: E731
    query = "send email, book a restaurant table, weather, translate"
    chosen = index.select(query, k=3, allowed=reads_only, pinned=["send_email"])
    assert "send_email" not in names(chosen)  # the filter wins over pinning
    # Only two reads match at all: the write tools never take a place.
    assert sorted(names(chosen)) == ["get_weather", "translate_text"]
    hits = index.search(query, 3, allowed=reads_only)
    assert sorted(h.tool.name for h in hits) == ["get_weather", "translate_text"]


def test_filter_is_consulted_past_the_first_candidates() -> None:
    tools = [make(f"report_{i:03d}", "Build a report.") for i in range(300)]
    index = ToolIndex(tools)
    only_last = lambda tool: tool.name == "report_299"  # noqa: E731
    assert names(index.select("report", k=3, allowed=only_last)) == ["report_299"]


def test_deprecated_tools_only_when_nothing_else_fits() -> None:
    old = make(
        "send_mail_v1",
        "Send an email message (old API).",
        deprecated=True,
        replacement="send_email",
    )
    legacy = make("fax_message", "Send a fax message.", deprecated=True)
    index = ToolIndex([*catalog(), old, legacy])
    # The deprecated tool matches best, but its replacement takes its place.
    chosen = names(index.select("send_mail_v1 email message", k=2))
    assert "send_mail_v1" not in chosen and chosen[0] == "send_email"
    # A deprecated tool without a replacement waits behind every current match.
    assert names(index.select("send a fax message", k=1)) == ["send_email"]
    assert names(index.select("fax", k=2)) == ["fax_message"]


def test_replacement_that_is_not_allowed_is_not_offered() -> None:
    old = make(
        "send_mail_v1",
        "Send an email message (old API).",
        deprecated=True,
        replacement="send_email",
    )
    index = ToolIndex([*catalog(), old])
    no_email = lambda tool: tool.name != "send_email"  # noqa: E731
    assert names(index.select("send_mail_v1 mail", k=1, allowed=no_email)) == ["send_mail_v1"]


def test_policy_filter_hides_only_what_is_denied_outright() -> None:
    policy = Policy(
        [
            Rule.deny("no-deletes", tools=["delete_*"]),
            Rule.deny("big-mail", tools=["send_email"], arguments={"required": ["bcc"]}),
            Rule.deny("interns", tools=["book_*"], roles=["intern"]),
        ]
    )
    allowed = policy_filter(policy, Context(principal="ann", roles=frozenset({"intern"})))
    index = ToolIndex(catalog())
    offered = names(
        index.select("delete account, send email, book restaurant", k=8, allowed=allowed)
    )
    assert "delete_account" not in offered and "book_restaurant" not in offered
    assert "send_email" in offered  # denied only for some arguments: the gate decides
    boss = policy_filter(policy, Context(principal="bob", roles=frozenset({"manager"})))
    assert "book_restaurant" in names(index.select("book restaurant", k=3, allowed=boss))


def test_policy_filter_with_deny_by_default() -> None:
    policy = Policy(
        [
            Rule.allow("weather", tools=["get_weather"]),
            Rule.ask("mail", tools=["send_email"], arguments={"required": ["to"]}),
        ],
        default="deny",
    )
    allowed = policy_filter(policy)
    chosen = names(ToolIndex(catalog()).select("weather, email, restaurant", k=8, allowed=allowed))
    assert sorted(chosen) == ["get_weather", "send_email"]


def test_select_tools_with_context() -> None:
    index = ToolIndex(catalog())
    chosen = select_tools(
        index, "and what about tomorrow?", 1, context="What is the weather in Paris?"
    )
    assert names(chosen) == ["get_weather"]


def test_selector_list_is_sticky_and_only_grows() -> None:
    selector = ToolSelector(ToolIndex(catalog()), k=1, pinned=["translate_text"])
    first = selector.select("weather in Paris")
    assert names(first) == ["translate_text", "get_weather"]
    second = selector.select("send an email to Bob")
    assert names(second) == ["translate_text", "get_weather", "send_email"]
    assert selector.select("weather again") == second  # nothing new: the same list
    assert selector.shown_names == ("translate_text", "get_weather", "send_email")
    restored = ToolSelector(
        ToolIndex(catalog()), k=1, pinned=["translate_text"], shown=selector.shown_names
    )
    assert restored.shown_names == selector.shown_names


def test_selector_reads_the_latest_user_message_with_recent_context() -> None:
    selector = ToolSelector(ToolIndex(catalog()), k=1, recent=1)
    messages = [
        Message(role="user", text="I want to book a restaurant for dinner."),
        Message(role="assistant", text="Which day?"),
        Message(role="user", text="Friday at 8, a table for four."),
    ]
    assert names(selector.for_messages(messages)) == ["book_restaurant"]
    assert names(selector.for_messages([Message(role="assistant", text="hi")])) == [
        "book_restaurant"
    ]


def test_selector_never_reveals_what_the_filter_rejects() -> None:
    selector = ToolSelector(ToolIndex(catalog()), allowed=lambda t: t.effect is Effect.READ)
    assert selector.reveal(["delete_account", "get_weather"]) == [
        t for t in selector.shown if t.name == "get_weather"
    ]
    assert "delete_account" not in selector.shown_names
    with pytest.raises(UnknownToolError):
        selector.reveal(["nope"])
