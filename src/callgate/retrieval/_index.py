"""The tool index: cards of many tools, searched lexically and (optionally) densely."""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from callgate._errors import UnknownToolError, UserError
from callgate.contract import Tool
from callgate.retrieval._analysis import Analyzer
from callgate.retrieval._cache import CacheEntry, IndexCache, entry_key
from callgate.retrieval._card import EMBEDDING_TEXT, Card, card_for, embedding_text
from callgate.retrieval._companions import Companions
from callgate.retrieval._dense import DenseIndex, Embedder
from callgate.retrieval._fusion import Ranking, interleave, reciprocal_rank_fusion
from callgate.retrieval._lexical import LexicalIndex, LexicalSettings
from callgate.retrieval._query import clauses, identifiers, joined, segments

__all__ = ["Hit", "IndexSettings", "ToolFilter", "ToolIndex"]

_log = logging.getLogger("callgate.retrieval")

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
    """Weight of the segments' best tools taken in turns, when clauses are chained."""
    head_depth: int = 2
    """How many of each segment's best tools the turn-taking ranking takes."""
    intent_slots: bool = True
    """Give each chained clause's best tool a place in the first k (see `_with_intents`)."""
    intent_window: int = 5
    """The k that `ranked()` keeps places in when it is not told how many will be used."""
    companion_places: int = 1
    """Places in the first k for companions of the tools before them (0: none)."""
    dense_weight: float = 0.3
    """Weight of the embedding ranking (when the index has an embedder): on BFCL non-live
    0.2 to 0.5 gave about the same; 1.0 lost multi-tool completeness there."""
    context_weight: float = 0.5
    """Weight of the rankings for the context (earlier messages) of a query."""
    mention_weight: float = 2.0
    """Weight of tools the query names outright (`call get_weather for Paris`)."""
    depth: int = 100
    """Candidates taken from each ranking before fusion; deepened when a filter needs more."""
    max_query_chars: int = 4000
    """A longer query (or context) is cut at a word boundary before this many characters,
    with a warning on the `callgate.retrieval` logger: what a search costs stays bounded,
    and the opening of a message says what it asks for. `search_tool` refuses longer."""

    def __post_init__(self) -> None:
        limit = self.max_query_chars
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise UserError(f"max_query_chars must be a positive int, not {limit!r}")


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
        cache: str | os.PathLike[str] | None = None,
        companions: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        self.settings = settings or IndexSettings()
        self.analyzer = analyzer or Analyzer()
        self._lexical = LexicalIndex(self.analyzer, self.settings.lexical)
        self._dense = DenseIndex(embedder) if embedder is not None else None
        self._tools: dict[str, Tool] = {}
        self._cards: dict[str, Card] = {}
        self._keys: dict[str, str] = {}
        self._mentions: dict[str, str] = {}
        self._companions = Companions(declared=companions)
        self._lock = threading.RLock()
        self._cache = (
            IndexCache(cache, setup=self._setup(), model=_model_id(embedder))
            if cache is not None
            else None
        )
        self._cached = self._cache.load() if self._cache is not None else {}
        self.extend(tools)
        self._cached = {}  # kept only for the first build; `save()` writes what is indexed

    def _setup(self) -> str:
        text = repr(self.settings.lexical) + self.analyzer.signature()
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]

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
        keys = [entry_key(t, c) for t, c in zip(batch, cards, strict=True)]
        # Analysis and embedding are the slow parts: done before taking the lock, so
        # searches go on meanwhile; cached cards skip both.
        terms, vectors = self._analyse(cards, keys)
        with self._lock:
            if not replace:
                self._refuse_taken(names)
            if self._dense is not None and vectors is not None:
                self._dense.put_many(names, vectors)
            for tool, card, card_terms, key in zip(batch, cards, terms, keys, strict=True):
                replaced = self._tools.pop(tool.name, None)  # a replaced tool moves to the end
                if replaced is not None:
                    self._companions.removed(replaced)
                self._tools[tool.name] = tool
                self._companions.added(tool)
                self._cards[tool.name] = card
                self._keys[tool.name] = key
                self._lexical.put(card.name, card_terms)
                for word in _mention_keys(tool):
                    self._mentions.setdefault(word, tool.name)
        if self._cache is not None and batch:
            self.save()

    def _analyse(self, cards: list[Card], keys: list[str]) -> tuple[list[list[str]], Any]:
        """Terms and vectors of the cards: read from the cache where it has them."""
        cached = [self._cached.get(k) for k in keys]
        terms = [
            e.terms if e is not None else self._lexical.terms_of(c)
            for c, e in zip(cards, cached, strict=True)
        ]
        if self._dense is None or not cards:
            return terms, None
        import numpy as np

        todo = [i for i, e in enumerate(cached) if e is None or e.vector is None]
        fresh = self._dense.embed([embedding_text(cards[i]) for i in todo]) if todo else []
        vectors: list[Any] = [e.vector if e is not None else None for e in cached]
        for i, vector in zip(todo, fresh, strict=True):
            vectors[i] = vector
        return terms, np.vstack(vectors).astype(np.float32)

    def save(self) -> None:
        """Write the indexed cards' terms and vectors to the cache folder (if one is set).

        The index saves itself after every `extend`; call this after removals to drop
        removed tools from the folder too.
        """
        if self._cache is None:
            return
        with self._lock:
            entries = {
                self._keys[name]: CacheEntry(
                    terms=self._lexical.terms(name),
                    vector=self._dense.vector(name) if self._dense is not None else None,
                )
                for name in self._tools
            }
        self._cache.save(entries)

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
            self._keys.pop(name, None)
            self._companions.removed(tool)
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
        for hit in self.ranked(query, context=context, allowed=allowed, room=k):
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
        self,
        query: str,
        *,
        context: str = "",
        allowed: ToolFilter | None = None,
        room: int | None = None,
    ) -> Iterator[Hit]:
        """Every tool that matches `query` at all, best first, computed as far as consumed.

        Tools that `allowed` rejects are skipped, and the candidate lists are deepened
        until enough tools pass or every candidate was seen.
        """
        query = _cut(query, self.settings.max_query_chars, "query")
        context = _cut(context, self.settings.max_query_chars, "context")
        parts = self._parts(segments(query)) if query.strip() else []
        chained = self._parts(clauses(query)) if self.settings.intent_slots else []
        vectors = self._embed([query, *parts, *chained, context])
        seen: set[str] = set()
        depth = max(self.settings.depth, 1)
        while True:
            with self._lock:
                found = self._find(query, (parts, chained), context, vectors, depth, room)
            for name, score in found.order:
                if name in seen:
                    continue
                seen.add(name)
                tool = found.tools.get(name)
                if tool is None or (allowed is not None and not allowed(tool)):
                    continue
                yield Hit(
                    tool=tool,
                    score=score,
                    lexical_score=found.lexical.get(name),
                    dense_score=found.dense.get(name),
                )
            if not found.truncated:
                return
            depth *= 4

    def _parts(self, found: list[str]) -> list[str]:
        """The segments that say enough to be ranked on its own ("Thanks!" does not); none
        unless at least two do."""
        enough = self.settings.min_segment_terms
        kept = [
            p for p in found if sum(w >= 1 for w in self._lexical.query_terms(p).values()) >= enough
        ]
        return kept if len(kept) > 1 else []

    def _embed(self, texts: list[str]) -> dict[str, Any]:
        """One batch for the query, its segments and its context: vectors by text."""
        if self._dense is None:
            return {}
        todo = list(dict.fromkeys(t for t in texts if t.strip()))
        return dict(zip(todo, self._dense.embed_queries(todo), strict=True)) if todo else {}

    def _find(
        self,
        query: str,
        segmented: tuple[list[str], list[str]],
        context: str,
        vectors: dict[str, Any],
        depth: int,
        room: int | None,
    ) -> _Found:
        """Fuse the rankings of the query, its segments and context; then give chained
        clauses (the second list of `segmented`) and companions their places."""
        s = self.settings
        parts, chained = segmented
        texts = [query, *parts, *chained, *([context] if context.strip() else [])]
        words = {t: self._lexical.rank(self._lexical.query_terms(t), depth) for t in set(texts)}
        near = self._dense.rank(vectors, depth) if self._dense is not None else {}

        def ranked(text: str, weight: float = 1.0) -> list[Ranking]:
            return self._rankings(text, words[text], near.get(text), weight=weight)

        whole = ranked(query)
        intents = [ranked(p, s.segment_weight) for p in parts]
        rankings = [*whole, *(r for intent in intents for r in intent)]
        if context.strip():
            rankings += ranked(context, s.context_weight)
        bests = [reciprocal_rank_fusion(intent, k=s.rrf_k) for intent in intents]
        if len(bests) > 1 and s.head_weight > 0 and joined(query):
            heads = interleave([Ranking(names=tuple(n for n, _ in b)) for b in bests], s.head_depth)
            rankings.append(Ranking(names=heads, weight=s.head_weight))
        fused = reciprocal_rank_fusion(rankings, k=s.rrf_k)
        if chained:
            slots = [reciprocal_rank_fusion(ranked(p), k=s.rrf_k) for p in chained]
            order = _with_intents(fused, slots, room or s.intent_window)
        else:
            order = fused
        if s.companion_places > 0:
            order = self._with_companions(order, room or s.intent_window)
        dense = next((r for r in whole if isinstance(r, _DenseRanking)), None)
        # A snapshot of the tools found, taken under the lock: a concurrent remove must
        # not turn a name into a tool that is no longer there.
        return _Found(
            order=order,
            lexical=dict(zip(whole[0].names, whole[0].scores, strict=True)),
            dense=dict(zip(dense.names, dense.scores, strict=True)) if dense else {},
            tools={name: self._tools[name] for name, _ in order if name in self._tools},
            truncated=any(len(r.names) >= depth for r in rankings) and depth < len(self._tools),
        )

    def _rankings(
        self,
        query: str,
        words: tuple[list[str], list[float]],
        near: tuple[list[str], list[float]] | None,
        *,
        weight: float = 1.0,
    ) -> list[Ranking]:
        """The lexical ranking of `query` (`words`: the best cards by BM25 and their
        scores) first, then its dense ranking (`near`: the nearest cards and their
        cosines) and the tools it names."""
        s = self.settings
        names, scores = words
        rankings = [Ranking(names=tuple(names), scores=tuple(scores), weight=weight)]
        if near is not None:
            names, scores = near
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

    def _with_companions(
        self, order: list[tuple[str, float]], room: int
    ) -> list[tuple[str, float]]:
        """`order` with the companions of its first tools in the last places of the first
        `room` (at most `companion_places` of them), unless they are there already."""
        places = min(self.settings.companion_places, room - 1)
        if places <= 0:
            return order
        head = [name for name, _ in order[: room - places]]
        shown = {name for name, _ in order[:room]}
        extra = [
            c for name in head for c in self._companions.of(name, self._tools) if c not in shown
        ]
        extra = list(dict.fromkeys(extra))[:places]
        if not extra:
            return order
        score = dict(order)
        rest = [item for item in order if item[0] not in extra]
        keep = room - len(extra)
        return [*rest[:keep], *((c, score.get(c, 0.0)) for c in extra), *rest[keep:]]

    def companions(self, name: str) -> tuple[Tool, ...]:
        """The tools `name` needs first: declared ones, then those learned from its
        required parameters (see `_companions.py`)."""
        with self._lock:
            return tuple(self._tools[c] for c in self._companions.of(name, self._tools))


