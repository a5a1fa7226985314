"""edit_file and write_file through the gate: one exact match, conflicts, held overwrites."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from callgate.toolsets._edit import FileWriter
from tests.toolsets.conftest import Session

SURROGATE = '{"path": "README.md", "old": "# Project", "new": "\\ud800"}'
TWICE = "import os\n\nx = 1\n\ndef f():\n    x = 1\n    return x\n"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_one_match_is_replaced(session: Callable[..., Session], workspace: Path) -> None:
    result = await session().call(
        "edit_file", path="src/pkg/app.py", old="    return 1", new="    return 2"
    )
    target = workspace / "src/pkg/app.py"
    assert result.route == "completed" and result.rule_id == "toolset:workspace"
    assert target.read_text() == "def main():\n    return 2\n\n\nmain()\n"
    assert f"sha256 now {digest(target)}" in result.content
    assert "     2\t    return 2" in result.content


async def test_zero_matches_change_nothing_and_show_close_lines(
    session: Callable[..., Session], workspace: Path
) -> None:
    before = (workspace / "src/pkg/app.py").read_text()
    result = await session().call(
        "edit_file", path="src/pkg/app.py", old="    return 10", new="return 3"
    )
    assert result.route == "failed"
    assert "old was not found in src/pkg/app.py" in result.content
    assert "     2\t    return 1" in result.content
    assert (workspace / "src/pkg/app.py").read_text() == before


async def test_two_matches_change_nothing_and_list_both(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "two.py").write_text(TWICE)
    result = await session().call("edit_file", path="two.py", old="x = 1", new="x = 2")
    assert result.route == "failed"
    assert "old occurs 2 times in two.py, at lines 3, 6" in result.content
    assert "     3\tx = 1" in result.content and "     6\t    x = 1" in result.content
    assert (workspace / "two.py").read_text() == TWICE


async def test_overlapping_matches_count_as_several(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "a.txt").write_text("aaa\n")
    result = await session().call("edit_file", path="a.txt", old="aa", new="b")
    assert result.route == "failed" and "occurs 2 times" in result.content


async def test_a_stale_hash_is_a_conflict(session: Callable[..., Session], workspace: Path) -> None:
    s = session()
    read = await s.call("read_file", path="README.md")
    seen = read.content.splitlines()[0].rsplit(" ", 1)[1]
    (workspace / "README.md").write_text("# Changed by someone else\n")
    result = await s.call(
        "edit_file", path="README.md", old="# Changed", new="# Mine", expected_sha256=seen
    )
    assert result.route == "conflict"
    assert "read it again" in result.content
    assert (workspace / "README.md").read_text() == "# Changed by someone else\n"


async def test_a_change_during_the_write_is_a_conflict(
    session: Callable[..., Session], workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another editor writes the file after the edit read it, before the rename."""
    original = FileWriter._current

    def concurrent_write(self: FileWriter, located: Any) -> str:
        (workspace / "src/pkg/app.py").write_text("def main():\n    return 99\n")
        return original(self, located)

    monkeypatch.setattr(FileWriter, "_current", concurrent_write)
    result = await session().call(
        "edit_file", path="src/pkg/app.py", old="return 1", new="return 2"
    )
    assert result.route == "conflict"
    assert (workspace / "src/pkg/app.py").read_text() == "def main():\n    return 99\n"
    assert sorted(p.name for p in (workspace / "src/pkg").iterdir()) == ["app.py"]


async def test_crlf_files_keep_their_line_ends(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "win.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    result = await session().call("edit_file", path="win.txt", old="one\ntwo", new="1\n2")
    assert result.route == "completed"
    assert (workspace / "win.txt").read_bytes() == b"1\r\n2\r\nthree\r\n"


async def test_edits_refuse_what_is_not_text(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "blob.bin").write_bytes(b"\x00\x01abc")
    s = session()
    binary = await s.call("edit_file", path="blob.bin", old="abc", new="x")
    same = await s.call("edit_file", path="README.md", old="# Project", new="# Project")
    assert binary.route == same.route == "failed"
    surrogate = await session(lean=True).call_raw("edit_file", SURROGATE)
    assert surrogate.route == "invalid" and "lone surrogate" in surrogate.content
    assert (workspace / "README.md").read_text().startswith("# Project")


async def test_a_lone_surrogate_routes_under_a_policy(session: Callable[..., Session]) -> None:
    result = await session().call_raw("edit_file", SURROGATE)
    assert result.route in ("failed", "invalid")


async def test_creating_a_file_is_a_plain_write(
    session: Callable[..., Session], workspace: Path
) -> None:
    result = await session().call("write_file", path="docs/new/notes.md", content="# Notes\n")
    assert result.route == "completed" and result.rule_id == "toolset:workspace"
    assert (workspace / "docs/new/notes.md").read_text() == "# Notes\n"


async def test_overwriting_is_held_until_a_person_approves(
    session: Callable[..., Session], workspace: Path
) -> None:
    s = session()
    held = await s.call("write_file", path="README.md", content="replaced\n")
    assert held.route == "held" and held.rule_id == "toolset:overwrite"
    assert (workspace / "README.md").read_text().startswith("# Project")
    done = await s.approve(held)
    assert done.route == "completed", done
    assert (workspace / "README.md").read_text() == "replaced\n"


async def test_overwrite_allowed_by_setting(
    session: Callable[..., Session], workspace: Path
) -> None:
    result = await session(overwrite="allow").call("write_file", path="README.md", content="x")
    assert result.route == "completed" and (workspace / "README.md").read_text() == "x"


async def test_without_the_policy_an_overwrite_fails_closed(
    session: Callable[..., Session], workspace: Path
) -> None:
    s = session(lean=True)
    result = await s.call("write_file", path="README.md", content="replaced\n")
    created = await s.call("write_file", path="fresh.txt", content="new\n")
    assert result.route == "failed" and "does not ask people" in result.content
    assert (workspace / "README.md").read_text().startswith("# Project")
    assert created.route == "completed"


async def test_repository_internals_are_protected(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / ".git").mkdir()
    (workspace / ".git" / "config").write_text("[core]\n")
    s = session()
    edit = await s.call("edit_file", path=".git/config", old="[core]", new="[core]\nfsmonitor=x")
    write = await s.call("write_file", path=".git/hooks/pre-commit", content="#!/bin/sh\n")
    assert edit.route == write.route == "held"
    assert edit.rule_id == write.rule_id == "toolset:protected"
    assert (workspace / ".git" / "config").read_text() == "[core]\n"
