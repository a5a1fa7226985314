"""Chained requests: each intent's best tool is taken in turns so none is crowded out."""

from __future__ import annotations

from callgate import Tool
from callgate.retrieval import ToolIndex
from callgate.retrieval._fusion import Ranking, interleave
from callgate.retrieval._index import IndexSettings
from callgate.retrieval._query import joined
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


def test_a_chained_second_intent_gets_a_top_place() -> None:
    query = "rain, humidity, wind and pressure forecast for Paris, then send an email to Ann"
    with_heads = ToolIndex(_tools())
    without = ToolIndex(_tools(), settings=IndexSettings(head_weight=0.0))
    assert "send_email" in [h.tool.name for h in with_heads.search(query, 3)]
    assert "send_email" not in [h.tool.name for h in without.search(query, 3)]
