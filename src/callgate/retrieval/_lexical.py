"""Lexical search: tokens with stemming (English and Russian) scored by `bm25s`.

bm25s cannot add a document to a built index: its scores are precomputed per term and
depend on the whole corpus (document frequencies, average length). So:

* removing a tool masks its row; no rebuild. Until the next rebuild the removed card
  still counts in the corpus statistics, which moves other scores only slightly; once a
  quarter of the rows are masked the index is rebuilt.
* adding or replacing a tool marks the index stale; the next search rebuilds it from the
  tokens kept per tool, so nothing is analysed twice and a burst of additions costs one
  rebuild. At 20,000 tools a rebuild takes well under a second (benchmarks/retrieval.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from callgate._extras import require
from callgate.retrieval._card import Card
from callgate.retrieval._fusion import top_rows

__all__ = ["Analyzer", "LexicalIndex", "LexicalSettings"]

_CAMEL_LOWER = re.compile(r"([a-z0-9])([A-Z])")
_CAMEL_UPPER = re.compile(r"([A-Z]+)([A-Z][a-z])")
_WORD = re.compile(r"[^\W_]+")
_CYRILLIC = re.compile(r"[а-яё]")
_CACHE_LIMIT = 200_000


@dataclass(frozen=True, kw_only=True, slots=True)
class LexicalSettings:
    """BM25 parameters and how much each part of a card counts."""

    k1: float = 1.2
    """Term-frequency saturation."""
    b: float = 0.75
    """Length normalisation: 0 ignores card length, 1 fully normalises it."""
    name_weight: int = 2
    """Times the name words are repeated in the indexed text: a name is short and precise."""
    tag_weight: int = 2
    parameter_weight: int = 1
    method: str = "lucene"
    """A bm25s scoring variant: `lucene`, `robertson`, `atire`, `bm25l` or `bm25+`."""


class Analyzer:
    """Text to index terms: split identifiers, lower-case, drop stop words, stem.

    Words in Cyrillic are stemmed as Russian, all others as English; one catalog often
    mixes both, and a query in either language must still meet a card in the other
    only through shared identifiers, which stay unstemmed enough to match.
    """

    def __init__(self, *, stopwords: Iterable[str] | None = None) -> None:
        stemmer = require("Stemmer", extra="retrieval", package="PyStemmer")
        self._english = stemmer.Stemmer("english")
        self._russian = stemmer.Stemmer("russian")
        if stopwords is None:
            words = require("bm25s.stopwords", extra="retrieval", package="bm25s")
            stopwords = (*words.STOPWORDS_EN_PLUS, *words.STOPWORDS_RUSSIAN)
        self.stopwords = frozenset(stopwords)
        self._stems: dict[str, str] = {}

    def __call__(self, text: str) -> list[str]:
        spaced = _CAMEL_UPPER.sub(r"\1 \2", _CAMEL_LOWER.sub(r"\1 \2", text)).lower()
        terms = []
        for word in _WORD.findall(spaced):
            # One-letter words and bare numbers match everything and mean nothing here.
            if len(word) < 2 or word.isdigit() or word in self.stopwords:
                continue
            terms.append(self._stem(word))
        return terms

    def _stem(self, word: str) -> str:
        stem = self._stems.get(word)
        if stem is None:
            if len(self._stems) > _CACHE_LIMIT:
                self._stems.clear()
            stemmer = self._russian if _CYRILLIC.search(word) else self._english
            stem = self._stems[word] = stemmer.stemWord(word)
        return stem


class LexicalIndex:
    """BM25 over the cards of a set of tools, keyed by tool name."""

    def __init__(self, analyzer: Analyzer, settings: LexicalSettings) -> None:
        self._bm25s = require("bm25s", extra="retrieval")
        self.analyzer = analyzer
        self.settings = settings
        self._terms: dict[str, list[str]] = {}
        self._rows: list[str] = []
        self._row_of: dict[str, int] = {}
        self._alive: Any = None
        self._masked = 0
        self._retriever: Any = None
        self._stale = False

    def __len__(self) -> int:
        return len(self._terms)

    def put(self, name: str, terms: list[str]) -> None:
        """Index the terms of a card (`terms_of`), replacing earlier ones of `name`."""
        self._terms[name] = terms
        self._stale = True

    def discard(self, name: str) -> None:
        """Stop finding `name`; masks its row and rebuilds only when many rows are masked."""
        if self._terms.pop(name, None) is None:
            return
        row = self._row_of.get(name)
        if row is not None and self._alive is not None and self._alive[row]:
            self._alive[row] = False
            self._masked += 1
            if self._masked * 4 > len(self._rows):
                self._stale = True

    def terms_of(self, card: Card) -> list[str]:
        """The indexed terms of a card, with the configured repetitions per part."""
        s = self.settings
        analyze = self.analyzer
        terms = analyze(" ".join(card.words)) * s.name_weight
        terms += analyze(card.description)
        terms += analyze(" ".join(card.parameters)) * s.parameter_weight
        terms += analyze(" ".join(card.enums))
        terms += analyze(" ".join(card.tags)) * s.tag_weight
        return terms

    def rank(self, terms: Sequence[str], depth: int) -> tuple[list[str], list[float]]:
        """Names of the best-scoring cards for the query terms, with their BM25 scores."""
        self._build()
        if self._retriever is None or not terms:
            return [], []
        # A repeated query word counts each time: counting it once gained 0.5 points of
        # recall@5 on BFCL non-live but lost more on the LiveMCPBench set (see
        # docs/retrieval.md), so the plain BM25 query model stays.
        ids = self._retriever.get_tokens_ids(list(terms))
        if not ids:
            return [], []
        scores = self._retriever.get_scores_from_ids(ids)
        scores[~self._alive] = 0.0
        rows = top_rows(scores, depth)
        return [self._rows[r] for r in rows], [float(scores[r]) for r in rows]

    def _build(self) -> None:
        if not self._stale:
            return
        import numpy as np

        s = self.settings
        # Rows in name order: equal scores then come out in name order (see top_rows).
        self._rows = sorted(self._terms)
        self._row_of = {name: row for row, name in enumerate(self._rows)}
        self._alive = np.ones(len(self._rows), dtype=bool)
        self._masked = 0
        self._stale = False
        if not self._rows:
            self._retriever = None
            return
        retriever = self._bm25s.BM25(k1=s.k1, b=s.b, method=s.method)
        # A card with no terms still needs a row; the empty token never matches a query.
        corpus = [self._terms[name] or [""] for name in self._rows]
        retriever.index(corpus, show_progress=False)
        self._retriever = retriever
