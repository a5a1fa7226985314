"""read_file, list_dir, search_files and search_text: what they show and where they stop."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from callgate.toolsets import CodingLimits
from tests.toolsets.conftest import Session


async def test_read_file_numbers_lines_and_gives_the_hash(
    session: Callable[..., Session], workspace: Path
) -> None:
    result = await session().call("read_file", path="src/pkg/app.py")
    digest = hashlib.sha256((workspace / "src/pkg/app.py").read_bytes()).hexdigest()
    assert result.route == "completed"
    assert result.content.splitlines()[0] == f"src/pkg/app.py: lines 1-5 of 5, sha256 {digest}"
    assert "     1\tdef main():" in result.content
    assert "     5\tmain()" in result.content


async def test_read_file_pages_at_its_limits(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "long.txt").write_text("".join(f"line {i}\n" for i in range(1, 101)))
    s = session(limits=CodingLimits(read_lines=30))
    first = await s.call("read_file", path="long.txt")
    assert "lines 1-30 of 100" in first.content
    assert "call read_file with start_line=31" in first.content
    window = await s.call("read_file", path="long.txt", start_line=95, end_line=96)
    assert "    95\tline 95" in window.content and "line 97" not in window.content
    past = await s.call("read_file", path="long.txt", start_line=500)
    assert past.route == "failed" and "has 100 lines" in past.content
    backwards = await s.call("read_file", path="long.txt", start_line=9, end_line=3)
    assert backwards.route == "failed"


async def test_read_file_refuses_binary_and_marks_bad_text(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (workspace / "latin.txt").write_bytes("café\n".encode("latin-1"))
    (workspace / "wide.txt").write_text("x" * 5000 + "\n")
    s = session()
    binary = await s.call("read_file", path="image.png")
    assert binary.route == "failed" and "binary file" in binary.content
    latin = await s.call("read_file", path="latin.txt")
    assert "not valid UTF-8" in latin.content
    wide = await s.call("read_file", path="wide.txt")
    assert "line cut at 2000 chars" in wide.content and len(wide.content) < 2500


async def test_read_file_of_a_missing_file_or_a_directory(
    session: Callable[..., Session],
) -> None:
    s = session()
    missing = await s.call("read_file", path="nope.txt")
    folder = await s.call("read_file", path="src")
    assert missing.route == "failed" and "does not exist" in missing.content
    assert folder.route == "failed" and "list_dir" in folder.content


async def test_list_dir_marks_ignored_secret_and_linked_entries(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "readme-link").symlink_to("README.md")
    result = await session().call("list_dir", path=".", depth=2)
    lines = result.content.splitlines()
    assert "build/  (ignored)" in lines and "debug.log  (ignored)" in lines
    assert ".env  (secret)" in lines and "readme-link  (link)" in lines
    assert "  pkg/" in lines  # src/pkg at depth 2
    assert not any("out.py" in line for line in lines)  # ignored directories are not entered


async def test_list_dir_says_when_it_stopped(
    session: Callable[..., Session], workspace: Path
) -> None:
    for i in range(30):
        (workspace / f"f{i:02}.txt").write_text("x")
    result = await session().call("list_dir", path=".", limit=10)
    assert len(result.content.splitlines()) == 12  # heading, ten entries, notice
    assert "first 10 entries shown" in result.content


async def test_search_files_honours_gitignore_at_every_level(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "src" / ".gitignore").write_text("*.py\n!keep.py\n")
    (workspace / "src" / "keep.py").write_text("")
    (workspace / "top.py").write_text("")
    result = await session().call("search_files", pattern="*.py")
    found = set(result.content.splitlines()[1:])
    assert found == {"top.py", "src/keep.py"}


async def test_search_files_cuts_and_reports(
    session: Callable[..., Session], workspace: Path
) -> None:
    for i in range(12):
        (workspace / f"m{i:02}.md").write_text("")
    result = await session().call("search_files", pattern="m*.md", limit=5)
    assert result.content.splitlines()[-1] == "[first 5 matches shown; narrow the pattern]"
    assert "m00.md" in result.content and "m11.md" not in result.content


async def test_search_text_skips_ignored_binary_and_secret_files(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "blob.bin").write_bytes(b"def main\x00")
    (workspace / ".env.local").write_text("def main = secret\n")
    result = await session().call("search_text", regex=r"def main")
    lines = result.content.splitlines()
    assert lines[0] == "1 matching lines in 1 files for 'def main'"
    assert lines[1] == "src/pkg/app.py:1: def main():"
    assert "2 secret, 1 binary" in lines[-1]
    assert "secret" not in "\n".join(lines[1:-1])


async def test_search_text_glob_limit_and_bad_expression(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "many.txt").write_text("hit\n" * 50)
    s = session()
    cut = await s.call("search_text", regex="hit", glob="*.txt", limit=7)
    assert cut.content.count("many.txt:") == 7 and "first 7 matching lines" in cut.content
    none = await s.call("search_text", regex="hit", glob="*.py")
    assert none.content == "no lines match 'hit'"
    broken = await s.call("search_text", regex="(unclosed")
    assert broken.route == "failed" and "invalid regular expression" in broken.content


async def test_a_backtracking_expression_stops_at_the_budget(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "trap.txt").write_text("x" * 3000 + "\n")
    s = session(limits=CodingLimits(search_seconds=0.5))
    result = await s.call("search_text", regex=r"(x+x+)+y", glob="trap.txt")
    assert result.route == "completed"
    assert "took longer than 0.5 s" in result.content
