"""The tool index: cards of many tools, searched lexically and (optionally) densely."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from callgate._errors import UnknownToolError, UserError
from callgate.contract import Tool
from callgate.retrieval._card import Card, card_for
from callgate.retrieval._dense import DenseIndex, Embedder
from callgate.retrieval._fusion import Ranking, interleave, reciprocal_rank_fusion
from callgate.retrieval._lexical import Analyzer, LexicalIndex, LexicalSettings
from callgate.retrieval._query import identifiers, joined, segments

__all__ = ["Hit", "IndexSettings", "ToolFilter", "ToolIndex"]

ToolFilter = Callable[[Tool], bool]
"""Says whether a tool may be offered (for instance: the principal may call it at all)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class IndexSettings:
    """How rankings are made and fused. The defaults were tuned on BFCL non-live only."""

    lexical: LexicalSettings = field(default_factory=LexicalSettings)
    rrf_k: float = 5.0
    """Reciprocal rank fusion constant: smaller lets the head of each ranking count more."""
    segment_weight: float = 0.5
    """Weight of each sentence or clause ranked on its own, against 1.0 for the whole query."""
    min_segment_terms: int = 2
    """Shorter segments ("Thanks!") are not ranked on their own."""
    head_weight: float = 0.5
    """Weight of the segments' heads taken in turns, when clauses are chained (`then`, ...)."""
    head_depth: int = 2
    """How many of each segment's best tools the turn-taking ranking takes."""
    dense_weight: float = 1.0
    """Weight of the embedding ranking (when the index has an embedder)."""
    context_weight: float = 0.5
    """Weight of the rankings for the context (earlier messages) of a query."""
    mention_weight: float = 2.0
    """Weight of tools the query names outright (`call get_weather for Paris`)."""
    depth: int = 100
    """Candidates taken from each ranking before fusion; deepened when a filter needs more."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Hit:
    """One tool found for a query."""

    tool: Tool
    score: float
    """The fused score (reciprocal rank fusion); only its order is meaningful."""
    lexical_score: float | None = None
    """BM25 score of the card for the whole query, when it matched at all."""
    dense_score: float | None = None
    """Cosine similarity of card and query, when the index has an embedder."""


class ToolIndex:
    """Tools searchable by what they do. Thread-safe; results are deterministic.

    Equal scores are ordered by tool name, so the same tools and query give the same
    ranking whatever order the tools were added in.
    """

    def __init__(
        self,
        tools: Iterable[Tool] = (),
        *,
        embedder: Embedder | None = None,
        settings: IndexSettings | None = None,
        analyzer: Analyzer | None = None,
    ) -> None:
        self.settings = settings or IndexSettings()
        self.analyzer = analyzer or Analyzer()
        self._lexical = LexicalIndex(self.analyzer, self.settings.lexical)
        self._dense = DenseIndex(embedder) if embedder is not None else None
        self._tools: dict[str, Tool] = {}
        self._cards: dict[str, Card] = {}
        self._mentions: dict[str, str] = {}
        self._lock = threading.RLock()
        self.extend(tools)

    # -- the set of tools ------------------------------------------------------------

    def add(self, tool: Tool, *, replace: bool = False) -> None:
        """Index `tool`; a second tool of the same name is an error unless `replace`."""
        self.extend([tool], replace=replace)

    def extend(self, tools: Iterable[Tool], *, replace: bool = False) -> None:
        """Index several tools at once (their embeddings are computed in one batch)."""
        batch = list(tools)
        for item in batch:
            if not isinstance(item, Tool):
                raise UserError(f"ToolIndex expects Tool objects, got {type(item).__name__}")
        names = [t.name for t in batch]
        if len(set(names)) != len(names):
            raise UserError("the tools to index have duplicate names")
        cards = [card_for(t) for t in batch]
        if not replace:
            self._refuse_taken(names)
        # Analysis and embedding are the slow parts: done before taking the lock, so
        # searches go on meanwhile.
        terms = [self._lexical.terms_of(c) for c in cards]
        vectors = (
            self._dense.embed([c.text() for c in cards])
            if self._dense is not None and cards
            else None
        )
        with self._lock:
            if not replace:
                self._refuse_taken(names)
            if self._dense is not None and vectors is not None:
                self._dense.put_many(names, vectors)
            for tool, card, card_terms in zip(batch, cards, terms, strict=True):
                self._tools.pop(tool.name, None)  # a replaced tool moves to the end
                self._tools[tool.name] = tool
                self._cards[tool.name] = card
                self._lexical.put(card.name, card_terms)
                for word in _mention_keys(tool):
                    self._mentions.setdefault(word, tool.name)

    def _refuse_taken(self, names: list[str]) -> None:
        taken = [n for n in names if n in self._tools]
        if taken:
            raise UserError(
                f"a tool named {taken[0]!r} is already indexed; "
                "remove it first or pass replace=True"
            )

    def remove(self, name: str) -> Tool:
        """Stop finding the tool called `name` and return it."""
        with self._lock:
            tool = self._tools.pop(name, None)
            if tool is None:
                raise UnknownToolError(name)
            del self._cards[name]
            self._lexical.discard(name)
            if self._dense is not None:
                self._dense.discard(name)
            for word in _mention_keys(tool):
                if self._mentions.get(word) == name:
                    del self._mentions[word]
        return tool

    def get(self, name: str) -> Tool | None:
        """The indexed tool called `name` (a dotted group name finds its `_` form)."""
        found = self._tools.get(name)
        if found is None and "." in name:
            found = self._tools.get(name.replace(".", "_"))
        return found

    def card(self, name: str) -> Card:
        """The card `name` is searched by."""
        return self._cards[name]

    @property
    def tools(self) -> list[Tool]:
        """The indexed tools, in the order they were added."""
        with self._lock:
            return list(self._tools.values())

    @property
    def dense(self) -> bool:
        """True when searches also rank by embeddings."""
        return self._dense is not None

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[Tool]:
        return iter(self.tools)

    def __repr__(self) -> str:
        kind = "lexical + dense" if self._dense is not None else "lexical"
        return f"ToolIndex({len(self)} tools, {kind})"

    # -- searching -------------------------------------------------------------------

    def search(
        self, query: str, k: int = 8, *, context: str = "", allowed: ToolFilter | None = None
    ) -> list[Hit]:
        """The `k` best tools for `query` among those `allowed` lets through, best first.

        `context` (earlier messages, say) is searched too, with a lower weight.
        """
        if k < 1:
            return []
        hits: list[Hit] = []
        for hit in self.ranked(query, context=context, allowed=allowed):
            hits.append(hit)
            if len(hits) == k:
                break
        return hits

    def select(
        self,
        query: str,
        k: int = 6,
        *,
        pinned: Iterable[str | Tool] = (),
        allowed: ToolFilter | None = None,
        context: str = "",
    ) -> list[Tool]:
        """The pinned tools, then the `k` best others; see `select_tools`."""
        from callgate.retrieval._select import select_tools

        return select_tools(self, query, k, pinned=pinned, allowed=allowed, context=context)

    def ranked(
        self, query: str, *, context: str = "", allowed: ToolFilter | None = None
    ) -> Iterator[Hit]:
        """Every tool that matches `query` at all, best first, computed as far as consumed.

        Tools that `allowed` rejects are skipped, and the candidate lists are deepened
        until enough tools pass or every candidate was seen.
        """
        vectors = self._embed(query, context)
        seen: set[str] = set()
        depth = max(self.settings.depth, 1)
        while True:
            with self._lock:
                fused, lexical, dense, truncated, tools = self._fuse(query, context, vectors, depth)
            for name, score in fused:
                if name in seen:
                    continue
                seen.add(name)
                tool = tools.get(name)
                if tool is None or (allowed is not None and not allowed(tool)):
                    continue
                yield Hit(
                    tool=tool,
                    score=score,
                    lexical_score=lexical.get(name),
                    dense_score=dense.get(name),
                )
            if not truncated:
                return
            depth *= 4

    def _embed(self, query: str, context: str) -> list[Any]:
        if self._dense is None:
            return []
        texts = [t for t in (query, context) if t.strip()]
        return list(self._dense.embed_queries(texts)) if texts else []

    def _fuse(
        self, query: str, context: str, vectors: list[Any], depth: int
    ) -> tuple[list[tuple[str, float]], dict[str, float], dict[str, float], bool, dict[str, Tool]]:
        rankings = self._rankings(query, depth, vectors[0] if query.strip() and vectors else None)
        if context.strip():
            rankings += self._rankings(
                context,
                depth,
                vectors[-1] if vectors else None,
                weight=self.settings.context_weight,
            )
        truncated = any(len(r.names) >= depth for r in rankings)
        fused = reciprocal_rank_fusion(rankings, k=self.settings.rrf_k)
        lexical = dict(zip(rankings[0].names, rankings[0].scores, strict=True))
        dense = next(
            (
                dict(zip(r.names, r.scores, strict=True))
                for r in rankings
                if isinstance(r, _DenseRanking)
            ),
            {},
        )
        # A snapshot of the tools found, taken under the lock: a concurrent remove must
        # not turn a name into a tool that is no longer there.
        found = {name: self._tools[name] for name, _ in fused if name in self._tools}
        return fused, lexical, dense, truncated and depth < len(self._tools), found

    def _rankings(
        self, query: str, depth: int, vector: Any, *, weight: float = 1.0
    ) -> list[Ranking]:
        s = self.settings
        names, scores = self._lexical.rank(self.analyzer(query), depth)
        rankings = [Ranking(names=tuple(names), scores=tuple(scores), weight=weight)]
        rankings += self._segment_rankings(query, depth, weight)
        if self._dense is not None and vector is not None:
            names, scores = self._dense.rank(vector, depth)
            rankings.append(
                _DenseRanking(
                    names=tuple(names), scores=tuple(scores), weight=weight * s.dense_weight
                )
            )
        named = [self._mentions[w] for w in identifiers(query) if w in self._mentions]
        if named:
            rankings.append(
                Ranking(names=tuple(dict.fromkeys(named)), weight=weight * s.mention_weight)
            )
        return rankings

    def _segment_rankings(self, query: str, depth: int, weight: float) -> list[Ranking]:
        """A ranking per sentence or clause, and their heads in turns for chained requests."""
        s = self.settings
        parts = segments(query)
        if len(parts) < 2:
            return []
        rankings = []
        for part in parts:
            terms = self.analyzer(part)
            if len(terms) >= s.min_segment_terms:
                names, _ = self._lexical.rank(terms, depth)
                rankings.append(Ranking(names=tuple(names), weight=weight * s.segment_weight))
        # Only chained requests get the turn-taking ranking: on BFCL non-live it lifted
        # "all gold tools in the top 5" by 4 points, but given for any multi-sentence
        # query it lost on BFCL live, where several sentences often describe one task.
        if len(rankings) > 1 and s.head_weight > 0 and joined(query):
            heads = interleave(rankings, s.head_depth)
            rankings.append(Ranking(names=heads, weight=weight * s.head_weight))
        return rankings


@dataclass(frozen=True, kw_only=True, slots=True)
class _DenseRanking(Ranking):
    """Marks the embedding ranking so its cosines can be reported per hit."""


def _mention_keys(tool: Tool) -> list[str]:
    """Lower-cased identifier forms of a tool's names that a query may quote."""
    names = [tool.name]
    source = tool.metadata.get("source_name")
    if isinstance(source, str):
        names.append(source)
    return [w for n in names for w in identifiers(n) if w == n.lower()]
