"""Analysis: text to index terms, in the languages tool catalogs are written in.

Identifiers are split (`getUserByID` -> get user by id), words lower-cased, conversational
filler and stop words dropped, Chinese segmented into words (jieba), Cyrillic words
stemmed as Russian and all others as English (Snowball). Words that carry meaning in
tool search (`up`, `off`, `before`, `all`, `same`, ...) are kept although general stop
lists drop them: "scale up" and "scale down", "turn off", "the same file" mean different
tools.

Each word gives its stem, and two lighter terms that the lexical index weighs less
(see `Term`): the word as written, so that "marketing" prefers a marketing tool over
one about markets although Snowball stems both to `market`; and the head of the stem,
so that forms the stemmer leaves apart ("analyze" -> `analyz`, "analysis" -> `analysi`)
still meet.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Iterator
from typing import Any, Literal

from callgate._extras import require

__all__ = ["DOMAIN_WORDS", "FILLER_WORDS", "Analyzer", "Term", "TermKind"]

TermKind = Literal["stem", "word", "head"]
Term = tuple[str, TermKind]
"""An index term and what it is: a stem, the word as written, or the head of a stem."""

_CAMEL_LOWER = re.compile(r"([a-z0-9])([A-Z])")
_CAMEL_UPPER = re.compile(r"([A-Z]+)([A-Z][a-z])")
_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUN = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+")
_HAS_CJK = re.compile(rf"[{_CJK}]")
_CYRILLIC = re.compile(r"[а-яё]")
_CACHE_LIMIT = 200_000
_CACHED_WORD = 40
"""Longer words (no real one is) are stemmed each time: the cache holds at most
200,000 words of this length, whatever a query spells."""
_HEAD = 5
"""Letters of a stem kept as its head: enough to tell `analy` from `anal`, few enough to
join what Snowball splits (analyz/analysi/analyt)."""

DOMAIN_WORDS = frozenset(
    {
        # English: direction, time order, quantity and identity words that name different
        # operations ("scale up" / "scale down", "before" / "after", "all" / "one").
        "up", "down", "on", "off", "out", "over", "under", "above", "below", "between",
        "before", "after", "during", "until", "again", "once", "now", "all", "each", "more",
        "most", "few", "only", "same", "other", "against", "not", "no",
        # Russian: after, before, all, more, now, without, between.
        "после", "перед", "все", "всех", "больше", "более", "сейчас", "без", "между",
    }
)  # fmt: skip
"""Words general stop lists drop but tool search needs."""

FILLER_WORDS = frozenset(
    {
        # English conversational filler: it says how the user asks, not what for.
        "please", "kindly", "would", "could", "like", "love", "want", "wants", "wanted",
        "need", "needs", "needed", "interested", "specific", "particular", "certain",
        "hey", "hi", "hello", "thanks", "thank", "okay", "ok", "just", "really", "actually",
        "also", "tell", "know", "let", "lets", "help", "able", "possible", "wondering",
        "wonder", "maybe", "sure", "quite", "something", "anything", "thing", "things",
        "someone", "somebody", "kind", "sort", "bit", "little", "perhaps", "might", "must",
        "shall", "may", "one", "us", "ll", "ve", "curious", "assist", "provide",
        "given", "using", "use", "via", "etc", "e.g", "i.e",
        # Russian.
        "пожалуйста", "нужно", "надо", "хочу", "хотел", "хотела", "хотим", "можешь",
        "можете", "помоги", "помогите", "подскажи", "подскажите", "скажи", "мне", "нам",
        # Chinese (after segmentation).
        "请", "帮", "帮忙", "帮我", "给我", "我", "我们", "你", "您", "一下", "想", "想要",
        "需要", "能", "能否", "可以", "吗", "呢", "吧", "的", "了", "和", "是", "在", "把",
        "给", "一个", "这个", "那个", "什么", "怎么", "如何", "然后", "并且", "以及", "还",
        "也", "就", "都", "要", "让", "被", "对", "从", "到", "里", "中", "上", "下",
    }
)  # fmt: skip
"""Words that say how something is asked, not what is asked for."""


class Analyzer:
    """Text to index terms: split identifiers, drop stop words and filler, segment, stem.

    `analyzer(text)` gives the stems in order (repeats kept: a card's term frequencies
    matter); `analyzer.terms(text)` gives every term with its kind, for the index.
    """

    def __init__(
        self,
        *,
        stopwords: Iterable[str] | None = None,
        keep: Iterable[str] = DOMAIN_WORDS,
        filler: Iterable[str] = FILLER_WORDS,
    ) -> None:
        stemmer = require("Stemmer", extra="retrieval", package="PyStemmer")
        self._english = stemmer.Stemmer("english")
        self._russian = stemmer.Stemmer("russian")
        for each in (self._english, self._russian):
            each.maxCacheSize = 0  # `_stems` caches; PyStemmer's own would keep long words
        if stopwords is None:
            words = require("bm25s.stopwords", extra="retrieval", package="bm25s")
            stopwords = (*words.STOPWORDS_EN_PLUS, *words.STOPWORDS_RUSSIAN)
        self.stopwords = (frozenset(stopwords) | frozenset(filler)) - frozenset(keep)
        self._stems: dict[str, str] = {}
        self._segmenter: Any = None
        self._lock = threading.Lock()

    def signature(self) -> str:
        """What the terms depend on besides the text (a cache made otherwise is stale)."""
        return f"analysis-1:{_HEAD}:" + ",".join(sorted(self.stopwords))

    def __call__(self, text: str) -> list[str]:
        return [term for term, kind in self.terms(text) if kind == "stem"]

    def terms(self, text: str) -> list[Term]:
        """Every term of `text`: per kept word its stem, its written form and its head.

        The written form and the head are given only where they differ from the stem.
        """
        out: list[Term] = []
        for word in self.words(text):
            stem = self._stem(word)
            out.append((stem, "stem"))
            if word != stem:
                out.append((word, "word"))
            if len(stem) > _HEAD and stem.isalpha():
                out.append((stem[:_HEAD], "head"))
        return out

    def words(self, text: str) -> Iterator[str]:
        """The kept words of `text`, lower-cased, in order."""
        spaced = _CAMEL_UPPER.sub(r"\1 \2", _CAMEL_LOWER.sub(r"\1 \2", text)).lower()
        for run in _RUN.findall(spaced):
            pieces = self._segment(run) if _HAS_CJK.match(run) else (run,)
            for word in pieces:
                # One-letter words and bare numbers match everything and mean nothing
                # here; one Chinese character is often a whole word, so it stays.
                if word in self.stopwords or word.isdigit():
                    continue
                if len(word) < 2 and not _HAS_CJK.match(word):
                    continue
                yield word

    def _segment(self, run: str) -> list[str]:
        """Chinese words of a run of Han characters (jieba, search mode: long words
        also give the shorter words inside them)."""
        with self._lock:
            if self._segmenter is None:
                jieba = require("jieba", extra="retrieval")
                jieba.setLogLevel(logging.WARNING)
                self._segmenter = jieba
        return [w for w in self._segmenter.lcut_for_search(run) if w.strip()]

    def _stem(self, word: str) -> str:
        stem = self._stems.get(word)
        if stem is None:
            if len(self._stems) > _CACHE_LIMIT:
                self._stems.clear()
            if _HAS_CJK.match(word):
                stem = word
            else:
                stemmer = self._russian if _CYRILLIC.search(word) else self._english
                stem = stemmer.stemWord(word)
            if len(word) <= _CACHED_WORD:
                self._stems[word] = stem
        return stem