@dataclass(frozen=True, kw_only=True, slots=True)
class _Found:
    order: list[tuple[str, float]]
    lexical: dict[str, float]
    dense: dict[str, float]
    tools: dict[str, Tool]
    truncated: bool


def _with_intents(
    fused: list[tuple[str, float]], intents: list[list[tuple[str, float]]], room: int
) -> list[tuple[str, float]]:
    """`fused`, with a place in its first `room` for the best tool of every intent.

    "Convert 100 USD to EUR, then email the result to Ann": the whole query's ranking
    may fill every place with currency tools. An intent whose best tool is not among the
    first `room` gets it placed at the end of them, displacing the weakest of the
    whole query's picks; the first place always stays the whole query's best.
    """
    head = {name for name, _ in fused[:room]}
    where = {name: i for i, (name, _) in enumerate(fused)}
    lifted: list[tuple[str, float]] = []
    for ranking in intents:
        if not ranking or ranking[0][0] in head:
            continue
        name = ranking[0][0]
        if name in where and all(name != n for n, _ in lifted):
            lifted.append(fused[where[name]])
    if not lifted:
        return fused
    lifted = lifted[: max(room - 1, 0)]
    moved = {name for name, _ in lifted}
    rest = [item for item in fused if item[0] not in moved]
    keep = max(room - len(lifted), 1)
    return [*rest[:keep], *lifted, *rest[keep:]]


@dataclass(frozen=True, kw_only=True, slots=True)
class _DenseRanking(Ranking):
    """Marks the embedding ranking so its cosines can be reported per hit."""


def _cut(text: str, limit: int, what: str) -> str:
    """`text`, or its opening up to the last space within `limit` characters."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    space = max(head.rfind(" "), head.rfind("\n"))
    cut = head[:space] if space > limit // 2 else head
    _log.warning(
        "the %s of a tool search was cut to %d of %d characters", what, len(cut), len(text)
    )
    return cut


def _model_id(embedder: Embedder | None) -> str | None:
    """What vectors in the cache were made with: the embedder's `model_id`, or its class."""
    if embedder is None:
        return None
    named = getattr(embedder, "model_id", None)
    kind = type(embedder)
    model = str(named) if named else f"{kind.__module__}.{kind.__qualname__}"
    return f"{model}:{EMBEDDING_TEXT}"


def _mention_keys(tool: Tool) -> list[str]:
    """Lower-cased identifier forms of a tool's names that a query may quote."""
    names = [tool.name]
    source = tool.metadata.get("source_name")
    if isinstance(source, str):
        names.append(source)
    return [w for n in names for w in identifiers(n) if w == n.lower()]
