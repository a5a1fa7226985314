"""Chained requests: each intent gets a place in the first k, so none is crowded out."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from callgate import Tool
from callgate.retrieval import ToolIndex
from callgate.retrieval._fusion import Ranking, interleave
from callgate.retrieval._index import IndexSettings
from callgate.retrieval._query import clauses, joined, segments
from tests.conftest import RETRIEVAL, needs
from tests.retrieval.tools import make


def test_interleave_takes_each_rankings_head_in_turns() -> None:
    first = Ranking(names=("a", "b", "c"))
    second = Ranking(names=("x", "a", "y"))
    assert interleave([first, second], 1) == ("a", "x")
    assert interleave([first, second], 2) == ("a", "x", "b")
    assert interleave([first, Ranking(names=())], 2) == ("a", "b")


def test_joined_sees_chaining_words_not_plain_sentences() -> None:
    assert joined("Convert 5 km to miles, then email Ann")
    assert joined("Найди рейс, потом забронируй отель")
    assert not joined("Convert 5 km to miles. Round to two places.")
    assert not joined("weather in Paris")


def _tools() -> list[Tool]:
    # The first intent's words are rare and many; the second's ("send", "email") are
    # common in this catalog, so the whole query ranks every weather tool first.
    weather = [
        make(f"weather_{i}", f"Weather forecast: rain, humidity, wind and pressure ({i}).")
        for i in range(4)
    ]
    common = [
        make(f"other_{i}", f"{verb} for a user.")
        for i, verb in enumerate(
            [
                "Send an SMS",
                "Send a fax",
                "Send a push alert",
                "Search the email archive",
                "Validate an email address",
                "Count email threads",
                "Send a parcel",
            ]
        )
    ]
    return [*weather, *common, make("send_email", "Send an email message to a recipient.")]


QUERY = "rain, humidity, wind and pressure forecast for Paris, then send an email to Ann"


def _found(settings: IndexSettings, k: int = 3) -> list[str]:
    return [h.tool.name for h in ToolIndex(_tools(), settings=settings).search(QUERY, k)]


@needs(*RETRIEVAL, extra="retrieval")
def test_a_chained_second_intent_is_crowded_out_without_either_mechanism() -> None:
    assert "send_email" not in _found(IndexSettings(head_weight=0.0, intent_slots=False))


@needs(*RETRIEVAL, extra="retrieval")
def test_taking_clause_heads_in_turns_brings_the_second_intent_up() -> None:
    assert "send_email" in _found(IndexSettings(intent_slots=False))


@needs(*RETRIEVAL, extra="retrieval")
def test_each_clause_gets_a_place_in_the_first_k() -> None:
    found = _found(IndexSettings(head_weight=0.0))
    # The whole query's best stays first; the second clause's best takes the last place.
    assert found[0].startswith("weather_") and found[-1] == "send_email"
    for k in (2, 4, 6):
        assert "send_email" in _found(IndexSettings(head_weight=0.0), k)


def test_clauses_split_only_at_chaining_words() -> None:
    assert clauses("Convert 5 km to miles, then email Ann") == [
        "Convert 5 km to miles",
        "email Ann",
    ]
    assert clauses("Convert 5 km to miles and round it") == ["Convert 5 km to miles and round it"]


def test_ordinal_openers_enumerate_clauses() -> None:
    text = "Can you help? First, convert 5 km. Second, email Ann. The second one is urgent."
    assert clauses(text) == [
        "Can you help?",
        "convert 5 km.",
        "email Ann. The second one is urgent.",
    ]
    assert joined("Во-первых, найди рейс. Во-вторых, отель.")
    assert clauses("Book it. Next, pay.") == ["Book it.", "pay."]


def test_ordinals_open_a_clause_only_where_a_sentence_starts() -> None:
    assert clauses("Sort by price first, then by rating") == ["Sort by price first", "by rating"]
    text = "the first, second and third results of the search"
    assert segments(text) == [text]
    assert not joined(text)
    assert clauses("Firstly, find a flight; secondly, a hotel") == ["find a flight;", "a hotel"]
    assert clauses('"First, find a flight. Second, a hotel."') == ["find a flight.", 'a hotel."']


def test_next_joins_clauses_except_before_a_time_or_after_an_article() -> None:
    assert clauses("Book a flight to Paris, next reserve a hotel there") == [
        "Book a flight to Paris",
        "reserve a hotel there",
    ]
    for text in (
        "Buy a ticket for next Friday",
        "weather for the next 3 days",
        "find the next train to Boston",
        "a hotel next to the station",
        "plans for next week",
    ):
        assert not joined(text), text


_WORDS = st.sampled_from(
    ["first,", "First,", "next", "Next,", "then", "the", "week", "to", ".", ";", "\n", ",", "book"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_WORDS, st.text(max_size=8)), max_size=30))
def test_splitting_keeps_every_part_in_order_and_in_the_text(words: list[str]) -> None:
    text = " ".join(words)
    for found in (segments(text), clauses(text)):
        assert len(found) <= 8
        rest = text
        for part in found:
            assert part and part == part.strip()
            assert part in rest
            rest = rest[rest.index(part) + len(part) :]
    if len(clauses(text)) > 1:
        assert joined(text)  # a split is always at a joining word


@pytest.mark.timeout(10)
def test_a_long_run_of_spaces_is_split_in_linear_time() -> None:
    # Tried from every space of the run, this took minutes (the square of its length).
    text = "a" + " " * 100_000
    assert segments(text) == clauses(text) == ["a"]
    assert not joined(text + "\n" * 100_000 + "b")
