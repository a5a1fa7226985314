"""The index on disk: reused while the catalog is unchanged, rebuilt when it is not."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from callgate.retrieval import IndexSettings, LexicalSettings, ToolIndex
from tests.conftest import RETRIEVAL, require
from tests.retrieval.test_index import WordEmbedder, names
from tests.retrieval.tools import catalog, make

require(*RETRIEVAL, extra="retrieval")


def _save(path: Path, values: Any, dtype: str | None = None, **options: Any) -> None:
    """`np.save` of `np.array(values, dtype)`; numpy, of the retrieval extra, is imported
    after the module's skip."""
    import numpy as np

    np.save(path, np.array(values, dtype=dtype), **options)


class CountingEmbedder(WordEmbedder):
    model_id = "words-1"

    def __init__(self) -> None:
        super().__init__()
        self.texts = 0

    def embed(self, texts: object) -> object:
        self.texts += len(texts)  # type: ignore[arg-type]
        return super().embed(texts)  # type: ignore[arg-type]


def test_an_unchanged_catalog_is_read_back_not_embedded(tmp_path: Path) -> None:
    first = CountingEmbedder()
    built = ToolIndex(catalog(), embedder=first, cache=tmp_path / "index")
    assert first.texts == len(catalog())
    again = CountingEmbedder()
    read = ToolIndex(catalog(), embedder=again, cache=tmp_path / "index")
    assert again.texts == 0
    for query in ["I need cash", "weather in Rome", "отчёт о продажах"]:
        assert [(h.tool.name, h.score) for h in read.search(query, 5)] == [
            (h.tool.name, h.score) for h in built.search(query, 5)
        ]


def test_only_changed_tools_are_embedded_again(tmp_path: Path) -> None:
    ToolIndex(catalog(), embedder=CountingEmbedder(), cache=tmp_path)
    changed = [
        make("get_weather", "Tide tables for a harbour.") if t.name == "get_weather" else t
        for t in catalog()
    ]
    embedder = CountingEmbedder()
    index = ToolIndex(
        [*changed, make("pay_invoice", "Pay money owed.")], embedder=embedder, cache=tmp_path
    )
    assert embedder.texts == 2
    assert names(index.search("tide harbour", 1)) == ["get_weather"]


def test_another_model_or_other_settings_miss_the_cache(tmp_path: Path) -> None:
    ToolIndex(catalog(), embedder=CountingEmbedder(), cache=tmp_path)

    class Other(CountingEmbedder):
        model_id = "words-2"

    other = Other()
    ToolIndex(catalog(), embedder=other, cache=tmp_path)
    assert other.texts == len(catalog())
    settings = IndexSettings(lexical=LexicalSettings(name_weight=3))
    again = Other()
    ToolIndex(catalog(), embedder=again, cache=tmp_path, settings=settings)
    assert again.texts == len(catalog())


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: (d / "manifest.json").write_text("{not json"),
        lambda d: (d / "terms.npy").write_bytes(b"\x93NUMPY garbage"),
        lambda d: _save(d / "terms.npy", [10**6], "int32"),
        lambda d: _save(d / "vectors.npy", [[0.0] * 5], "float32"),
        lambda d: _save(d / "offsets.npy", [0, 1, 2]),
        lambda d: (d / "vocab.json").unlink(),
        lambda d: (d / "manifest.json").write_text(json.dumps({"format": 1, "keys": "x"})),
    ],
)
def test_a_damaged_cache_is_a_miss_not_an_error(tmp_path: Path, damage: object) -> None:
    good = ToolIndex(catalog(), embedder=CountingEmbedder(), cache=tmp_path)
    damage(tmp_path)  # type: ignore[operator]
    embedder = CountingEmbedder()
    rebuilt = ToolIndex(catalog(), embedder=embedder, cache=tmp_path)
    assert names(rebuilt.search("I need cash", 3)) == names(good.search("I need cash", 3))
    # ... and the folder is whole again afterwards.
    third = CountingEmbedder()
    ToolIndex(catalog(), embedder=third, cache=tmp_path)
    assert third.texts == 0


def test_pickled_arrays_are_never_loaded(tmp_path: Path) -> None:
    ToolIndex(catalog(), cache=tmp_path)
    _save(tmp_path / "terms.npy", [object()], "object", allow_pickle=True)
    index = ToolIndex(catalog(), cache=tmp_path)  # refused, rebuilt
    assert names(index.search("weather", 1)) == ["get_weather"]


def test_save_after_removals_drops_them(tmp_path: Path) -> None:
    index = ToolIndex(catalog(), embedder=CountingEmbedder(), cache=tmp_path)
    index.remove("get_weather")
    index.save()
    keys = json.loads((tmp_path / "manifest.json").read_text())["keys"]
    assert len(keys) == len(catalog()) - 1


def test_a_file_where_the_cache_folder_would_be_is_left_alone(tmp_path: Path) -> None:
    # Before, saving moved the file to a hidden `.notes.txt.old` and put the folder in
    # its place.
    notes = tmp_path / "notes.txt"
    notes.write_text("precious")
    ToolIndex(catalog(), cache=notes).save()
    assert notes.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.timeout(20)
@pytest.mark.parametrize("name", ["manifest.json", "vocab.json", "terms.npy", "offsets.npy"])
def test_a_named_pipe_in_the_cache_folder_is_a_miss_not_a_hang(tmp_path: Path, name: str) -> None:
    ToolIndex(catalog(), cache=tmp_path / "index").save()
    (tmp_path / "index" / name).unlink()
    os.mkfifo(tmp_path / "index" / name)
    index = ToolIndex(catalog(), cache=tmp_path / "index")
    assert index.search("weather in Rome", 1)
