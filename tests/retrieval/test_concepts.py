"""Concepts of the values a request fills: currencies, units, clock times."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from callgate.retrieval import ToolIndex
from callgate.retrieval._concepts import VALUE_CONCEPTS, concepts
from callgate.retrieval._index import IndexSettings
from callgate.retrieval._lexical import LexicalSettings
from tests.conftest import RETRIEVAL, require
from tests.retrieval.tools import make

KINDS = {c for named in VALUE_CONCEPTS.values() for c in named} | {
    "convert",
    "conversion",
    "coordinates",
    "latitude",
    "longitude",
    "year",
    "date",
}


def test_question_words_name_the_kind_of_answer() -> None:
    assert concepts("When was the Treaty of Lisbon signed?") == ["date"]
    assert concepts("Who discovered the neutron? Where?") == ["person", "location"]


def test_value_words_name_their_kind() -> None:
    assert concepts("How much is 20000 Japanese Yen?") == ["currency"]
    assert concepts("Run 5 KM") == ["distance", "unit"]
    assert concepts("Cost: $30") == ["currency"]
    assert concepts("meet at 2pm") == ["time"]


def test_am_and_pm_count_only_after_a_number() -> None:
    assert concepts("I am the PM of this project") == []
    assert concepts("at 10 a.m. sharp") == ["time"]


def test_written_values_name_their_kind() -> None:
    assert concepts("wind at 46.603354,1.8883340") == ["coordinates", "latitude", "longitude"]
    assert concepts("the king of England in 1800") == ["year"]
    assert concepts("on December 13, 2019") == ["date"]
    assert concepts("from 2022-05-01 to 2022-05-10") == ["date"]
    # The kind's own word with a value of it is not two values: no conversion.
    assert concepts("the date 2022-05-01") == ["date"]
    assert concepts("1,500 items") == []
    assert concepts("December 13 and January 5") == ["date"]
    assert concepts("in " + "1" * 5000) == []


def test_huge_input_is_read_in_linear_time() -> None:
    text = "1.2" + " " * 50_000 + "9" * 50_000 + "dollars " * 5_000
    assert concepts(text) == ["currency", "convert", "conversion"]


def test_two_values_of_one_kind_are_a_conversion() -> None:
    assert concepts("500 US dollars in Canadian dollars") == ["currency", "convert", "conversion"]
    assert concepts("ounces in 2 pounds") == ["weight", "unit", "currency", "convert", "conversion"]
    # Two units of different kinds are not a conversion between them.
    assert "convert" not in concepts("5 km in 20 minutes costing 3 euros")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_known_kinds_once(text: str) -> None:
    found = concepts(text)
    assert set(found) <= KINDS
    assert len(found) == len(set(found))
    assert concepts(text) == found


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(sorted(VALUE_CONCEPTS)), min_size=1, max_size=6))
def test_every_listed_value_word_is_found(words: list[str]) -> None:
    found = concepts(" 12 ".join(words))
    assert {c for w in words for c in VALUE_CONCEPTS[w]} <= set(found)


def _index(weight: float) -> ToolIndex:
    require(*RETRIEVAL, extra="retrieval")
    tools = [
        make(
            "currency_conversion",
            "Convert a value from one currency to another.",
            {"amount": {"type": "number"}, "from_currency": {"type": "string"}},
        ),
        make("payment_calculation", "Calculate a payment in dollars for an order of items."),
        make("dollar_store_search", "Search the dollar store for items under a dollar."),
    ]
    return ToolIndex(tools, settings=IndexSettings(lexical=LexicalSettings(concept_weight=weight)))


def test_a_request_that_only_names_currencies_finds_the_converter() -> None:
    query = "How many Canadian dollars can I get for 500 US dollars?"
    assert _index(0.7).search(query, 1)[0].tool.name == "currency_conversion"
    # Without concepts the word "dollars" alone decides, and the converter loses.
    assert _index(0.0).search(query, 1)[0].tool.name != "currency_conversion"
