"""Catalog files are untrusted: whatever bytes a file holds, loading it gives entries or a
`UserError` naming the file, never another exception; folders are read at any depth."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callgate import UserError
from callgate.lint import _load, lint, load_catalog, scan
from callgate.lint._load import MAX_DEPTH, catalog_files, read_json

TOOL = {
    "name": "get_weather",
    "description": "Get the current weather for one city.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
}


def test_depth_is_bounded_before_anything_walks_the_document(tmp_path: Path) -> None:
    ok = tmp_path / "ok.json"
    nested: object = TOOL
    for _ in range(MAX_DEPTH - 4):  # the tool itself nests 4 levels
        nested = [nested]
    ok.write_text(json.dumps(nested))
    assert [e.name for e in load_catalog(ok)] == ["get_weather"]
    deep = tmp_path / "deep.json"
    deep.write_text(json.dumps([[nested]]))
    with pytest.raises(UserError, match=f"{deep}: nested deeper than {MAX_DEPTH}"):
        load_catalog(deep)


def test_json_lines_and_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "tools.jsonl"
    lines = [json.dumps(TOOL), "", json.dumps(dict(TOOL, name="get_time"))]
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode())
    assert [e.name for e in load_catalog(path)] == ["get_weather", "get_time"]
    path.write_text(json.dumps(TOOL) + "\n{broken\n")
    with pytest.raises(UserError, match=r"tools.jsonl:2: not valid JSON Lines"):
        load_catalog(path)


def test_an_empty_list_is_an_empty_catalog(tmp_path: Path) -> None:
    path = tmp_path / "none.json"
    path.write_text('{"tools": []}')
    assert len(load_catalog(path)) == 0


def test_folders_recurse_and_report_what_they_skip(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "deep.json").write_text(json.dumps([TOOL]))
    (tmp_path / "top.jsonl").write_text(json.dumps(dict(TOOL, name="top")))
    (tmp_path / ".hidden.json").write_text(json.dumps([TOOL]))
    (tmp_path / "notes.md").write_text("#")
    (tmp_path / "a" / "bad.json").write_text("7")
    (tmp_path / "link").symlink_to(tmp_path / "a", target_is_directory=True)
    files, _ = catalog_files(tmp_path)
    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "a/b/deep.json",
        "a/bad.json",
        "top.jsonl",
    ]
    catalog = load_catalog(tmp_path)
    assert sorted(e.name for e in catalog) == ["get_weather", "top"]
    reasons = {Path(s.path).name: s.reason for s in catalog.skipped}
    assert reasons.keys() == {".hidden.json", "notes.md", "bad.json", "link"}
    assert "not followed" in reasons["link"] and "no tool declarations" in reasons["bad.json"]
    [problem] = catalog.problems
    assert problem.rule == "C006" and problem.location.source == str(tmp_path / "a" / "bad.json")
    assert lint(catalog).fails("high")
    seen: list[tuple[int, int]] = []
    load_catalog(tmp_path, on_file=lambda path, n, total: seen.append((n, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_read_json_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(UserError, match=f"{path}: not UTF-8"):
        read_json(path)
    path.write_text("[1, NaN]")
    with pytest.raises(UserError, match="NaN is not JSON"):
        read_json(path)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    data=st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300).map(str.encode),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(
                    st.sampled_from(["name", "description", "inputSchema", "tools", "type", "x"]),
                    inner,
                    max_size=4,
                )
            ),
            max_leaves=20,
        ).map(lambda v: json.dumps(v).encode()),
    )
)
def test_any_bytes_load_or_fail_with_a_user_error(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.json"
    path.write_bytes(data)
    try:
        catalog = load_catalog(path)
    except UserError as exc:
        assert str(path) in str(exc)
        return
    lint(catalog)
    scan(catalog)


def _walked_depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_walked_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_walked_depth, value), default=0)
    return 0


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\n', max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(alphabet='[]{}"\\k', max_size=4), inner, max_size=3)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_JSON, st.booleans())
def test_nesting_counted_from_the_text_is_the_nesting_of_the_value(
    value: object, indent: bool
) -> None:
    text = json.dumps(value, indent=2 if indent else None, ensure_ascii=False)
    assert _load._depth(text) == _walked_depth(value)
