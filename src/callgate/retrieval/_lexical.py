"""Lexical search: the terms of `Analyzer` scored by `bm25s`, queries weighted per term.

A query is a set of terms, each counted once with a weight for its kind (a stem 1.0, a
written form or a stem head less); its score is the weighted sum of the terms' BM25
columns, which bm25s precomputes for the whole corpus.

bm25s cannot add a document to a built index: its scores are precomputed per term and
depend on the whole corpus (document frequencies, average length). So:

* removing a tool masks its row; no rebuild. Until the next rebuild the removed card
  still counts in the corpus statistics, which moves other scores only slightly; once a
  quarter of the rows are masked the index is rebuilt.
* adding or replacing a tool marks the index stale; the next search rebuilds it from the
  tokens kept per tool, so nothing is analysed twice and a burst of additions costs one
  rebuild (at 20,000 tools one to two seconds here, see benchmarks/retrieval.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from callgate._extras import require
from callgate.retrieval._analysis import Analyzer, Term, TermKind
from callgate.retrieval._card import Card
from callgate.retrieval._concepts import concepts
from callgate.retrieval._fusion import top_rows

__all__ = ["LexicalIndex", "LexicalSettings", "QueryTerms"]

QueryTerms = Mapping[str, float]
"""Index terms of a query, each once, with the weight it counts with."""

_QUERY_CACHE = 256
_CACHED_CHARS = 1000
"""Only texts up to this long are cached, so the cache holds at most ~256 KB of text and
its terms; a longer text (a pasted document) is rarely asked twice and is analysed anew."""
_MARK: dict[TermKind, str] = {"stem": "", "word": "=", "head": "~"}
"""Written forms and stem heads live in the same vocabulary as stems, marked apart."""


@dataclass(frozen=True, kw_only=True, slots=True)
class LexicalSettings:
    """BM25 parameters and how much each part of a card and each kind of term counts."""

    k1: float = 1.2
    """Term-frequency saturation."""
    b: float = 0.75
    """Length normalisation: 0 ignores card length, 1 fully normalises it."""
    name_weight: int = 2
    """Times the name words are repeated in the indexed text: a name is short and precise."""
    tag_weight: int = 2
    parameter_weight: int = 1
    context_weight: int = 1
    """Times the server / namespace words are repeated."""
    word_weight: float = 0.3
    """Weight of a query word matched as written (0 leaves written forms out of the index)."""
    head_weight: float = 0.3
    """Weight of a query word matched by the head of its stem (0 leaves heads out)."""
    concept_weight: float = 0.7
    """Weight of the kinds of value a query names ("dollars" -> currency, two currencies ->
    a conversion; see `_concepts.py`); 0 leaves them out. On BFCL non-live 0.5 to 1.0 gave
    about the same."""
    method: str = "lucene"
    """A bm25s scoring variant: `lucene`, `robertson`, `atire`, `bm25l` or `bm25+`."""

    def weight(self, kind: TermKind) -> float:
        return {"stem": 1.0, "word": self.word_weight, "head": self.head_weight}[kind]


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
        self._queries: dict[str, QueryTerms] = {}

    def __len__(self) -> int:
        return len(self._terms)

    def put(self, name: str, terms: list[str]) -> None:
        """Index the terms of a card (`terms_of`), replacing earlier ones of `name`."""
        self._terms[name] = terms
        self._stale = True

    def terms(self, name: str) -> list[str]:
        """The indexed terms of `name` (empty when it is not indexed)."""
        return self._terms.get(name, [])

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
        parts = (
            (" ".join(card.words), s.name_weight),
            (card.description, 1),
            (" ".join(card.parameters), s.parameter_weight),
            (" ".join(card.enums), 1),
            (" ".join(card.tags), s.tag_weight),
            (" ".join(card.context), s.context_weight),
        )
        out: list[str] = []
        for text, times in parts:
            if text and times > 0:
                out += self._marked(self.analyzer.terms(text)) * times
        return out

    def query_terms(self, text: str) -> QueryTerms:
        """The terms of a query, each counted once, weighted by kind.

        A word the user repeats ("weather today and weather tomorrow") says nothing more
        about the tool wanted; counted each time it lets one word outweigh the others.
        A search reads each of its texts (the query, its sentences and clauses) more than
        once, so the last few short texts' terms are kept.
        """
        if len(text) > _CACHED_CHARS:
            return MappingProxyType(self._query_terms(text))
        found = self._queries.get(text)
        if found is None:
            if len(self._queries) >= _QUERY_CACHE:
                self._queries.clear()
            found = self._queries[text] = MappingProxyType(self._query_terms(text))
        return found

    def _query_terms(self, text: str) -> dict[str, float]:
        out: dict[str, float] = {}
        for term, kind in self.analyzer.terms(text):
            weight = self.settings.weight(kind)
            if weight > 0:
                marked = _MARK[kind] + term
                out[marked] = max(out.get(marked, 0.0), weight)
        if self.settings.concept_weight > 0:
            # Read from `text` as written: value words are short ("km", "$") and some
            # are stop words; the concept itself counts as a stem.
            for stem in self.analyzer(" ".join(concepts(text))):
                out[stem] = max(out.get(stem, 0.0), self.settings.concept_weight)
        return out

    def _marked(self, terms: Sequence[Term]) -> list[str]:
        return [_MARK[kind] + term for term, kind in terms if self.settings.weight(kind) > 0]

    def rank(self, terms: QueryTerms, depth: int) -> tuple[list[str], list[float]]:
        """Names of the best-scoring cards for weighted query terms, with their scores."""
        self._build()
        retriever = self._retriever
        if retriever is None or not terms:
            return [], []
        import numpy as np

        vocab = retriever.vocab_dict
        found = [(vocab[t], w) for t, w in terms.items() if t in vocab]
        if not found:
            return [], []
        # bm25s keeps each term's precomputed scores as a column of a sparse matrix;
        # a weighted query is the weighted sum of its terms' columns.
        matrix = retriever.scores
        data, indices, indptr = matrix["data"], matrix["indices"], matrix["indptr"]
        scores = np.zeros(matrix["num_docs"], dtype=np.float32)
        for token, weight in found:
            start, end = indptr[token], indptr[token + 1]
            scores[indices[start:end]] += weight * data[start:end]
        if retriever.nonoccurrence_array is not None:  # bm25l and bm25+ score absent terms
            scores += sum(w * retriever.nonoccurrence_array[t] for t, w in found)
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
