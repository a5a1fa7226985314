from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import pytest

from callgate.retrieval import ToolIndex
from callgate.retrieval._dense import DenseIndex
from tests.conftest import RETRIEVAL, require
from tests.retrieval.test_index import WordEmbedder, names
from tests.retrieval.tools import catalog

require(*RETRIEVAL, extra="retrieval")


class RandomEmbedder:
    """Unit vectors drawn from a seeded generator: many distinct cards, no model."""

    def __init__(self, dim: int) -> None:
        self.dim = dim

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        rng = np.random.default_rng(len(texts))
        out = rng.standard_normal((len(texts), self.dim)).astype(np.float32)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def test_dense_rank_is_exact_over_several_blocks_and_any_batch() -> None:
    import numpy as np

    # 5,000 cards of 128 floats: 2.5 MB, so the products run over several row blocks.
    dense = DenseIndex(RandomEmbedder(128))
    cards = [f"card_{i:05d}" for i in range(5000)]
    matrix = dense.embed(cards)
    dense.put_many(cards, matrix)
    queries = {f"q{i}": v for i, v in enumerate(RandomEmbedder(128).embed(["a", "b", "c"]))}
    together = dense.rank(queries, 50)
    for text, vector in queries.items():
        alone = dense.rank({text: vector}, 50)[text]
        assert together[text] == alone  # a vector's ranking does not depend on its batch
        cosines = np.asarray([float(row @ vector) for row in matrix], dtype=np.float64)
        best = sorted(range(len(cards)), key=lambda r: (-cosines[r], r))[:50]
        assert alone[0] == [cards[r] for r in best]
        assert alone[1] == pytest.approx([cosines[r] for r in best], abs=1e-5)


def test_a_failing_embedder_fails_the_search_and_the_next_one_works() -> None:
    class Flaky(WordEmbedder):
        fail = False

        def embed(self, texts: Sequence[str]) -> Any:
            if self.fail:
                raise RuntimeError("model unavailable")
            return super().embed(texts)

    embedder = Flaky()
    index = ToolIndex(catalog(), embedder=embedder)
    embedder.fail = True
    with pytest.raises(RuntimeError, match="model unavailable"):
        index.search("I need cash", 3)
    embedder.fail = False
    assert names(index.search("I need cash", 1)) == ["convert_currency"]


def test_hybrid_searches_from_many_threads_match_one_thread() -> None:
    index = ToolIndex(catalog(), embedder=WordEmbedder())
    queries = ["I need cash", "rain tomorrow, then email Ann", "dinner table for two", "user"]
    expected = {q: [(h.tool.name, h.score) for h in index.search(q, 4)] for q in queries}
    index._dense._recent.clear()  # type: ignore[union-attr]  # embed again in the threads
    seen: list[tuple[str, list[tuple[str, float]]]] = []
    lock = threading.Lock()

    def search() -> None:
        for q in queries * 20:
            found = [(h.tool.name, h.score) for h in index.search(q, 4)]
            with lock:
                seen.append((q, found))

    threads = [threading.Thread(target=search) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 4 * 20 * len(queries)
    assert all(found == expected[q] for q, found in seen)
