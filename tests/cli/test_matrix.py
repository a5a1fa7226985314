"""Every command against every kind of bad input: exit 2 and one line naming what to fix.

Catalog commands (lint, scan, diff, pin, search, and scan's lockfile) get files that are
missing, folders, empty, invalid JSON, JSON scalars, lists of non-objects, binary,
non-UTF-8 and nested 100,000 levels deep; commands that write a file get `-o` into a
missing folder and onto a folder; store commands get URLs that are not stores, paths
that are missing, folders, empty or not SQLite, and a PostgreSQL that is not there.
"""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.helpers import assert_error, cli
from tests.conftest import POSTGRES, needs

GOOD = {
    "name": "get_weather",
    "description": "Get the current weather for one city. Use when the user asks about "
    "the weather now.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
}
DEEP = 100_000


def _folder(path: Path) -> None:
    path.mkdir()


BAD_FILES: dict[str, tuple[Callable[[Path], object], str]] = {
    "missing": (lambda p: None, "no such file"),
    "folder": (_folder, ""),
    "empty": (lambda p: p.write_bytes(b""), "empty"),
    "whitespace": (lambda p: p.write_text(" \n\t\n"), "empty"),
    "invalid JSON": (lambda p: p.write_text('{"tools": [}'), "not valid JSON"),
    "JSON scalar": (lambda p: p.write_text("1"), ""),
    "JSON string": (lambda p: p.write_text('"tools"'), ""),
    "list of non-objects": (lambda p: p.write_text("[1, 2, null]"), ""),
    "binary": (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe"), ""),
    "non-UTF-8": (lambda p: p.write_bytes('[{"name": "café"}]'.encode("latin-1")), "UTF-8"),
    "nested 100,000 deep": (lambda p: p.write_text("[" * DEEP + "]" * DEEP), "nested deeper"),
    "deep object": (lambda p: p.write_text('{"a":' * DEEP + "1" + "}" * DEEP), "nested deeper"),
    "huge integer": (lambda p: p.write_text(f'[{{"name": {"9" * 5000}}}]'), "digits"),
    "NaN": (lambda p: p.write_text('[{"name": "x", "n": NaN}]'), "NaN"),
}


def _good(tmp_path: Path) -> str:
    path = tmp_path / "good.json"
    path.write_text(json.dumps([GOOD]))
    return str(path)


CATALOG_COMMANDS: dict[str, Callable[[str, str, Path], list[str]]] = {
    "lint": lambda bad, good, tmp: ["lint", bad],
    "lint with a good one": lambda bad, good, tmp: ["lint", good, bad],
    "scan": lambda bad, good, tmp: ["scan", bad, "--json"],
    "diff old": lambda bad, good, tmp: ["diff", bad, good],
    "diff new": lambda bad, good, tmp: ["diff", good, bad],
    "pin": lambda bad, good, tmp: ["pin", bad, "-o", str(tmp / "lock.json")],
    "search": lambda bad, good, tmp: ["search", "weather", "-c", bad],
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
@pytest.mark.parametrize("command", sorted(CATALOG_COMMANDS))
def test_catalog_commands_on_bad_files(tmp_path: Path, command: str, kind: str) -> None:
    make, needle = BAD_FILES[kind]
    bad = tmp_path / "bad.json"
    make(bad)
    ran = cli(*CATALOG_COMMANDS[command](str(bad), _good(tmp_path), tmp_path))
    assert_error(ran, str(bad), needle)
    assert not (tmp_path / "lock.json").exists()


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_scan_on_bad_lockfiles(tmp_path: Path, kind: str) -> None:
    make, needle = BAD_FILES[kind]
    bad = tmp_path / "lock.json"
    make(bad)
    needle = "" if kind in ("missing", "folder") else needle
    assert_error(cli("scan", _good(tmp_path), "--pins", str(bad)), str(bad), needle)


@pytest.mark.parametrize(
    "lockfile",
    ["[]", '{"version": 1}', '{"version": 1, "tools": {"a": 1}}', '{"version": 1, "tools": []}'],
)
def test_scan_on_lockfiles_of_the_wrong_shape(tmp_path: Path, lockfile: str) -> None:
    bad = tmp_path / "lock.json"
    bad.write_text(lockfile)
    assert_error(cli("scan", _good(tmp_path), "--pins", str(bad)), str(bad), "lockfile")


WRITERS: dict[str, Callable[[str, str], list[str]]] = {
    "lint": lambda good, out: ["lint", good, "-o", out],
    "scan sarif": lambda good, out: ["scan", good, "-f", "sarif", "-o", out],
    "diff": lambda good, out: ["diff", good, good, "--json", "-o", out],
    "pin": lambda good, out: ["pin", good, "-o", out],
}


@pytest.mark.parametrize("where", ["missing folder", "folder"])
@pytest.mark.parametrize("command", sorted(WRITERS))
def test_output_that_cannot_be_written(tmp_path: Path, command: str, where: str) -> None:
    out = tmp_path / "no" / "such" / "report.json" if where == "missing folder" else tmp_path
    ran = cli(*WRITERS[command](_good(tmp_path), str(out)))
    assert_error(
        ran, f"cannot write {str(out)!r}", "does not exist" if "missing" in where else "folder"
    )


def test_a_folder_without_catalogs(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no tools here")
    assert_error(cli("lint", str(tmp_path)), str(tmp_path), "holds no .json or .jsonl files")


def test_a_missing_module_catalog() -> None:
    assert_error(cli("lint", "no_such_module_xyz:tools"), "cannot import 'no_such_module_xyz'")


STORE_COMMANDS: dict[str, list[str]] = {
    "receipts list": ["receipts", "list"],
    "receipts show": ["receipts", "show", "1"],
    "receipts verify": ["receipts", "verify"],
    "approvals list": ["approvals", "list"],
    "approvals show": ["approvals", "show", "a1"],
    "approvals approve": ["approvals", "approve", "a1"],
    "approvals deny": ["approvals", "deny", "a1"],
    "resume": ["resume", "run_1", "--tools", "tests.loop.agents:TOOLS", "--model", "openai:m"],
    "run": ["run", "hi", "--tools", "tests.loop.agents:TOOLS", "--model", "openai:m"],
}


def _not_sqlite(path: Path) -> str:
    path.write_text('{"receipts": []}')
    return str(path)


def _made_folder(path: Path) -> str:
    path.mkdir()
    return str(path)


def _other_sqlite(path: Path) -> str:
    import sqlite3

    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
    return str(path)


BAD_STORES: dict[str, tuple[Callable[[Path], str], str]] = {
    "missing path": (lambda p: str(p), "does not exist"),
    "missing sqlite URL": (lambda p: f"sqlite:///{p}", "does not exist"),
    "folder": (lambda p: _made_folder(p), "is a folder"),
    "empty file": (lambda p: (p.write_bytes(b""), str(p))[1], "empty file"),
    "JSON file": (_not_sqlite, "not a SQLite database"),
    "another SQLite database": (_other_sqlite, "not a callgate store"),
    "unknown scheme": (lambda p: "mysql://localhost/db", "not recognised"),
    "libpq string": (lambda p: "host=localhost dbname=callgate", "postgresql://"),
    "relative sqlite URL": (lambda p: "sqlite://callgate.db", "sqlite:///path"),
}


@pytest.mark.parametrize("kind", sorted(BAD_STORES))
@pytest.mark.parametrize("command", sorted(STORE_COMMANDS))
def test_store_commands_on_bad_stores(tmp_path: Path, command: str, kind: str) -> None:
    make, needle = BAD_STORES[kind]
    target = tmp_path / "store.db"
    url = make(target)
    before = sorted(p.name for p in tmp_path.iterdir())
    ran = cli(*STORE_COMMANDS[command], "--store", url)
    assert_error(ran, needle)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing was created
    if target.is_file():
        assert target.stat().st_size == 0 or kind != "empty file"


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@needs(*POSTGRES, extra="postgres")
@pytest.mark.parametrize("command", ["receipts verify", "approvals list", "run"])
def test_an_unreachable_postgresql_is_one_line(command: str) -> None:
    url = f"postgresql://callgate:secret@127.0.0.1:{_closed_port()}/callgate"
    ran = cli(*STORE_COMMANDS[command], "--store", url)
    assert_error(ran, "is unavailable", "127.0.0.1")
    assert "secret" not in ran.output  # the password is not printed


MISSING_EXTRAS: dict[str, tuple[str, str, list[str]]] = {
    "search": (
        "Stemmer",
        "retrieval",
        ["search", "weather", "-c", "tests.retrieval.tools:CATALOG"],
    ),
    "run": (
        "openai",
        "openai",
        ["run", "hi", "--tools", "tests.loop.agents:TOOLS", "--model", "openai:m"],
    ),
    "store": (
        "psycopg",
        "postgres",
        ["receipts", "verify", "--store", "postgresql://127.0.0.1:1/x"],
    ),
}


@pytest.mark.parametrize("command", sorted(MISSING_EXTRAS))
def test_a_missing_extra_is_one_line_with_the_install_command(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module, extra, args = MISSING_EXTRAS[command]
    monkeypatch.setitem(sys.modules, module, None)  # import now raises ImportError
    assert_error(cli(*args), f"pip install 'callgate[{extra}]'")


def test_the_default_store_is_not_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CALLGATE_STORE", raising=False)
    assert_error(cli("receipts", "verify"), "callgate.db", "does not exist", "CALLGATE_STORE")
    assert list(tmp_path.iterdir()) == []
