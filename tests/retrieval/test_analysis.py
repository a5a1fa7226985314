"""Analysis: which words become terms, in English, Russian and Chinese."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from callgate.retrieval import ToolIndex
from callgate.retrieval._analysis import Analyzer
from callgate.retrieval._lexical import LexicalIndex, LexicalSettings
from tests.conftest import RETRIEVAL, require
from tests.retrieval.tools import make

require(*RETRIEVAL, extra="retrieval")

ANALYZER = Analyzer()


def test_words_that_name_different_operations_are_kept() -> None:
    assert ANALYZER("scale up") != ANALYZER("scale down")
    assert "off" in ANALYZER("turn off the lights")
    assert {"befor", "after", "all", "same"} <= set(ANALYZER("before after all the same"))


def test_conversational_filler_is_dropped() -> None:
    assert ANALYZER("I would like to please get the weather, I'm interested in it") == [
        "get",
        "weather",
    ]
    assert ANALYZER("пожалуйста, мне нужно") == []


def test_chinese_is_segmented_into_words() -> None:
    terms = ANALYZER("备份数据库，然后检查完整性")
    assert {"备份", "数据库", "检查", "完整性"} <= set(terms)
    assert "然后" not in terms  # "then" is filler inside a clause


def test_russian_and_english_are_stemmed_in_one_text() -> None:
    assert ANALYZER("отчёты reports") == ANALYZER("отчёт report")


def test_written_forms_and_stem_heads_are_extra_terms() -> None:
    kinds = dict((t, k) for t, k in ANALYZER.terms("marketing analysis"))
    assert kinds["market"] == "stem" and kinds["marketing"] == "word"
    # Snowball leaves analyze/analysis apart; their heads meet.
    assert ("analy", "head") in ANALYZER.terms("analyze")
    assert ("analy", "head") in ANALYZER.terms("analysis")


def test_the_written_form_breaks_a_stem_merge() -> None:
    market = make("market_prices", "Prices on the stock market.")
    marketing = make("campaign_report", "Marketing campaign performance.")
    index = ToolIndex([market, marketing])
    assert index.search("marketing", 1)[0].tool.name == "campaign_report"


def test_a_repeated_query_word_counts_once() -> None:
    lexical = LexicalIndex(ANALYZER, LexicalSettings())
    assert lexical.query_terms("weather weather weather today") == lexical.query_terms(
        "weather today"
    )
    weather = make("weather", "Weather of a city.")
    news = make("news_today", "Today's news, today's headlines, all of today.")
    # Counted three times, "weather" would outweigh "today"; counted once it does not.
    index = ToolIndex([weather, news])
    once = [h.tool.name for h in index.search("weather weather weather today today today", 2)]
    assert once == [h.tool.name for h in index.search("weather today", 2)]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_clean_terms(text: str) -> None:
    for term, kind in ANALYZER.terms(text):
        assert term and term == term.strip() and kind in {"stem", "word", "head"}
        assert term not in ANALYZER.stopwords or kind != "stem"


INDEX = ToolIndex(
    [
        make("scale_deployment", "Scale a deployment up or down."),
        make("beicha", "备份数据库并检查完整性"),
        make("otchet", "Отчёт о продажах за месяц."),
    ]
)


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.text(max_size=400),
        st.text(alphabet=st.characters(codec="utf-8"), max_size=50).map(lambda t: t * 40),
        st.just("\ud800 lone surrogate \udfff then 备份"),
    ),
    st.integers(min_value=-3, max_value=20),
)
def test_any_query_is_answered_without_error(query: str, k: int) -> None:
    hits = INDEX.search(query, k)
    assert len(hits) <= max(k, 0)
    assert len({h.tool.name for h in hits}) == len(hits)
