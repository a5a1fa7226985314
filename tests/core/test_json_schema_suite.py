"""The official JSON Schema Test Suite through callgate's own validation entry point."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from callgate.schema import SchemaCompiler, check
from tests.conftest import shared_data_dir

SUITE = (shared_data_dir() or Path("/nonexistent")) / "json-schema-test-suite"
DRAFTS = {
    "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft7": "http://json-schema.org/draft-07/schema#",
}


def _remote_retriever(remotes: Path) -> Any:
    def retrieve(uri: str) -> Any:
        prefix = "http://localhost:1234/"
        if not uri.startswith(prefix):
            raise ValueError(f"unexpected remote {uri}")
        return json.loads((remotes / uri[len(prefix) :].split("#")[0]).read_text())

    return retrieve


def _cases(draft: str) -> Iterator[Any]:
    folder = SUITE / "tests" / draft
    for path in sorted(folder.glob("*.json")):
        for group in json.loads(path.read_text()):
            for case in group["tests"]:
                yield pytest.param(
                    draft,
                    group["schema"],
                    case["data"],
                    case["valid"],
                    id=f"{draft}/{path.stem}/{group['description']}/{case['description']}",
                )


def _all_cases() -> list[Any]:
    if not SUITE.is_dir():
        return [pytest.param(None, None, None, None, id="suite-missing")]
    return [c for draft in DRAFTS for c in _cases(draft)]


@pytest.fixture(scope="module")
def compiler(data_dir: Path) -> SchemaCompiler:
    # The required tests follow the specification's default: `format` only annotates.
    return SchemaCompiler(
        assert_formats=False,
        retriever=_remote_retriever(data_dir / "json-schema-test-suite" / "remotes"),
    )


@pytest.mark.parametrize(("draft", "schema", "data", "valid"), _all_cases())
def test_required_suite(
    compiler: SchemaCompiler, draft: str, schema: Any, data: Any, valid: bool
) -> None:
    if isinstance(schema, dict) and "$schema" not in schema:
        # The suite's files are per draft; a schema without `$schema` is meant for that draft.
        schema = {**schema, "$schema": DRAFTS[draft]}
    errors = check(compiler.compile(schema), data)
    assert (not errors) is valid, [e.message for e in errors]
