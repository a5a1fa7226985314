"""The index on disk: each card's terms and vector, reused while the card is unchanged.

Analysing 20,000 cards takes seconds and embedding them minutes; a catalog mostly stays
the same from one start to the next. Entries are keyed by the tool's fingerprint and
the digest of its card (so a change of server or tags counts as a change too), under
the analysis settings and the embedding model they were made with: a changed tool is
analysed and embedded again, an unchanged one is read back.

The folder holds `manifest.json` (format, settings, model, keys in row order),
`vocab.json`, and NumPy arrays read with `allow_pickle=False`: `terms.npy` (term ids of
all rows, concatenated), `offsets.npy` (where each row starts) and `vectors.npy`. A
folder that cannot be read, or was written with other settings, is a cache miss, never
an error: the index is rebuilt and the folder rewritten. Writes go to a temporary
folder that then replaces the old one, so no reader ever sees a half-written folder (a
crash between the two renames costs one miss). Only a folder is replaced: where the
path names a file, a pipe or a device, nothing is written.
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from callgate._files import open_regular, read_bytes
from callgate.contract import Tool
from callgate.retrieval._card import Card

__all__ = ["CacheEntry", "IndexCache", "entry_key"]

_FORMAT = 1
_log = logging.getLogger("callgate.retrieval")


def entry_key(tool: Tool, card: Card) -> str:
    """What an entry is stored under: the tool's fingerprint and its card's digest."""
    digest = hashlib.sha256(repr(card).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{tool.fingerprint}:{digest[:32]}"


@dataclass(frozen=True, kw_only=True, slots=True)
class CacheEntry:
    terms: list[str]
    vector: Any = None


class IndexCache:
    """A folder of cached entries for one analysis setup (and one embedding model)."""

    def __init__(self, path: str | os.PathLike[str], *, setup: str, model: str | None) -> None:
        self.path = Path(path)
        self.setup = setup
        """Digest of the analysis and lexical settings the terms were made with."""
        self.model = model
        self.hits = 0
        self.misses = 0

    def load(self) -> dict[str, CacheEntry]:
        """Every readable entry, by key; nothing when the folder is missing or unusable."""
        try:
            return self._read()
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            _log.warning("tool index cache %s unreadable (%s); rebuilding", self.path, exc)
            return {}

    def _read(self) -> dict[str, CacheEntry]:
        import numpy as np

        manifest = json.loads(read_bytes(self.path / "manifest.json").decode("utf-8"))
        if (
            manifest.get("format") != _FORMAT
            or manifest.get("setup") != self.setup
            or manifest.get("model") != self.model
        ):
            return {}
        keys = manifest["keys"]
        vocab = json.loads(read_bytes(self.path / "vocab.json").decode("utf-8"))
        terms, offsets = self._array("terms.npy"), self._array("offsets.npy")
        if not (isinstance(keys, list) and isinstance(vocab, list)):
            raise ValueError("manifest keys or vocabulary is not a list")
        if offsets.shape != (len(keys) + 1,) or int(offsets[-1]) != len(terms):
            raise ValueError("term offsets do not match the rows")
        if len(terms) and (int(terms.min()) < 0 or int(terms.max()) >= len(vocab)):
            raise ValueError("a term id lies outside the vocabulary")
        vectors = None
        if self.model is not None:
            vectors = self._array("vectors.npy")
            if vectors.ndim != 2 or len(vectors) != len(keys):
                raise ValueError("vectors do not match the rows")
        words = np.asarray(vocab, dtype=object)
        return {
            str(key): CacheEntry(
                terms=words[terms[offsets[i] : offsets[i + 1]]].tolist(),
                vector=None if vectors is None else vectors[i],
            )
            for i, key in enumerate(keys)
        }

    def _array(self, name: str) -> Any:
        import numpy as np

        # Through the one reader of named files: a pipe or a device here is a cache miss,
        # where `np.load` of the path would wait for a writer or read forever.
        with open_regular(self.path / name) as handle:
            return np.load(handle, allow_pickle=False)

    def save(self, entries: dict[str, CacheEntry]) -> None:
        """Replace the folder's content with `entries` (best effort: a failure is logged)."""
        try:
            self._write(entries)
        except (OSError, ValueError) as exc:
            _log.warning("tool index cache %s not written (%s)", self.path, exc)

    def _write(self, entries: dict[str, CacheEntry]) -> None:
        import numpy as np

        keys = list(entries)
        vocab: dict[str, int] = {}
        ids = [vocab.setdefault(t, len(vocab)) for k in keys for t in entries[k].terms]
        lengths = [len(entries[k].terms) for k in keys]
        offsets = np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np.int64)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{self.path.name}.", dir=self.path.parent))
        try:
            np.save(staging / "terms.npy", np.asarray(ids, dtype=np.int32))
            np.save(staging / "offsets.npy", offsets)
            if self.model is not None:
                vectors = [entries[k].vector for k in keys]
                matrix = np.vstack(vectors).astype(np.float32) if vectors else np.zeros((0, 0))
                np.save(staging / "vectors.npy", matrix)
            (staging / "vocab.json").write_text(json.dumps(list(vocab)), encoding="utf-8")
            manifest = {"format": _FORMAT, "setup": self.setup, "model": self.model, "keys": keys}
            (staging / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
            old = self.path.with_name(f".{self.path.name}.old")
            if self.path.exists() and not self.path.is_dir():
                # Only a folder is replaced: a file of that name is the user's, not ours.
                raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(self.path))
            if self.path.exists():
                shutil.rmtree(old, ignore_errors=True)
                self.path.rename(old)
            staging.rename(self.path)
            shutil.rmtree(old, ignore_errors=True)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
