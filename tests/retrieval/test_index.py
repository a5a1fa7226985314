from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest

from callgate import UnknownToolError, UserError
from callgate.retrieval import Embedder, Hit, ToolIndex
from tests.conftest import RETRIEVAL, require
from tests.retrieval.tools import catalog, make

require(*RETRIEVAL, extra="retrieval")


def names(hits: Sequence[Hit]) -> list[str]:
    return [h.tool.name for h in hits]


def test_english_queries_find_the_tool_by_any_word_form() -> None:
    index = ToolIndex(catalog())
    assert names(index.search("What's the weather forecast in Paris?", 1)) == ["get_weather"]
    assert names(index.search("converting currencies", 1)) == ["convert_currency"]
    assert names(index.search("please translate this into German", 1)) == ["translate_text"]
    assert names(index.search("reserved tables for four", 1)) == ["book_restaurant"]


def test_russian_queries_are_stemmed_as_russian() -> None:
    index = ToolIndex(catalog())
    # "отчёты" / "продажи" meet "отчёт" / "продажах" only through Russian stemming.
    assert names(index.search("отчеты по продажам за март", 1)) == ["sales_report"]
    assert names(index.search("найди авиабилет из Москвы", 1)) == ["find_flights"]
    assert names(index.search("городов вылета и прилёта", 1)) == ["find_flights"]


def test_mixed_language_catalog_and_query() -> None:
    index = ToolIndex(catalog())
    found = names(index.search("отчёт о продажах and the weather in Berlin", 2))
    assert set(found) == {"sales_report", "get_weather"}


def test_each_intent_of_a_message_gets_a_place() -> None:
    index = ToolIndex(catalog())
    query = (
        "Convert 100 dollars to euros. Then send an email to Ann with the result. "
        "Also, what is the weather in Rome?"
    )
    assert set(names(index.search(query, 3))) == {"convert_currency", "send_email", "get_weather"}


def test_a_tool_named_in_the_query_comes_first() -> None:
    index = ToolIndex(catalog())
    assert names(index.search("run delete_account for the weather user", 1)) == ["delete_account"]


def test_results_do_not_depend_on_insertion_order() -> None:
    tools = catalog()
    queries = ["weather", "send money", "отчёт", "table for two", "text", "city", ""]
    expected = {q: [(h.tool.name, h.score) for h in ToolIndex(tools).search(q, 8)] for q in queries}
    for seed in range(5):
        shuffled = tools[:]
        random.Random(seed).shuffle(shuffled)
        index = ToolIndex(shuffled)
        for q in queries:
            assert [(h.tool.name, h.score) for h in index.search(q, 8)] == expected[q]
            assert [(h.tool.name, h.score) for h in index.search(q, 8)] == expected[q]


def test_equal_scores_are_ordered_by_name() -> None:
    twins = [make(f"lookup_{c}", "Look up a record.") for c in "dbca"]
    assert names(ToolIndex(twins).search("look up record", 4)) == [
        "lookup_a",
        "lookup_b",
        "lookup_c",
        "lookup_d",
    ]


def test_nothing_matches_nothing() -> None:
    index = ToolIndex(catalog())
    assert index.search("", 5) == []
    assert index.search("zzzz qqqq", 5) == []
    assert index.search("weather", 0) == []
    assert ToolIndex().search("weather", 3) == []


def test_remove_masks_without_rebuilding_and_add_is_found() -> None:
    index = ToolIndex(catalog())
    assert "get_weather" in names(index.search("weather", 3))
    retriever = index._lexical._retriever
    removed = index.remove("get_weather")
    assert removed.name == "get_weather" and "get_weather" not in index
    assert "get_weather" not in names(index.search("weather forecast city", 8))
    assert index._lexical._retriever is retriever  # masked, not rebuilt
    index.add(make("weather_now", "Current weather for a place."))
    assert names(index.search("weather", 1)) == ["weather_now"]
    assert index._lexical._retriever is not retriever  # rebuilt from the kept tokens


def test_incremental_changes_end_where_a_fresh_index_starts() -> None:
    tools = catalog()
    index = ToolIndex(tools[:3])
    for tool in tools[3:]:
        index.add(tool)
    index.remove("send_email")
    index.remove("translate_text")
    index.add(tools[2])  # send_email comes back
    fresh = ToolIndex([t for t in tools if t.name != "translate_text"])
    for q in ["email", "weather", "account", "отчёт", "money", "table"]:
        assert names(index.search(q, 8)) == names(fresh.search(q, 8))


def test_many_removals_trigger_a_compacting_rebuild() -> None:
    tools = [make(f"tool_{i:03d}", f"Does thing number {i} with widgets.") for i in range(40)]
    index = ToolIndex(tools)
    index.search("widgets", 1)
    for tool in tools[:15]:
        index.remove(tool.name)
    hits = index.search("widgets", 50)
    assert len(hits) == 25 and names(hits)[0] == "tool_015"
    assert len(index._lexical._rows) == 25


def test_duplicates_and_replacement() -> None:
    index = ToolIndex(catalog())
    with pytest.raises(UserError, match="already indexed"):
        index.add(make("get_weather", "Another weather tool."))
    with pytest.raises(UserError, match="duplicate"):
        ToolIndex([make("a_tool", "x"), make("a_tool", "y")])
    index.add(make("get_weather", "Tide tables for a harbour."), replace=True)
    assert names(index.search("tide harbour", 1)) == ["get_weather"]
    assert "get_weather" not in names(index.search("forecast", 8))
    with pytest.raises(UnknownToolError):
        index.remove("no_such_tool")


