"""Ranking helpers: a deterministic top-k over score arrays, and reciprocal rank fusion.

Scores from BM25 and from cosine similarity live on different scales, and BM25 scores of
different queries are not comparable either. Fusing ranks rather than scores needs no
calibration, which is why every combination in this package goes through RRF.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Ranking", "interleave", "reciprocal_rank_fusion", "top_rows"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Ranking:
    """One ranked list of tool names and the weight it carries in the fusion."""

    names: tuple[str, ...]
    """Best first."""
    weight: float = 1.0
    scores: tuple[float, ...] = ()
    """The raw scores behind the order (BM25 or cosine), aligned with `names`, for display."""


def top_rows(scores: Any, depth: int, *, floor: float | None = 0.0) -> list[int]:
    """Rows of the `depth` best scores, best first; ties go to the lower row.

    Rows are kept in name order by the indexes, so equal scores always come out in name
    order whatever order the tools were added in. Scores at or below `floor` are left out.
    """
    import numpy as np

    rows = np.arange(len(scores)) if floor is None else np.flatnonzero(scores > floor)
    if depth <= 0 or len(rows) == 0:
        return []
    values = scores[rows]
    if len(rows) > depth:
        # Keep every row tied with the depth-th score so the cut does not depend on
        # how argpartition happens to order equal values.
        kth = np.partition(values, len(values) - depth)[len(values) - depth]
        keep = values >= kth
        rows, values = rows[keep], values[keep]
    order = np.lexsort((rows, -values))
    return [int(r) for r in rows[order][:depth]]


def reciprocal_rank_fusion(
    rankings: Sequence[Ranking], *, k: float = 60.0
) -> list[tuple[str, float]]:
    """Fuse rankings: each name scores sum(weight / (k + rank)); ties broken by name.

    Cormack, Clarke and Büttcher (SIGIR 2009). A small `k` lets the head of each list
    count more, which suits short candidate lists such as one intent of a query.
    """
    fused: dict[str, float] = {}
    for ranking in rankings:
        if ranking.weight <= 0:
            continue
        for position, name in enumerate(ranking.names, start=1):
            fused[name] = fused.get(name, 0.0) + ranking.weight / (k + position)
    return sorted(fused.items(), key=lambda item: (-item[1], item[0]))


def interleave(rankings: Sequence[Ranking], depth: int) -> tuple[str, ...]:
    """The first `depth` names of each ranking taken in turns: every first, then every second.

    Given the rankings of each intent of a query, this puts each intent's best tool near
    the top, so one intent with rare words cannot push another's tool out of the top k.
    """
    heads: dict[str, None] = {}
    for position in range(depth):
        for ranking in rankings:
            if position < len(ranking.names):
                heads.setdefault(ranking.names[position])
    return tuple(heads)