def test_lookup_by_dotted_name() -> None:
    index = ToolIndex([make("math_hypot", "Hypotenuse.")])
    found = index.get("math.hypot")
    assert found is not None and found.name == "math_hypot"
    assert "math.hypot" in index and "math.sqrt" not in index


class WordEmbedder:
    """A stand-in embedding model: a fixed vector per known word, averaged."""

    VOCAB = ("weather", "money", "mail", "food", "account")
    SYNONYMS: ClassVar[dict[str, str]] = {
        "forecast": "weather",
        "rain": "weather",
        "cash": "money",
        "euros": "money",
        "currency": "money",
        "email": "mail",
        "letter": "mail",
        "restaurant": "food",
        "dinner": "food",
        "table": "food",
        "user": "account",
        "weather": "weather",
        "money": "money",
        "mail": "mail",
    }

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np  # of the retrieval extra: imported after the module's skip

        self.calls += 1
        out = np.zeros((len(texts), len(self.VOCAB)), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().replace(".", " ").replace(",", " ").split():
                if word in self.SYNONYMS:
                    out[row, self.VOCAB.index(self.SYNONYMS[word])] += 1
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def test_dense_ranking_bridges_words_bm25_cannot() -> None:
    embedder = WordEmbedder()
    assert isinstance(embedder, Embedder)
    lexical = ToolIndex(catalog())
    hybrid = ToolIndex(catalog(), embedder=embedder)
    assert hybrid.dense and not lexical.dense
    # "cash" appears in no card: only the embedding ranking can find the currency tool.
    assert "convert_currency" not in names(lexical.search("I need cash", 3))
    hits = hybrid.search("I need cash", 3)
    assert names(hits)[0] == "convert_currency"
    assert hits[0].dense_score is not None and hits[0].dense_score > 0.5
    assert hits[0].lexical_score is None


def test_dense_index_follows_add_and_remove() -> None:
    embedder = WordEmbedder()
    index = ToolIndex(catalog(), embedder=embedder)
    assert embedder.calls == 1  # the whole catalog in one batch
    index.remove("convert_currency")
    assert "convert_currency" not in names(index.search("cash", 8))
    index.add(make("pay_invoice", "Pay money owed."))
    assert names(index.search("cash", 1)) == ["pay_invoice"]


def test_concurrent_searches_and_changes_stay_consistent() -> None:
    import threading

    base = catalog()
    extra = [make(f"weather_station_{i:02d}", "Weather readings of a station.") for i in range(30)]
    index = ToolIndex(base)
    errors: list[BaseException] = []

    def search() -> None:
        try:
            for _ in range(200):
                for hit in index.search("weather station readings", 5):
                    assert hit.tool.name in {t.name for t in [*base, *extra]}
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    def change() -> None:
        try:
            for tool in extra:
                index.add(tool)
            for tool in extra[::2]:
                index.remove(tool.name)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=search) for _ in range(3)]
    threads.append(threading.Thread(target=change))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(index) == len(base) + 15
    assert {h.tool.name for h in index.search("weather station", 20)} >= {
        t.name for t in extra[1::2]
    }


def _distinct_words(rng: random.Random, n: int) -> str:
    return " ".join(f"w{rng.getrandbits(40):x}" for _ in range(n))


def _held_after(queries: list[str]) -> int:
    """Bytes still allocated after searching `queries` on a fresh index built beforehand."""
    import gc
    import tracemalloc

    index = ToolIndex(catalog())
    index.search("weather in Paris", 1)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for query in queries:
            index.search(query, 3)
        gc.collect()
        return int(tracemalloc.get_traced_memory()[0] - before)
    finally:
        tracemalloc.stop()


def test_long_distinct_queries_do_not_pile_up_in_memory() -> None:
    rng = random.Random(1)
    held = _held_after([_distinct_words(rng, 4000) for _ in range(30)])  # ~52 KB each
    # Cached whole, each of these kept about 0.4 MB of terms (12 MB in all); what stays is
    # the stemmer's own word cache, which has a fixed size.
    assert held < 4_000_000


def test_a_query_is_read_only_up_to_its_maximum_length(caplog: pytest.LogCaptureFixture) -> None:
    index = ToolIndex(catalog())
    limit = index.settings.max_query_chars
    filler = "please " * (limit // 7 + 10)
    assert names(index.search("translate this into German", 1)) == ["translate_text"]
    with caplog.at_level("WARNING", logger="callgate.retrieval"):
        assert names(index.search(filler + "translate this into German", 1)) == []
        found = names(index.search("translate this into German " + filler, 1))
    assert found == ["translate_text"]
    assert "cut to" in caplog.text
    # A text of one unbroken word is cut at the limit itself, lone surrogates and all.
    assert index.search("\ud800" * (limit * 3), 1) == []


def test_long_words_are_not_kept_by_the_stem_caches() -> None:
    rng = random.Random(2)
    held = _held_after(["".join(rng.choices("abcdefghij", k=3900)) for _ in range(100)])
    # Cached, each word and its stem kept about 8 KB twice (1.2 MB in all).
    assert held < 400_000


@pytest.mark.parametrize("limit", [0, -5, 2.5, True])
def test_a_maximum_query_length_must_be_a_positive_int(limit: Any) -> None:
    from callgate.retrieval import IndexSettings

    with pytest.raises(UserError, match="max_query_chars"):
        IndexSettings(max_query_chars=limit)
