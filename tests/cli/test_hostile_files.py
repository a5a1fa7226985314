"""Every command that reads a file the user names, on files that are hostile.

Catalogs (lint, scan, diff, pin, search), scan's lockfile, run's policy, serve's settings,
`mcpServers` config and policy, ui's settings and the store of every store command get
named pipes without a writer, links to /dev/zero and /dev/urandom, files over the size
limit, NUL bytes, a UTF-16 byte order mark, YAML alias bombs and python tags, and more.
Each is one line naming the file, exit 2, within a few seconds, and nothing is written:
not the store a command would open, not the lockfile it would write. `test_matrix.py`
covers the kinds of bad JSON these readers share.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from callgate.mcp import MAX_CONFIG_BYTES
from tests.cli.helpers import Ran, assert_error, cli

GOOD = {
    "name": "get_weather",
    "description": "Get the current weather for one city.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
}
TOOLS = "tests.loop.agents:TOOLS"
SECONDS = 20
"""What a reader that refuses at once, or reads its file once, meets with room to spare."""
DEEP = 100_000
BOMB = b'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n' + b"".join(
    b"%c: &%c [%s]\n" % (name, name, b", ".join([b"*%c" % before] * 9))
    for before, name in zip(b"abcdefgh", b"bcdefghi", strict=True)
)
"""Nine levels of nine aliases each: a YAML reader that expands them builds 387 million
strings."""
MARKER = "callgate-hostile-marker"
"""The file a `!!python/object` tag would create if anything ran it."""


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _link(target: str) -> Callable[[Path], None]:
    return lambda path: path.symlink_to(target)


def _python_tag(path: Path) -> None:
    marker = path.parent / MARKER
    path.write_text(f'!!python/object/apply:os.system ["touch {marker}"]\n')


HOSTILE: dict[str, Callable[[Path], object]] = {
    "named pipe": _fifo,
    "link to /dev/zero": _link("/dev/zero"),
    "link to /dev/urandom": _link("/dev/urandom"),
    "empty": lambda p: p.write_bytes(b""),
    "NUL bytes": lambda p: p.write_bytes(b'[{"name": "a\x00b"}]\x00\x00'),
    "UTF-16 BOM": lambda p: p.write_bytes(json.dumps([GOOD]).encode("utf-16")),
    "non-UTF-8": lambda p: p.write_bytes('[{"name": "café"}]'.encode("latin-1")),
    "100,000 brackets": lambda p: p.write_bytes(b"[" * DEEP),
    "YAML alias bomb": lambda p: p.write_bytes(BOMB),
    "YAML python tag": _python_tag,
    "folder": lambda p: p.mkdir(),
    "missing": lambda p: None,
}

Args = Callable[[str, Path], list[str]]


def _good(tmp: Path) -> str:
    path = tmp / "good.json"
    path.write_text(json.dumps([GOOD]))
    return str(path)


def _serve(tmp: Path, *rest: str) -> list[str]:
    return ["serve", "--tools", TOOLS, "--store", str(tmp / "store.db"), *rest]


READERS: dict[str, Args] = {
    "lint": lambda bad, tmp: ["lint", bad],
    "scan": lambda bad, tmp: ["scan", bad, "--json"],
    "diff": lambda bad, tmp: ["diff", _good(tmp), bad],
    "pin": lambda bad, tmp: ["pin", bad, "-o", str(tmp / "lock.json")],
    "search": lambda bad, tmp: ["search", "weather", "-c", bad],
    "scan --pins": lambda bad, tmp: ["scan", _good(tmp), "--pins", bad],
    "run --policy": lambda bad, tmp: [
        *("run", "hi", "--tools", TOOLS, "--model", "openai:m"),
        *("--store", str(tmp / "store.db"), "--create", "--policy", bad),
    ],
    "serve --config": lambda bad, tmp: _serve(tmp, "--config", bad),
    "serve --mcp-config": lambda bad, tmp: _serve(tmp, "--mcp-config", bad),
    "serve --policy": lambda bad, tmp: _serve(tmp, "--policy", bad),
    "ui --config": lambda bad, tmp: ["ui", "--config", bad, "--store", str(tmp / "store.db")],
}
CATALOGS = ("lint", "scan", "diff", "pin", "search")
"""Readers of catalog specs: a path that is neither a file nor a folder is refused by
name before it is opened (a `module:attr` is tried only when it looks like one)."""


TOML = ("run --policy", "serve --config", "serve --policy", "ui --config")
"""Readers of TOML, where an empty file is valid: the defaults."""
CASES = [
    (reader, kind)
    for reader in sorted(READERS)
    for kind in sorted(HOSTILE)
    if not (kind == "empty" and reader in TOML)
]


@pytest.fixture(autouse=True)
def _bounded_memory() -> Iterator[None]:
    # A reader that came to follow /dev/zero again fails here with a MemoryError within
    # a few GB, rather than taking the memory of the machine the tests share.
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        used = int(statm.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (used + (3 << 30), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.fixture(autouse=True)
def _no_credentials(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("CALLGATE_STORE", raising=False)
    monkeypatch.chdir(tmp_path)  # no ./callgate.toml found by serve or ui
    yield


def _timed(*args: str) -> tuple[Ran, float]:
    started = time.monotonic()
    ran = cli(*args)
    return ran, time.monotonic() - started


def _nothing_written(tmp: Path, before: set[str]) -> None:
    after = {p.name for p in tmp.iterdir()} - {"good.json"}
    assert after == before, after - before
    assert not (tmp / MARKER).exists()


@pytest.mark.timeout(SECONDS * 2)
@pytest.mark.parametrize(("reader", "kind"), CASES)
def test_a_hostile_file_is_one_line_in_bounded_time(tmp_path: Path, reader: str, kind: str) -> None:
    bad = tmp_path / "bad.json"
    HOSTILE[kind](bad)
    before = {p.name for p in tmp_path.iterdir()}
    ran, took = _timed(*READERS[reader](str(bad), tmp_path))
    assert took < SECONDS, took
    assert_error(ran, str(bad))
    _nothing_written(tmp_path, before)


SPECIAL = {
    "named pipe": (_fifo, "is a named pipe, not a regular file"),
    "link to /dev/zero": (_link("/dev/zero"), "is a character device, not a regular file"),
}


@pytest.mark.timeout(SECONDS * 2)
@pytest.mark.parametrize("kind", sorted(SPECIAL))
@pytest.mark.parametrize("reader", sorted(set(READERS) - set(CATALOGS)))
def test_a_pipe_or_a_device_is_refused_before_it_is_read(
    tmp_path: Path, reader: str, kind: str
) -> None:
    # Before, the pipe blocked the command forever and /dev/zero was read until memory ran
    # out ("unexpected MemoryError" after 7 to 12 s, near 3 GB).
    make, needle = SPECIAL[kind]
    bad = tmp_path / "bad.toml"
    make(bad)
    ran, took = _timed(*READERS[reader](str(bad), tmp_path))
    assert took < SECONDS, took
    assert_error(ran, str(bad), needle)


@pytest.mark.timeout(SECONDS * 2)
@pytest.mark.parametrize("kind", sorted(SPECIAL))
@pytest.mark.parametrize("command", ["lint", "scan", "search"])
def test_a_pipe_or_a_device_in_a_catalog_folder_is_skipped_and_named(
    tmp_path: Path, command: str, kind: str
) -> None:
    # Before, the folder's reader opened the pipe and waited forever, and read /dev/zero
    # until memory ran out.
    make, needle = SPECIAL[kind]
    folder = _folder_with(tmp_path, make)
    args = {
        "lint": ["lint", str(folder), "--json"],
        "scan": ["scan", str(folder), "--json"],
        "search": ["search", "weather", "-c", str(folder), "--json"],
    }[command]
    ran, took = _timed(*args)
    assert took < SECONDS, took
    assert "Traceback" not in ran.output
    skipped = json.loads(ran.stdout)["skipped"]
    assert [s["path"] for s in skipped] == [str(folder / "bad.json")]
    assert needle in skipped[0]["reason"]


@pytest.mark.timeout(SECONDS * 2)
@pytest.mark.parametrize("kind", sorted(SPECIAL))
def test_pin_refuses_a_folder_with_a_pipe_or_a_device(tmp_path: Path, kind: str) -> None:
    make, needle = SPECIAL[kind]
    folder = _folder_with(tmp_path, make)
    ran, took = _timed("pin", str(folder), "-o", str(tmp_path / "lock.json"))
    assert took < SECONDS, took
    assert ran.code == 2 and "Traceback" not in ran.output, ran
    assert ran.stderr.splitlines()[-1].startswith("error: cannot pin"), ran
    assert needle in ran.stderr.splitlines()[-1]
    assert not (tmp_path / "lock.json").exists()


def _folder_with(tmp: Path, make: Callable[[Path], object]) -> Path:
    folder = tmp / "catalogs"
    folder.mkdir()
    (folder / "good.json").write_text(json.dumps([GOOD]))
    make(folder / "bad.json")
    return folder


CONFIGS: dict[str, tuple[str, Args]] = {
    "run --policy": ('default = "effect"\n', READERS["run --policy"]),
    "serve --config": ("[gateway]\n", READERS["serve --config"]),
    "serve --mcp-config": ('{"mcpServers": {}}', READERS["serve --mcp-config"]),
    "serve --policy": ('default = "effect"\n', READERS["serve --policy"]),
    "ui --config": ("[gateway]\n", READERS["ui --config"]),
}


@pytest.mark.timeout(SECONDS * 2)
@pytest.mark.parametrize("reader", sorted(CONFIGS))
def test_a_configuration_file_over_the_limit_is_refused_unread(tmp_path: Path, reader: str) -> None:
    # A policy had no limit at all (a 60 MB one was parsed, 3.5 s); the others had one.
    start, args = CONFIGS[reader]
    bad = tmp_path / "huge.toml"
    with bad.open("w") as out:
        out.write(start)
        out.write(" " * (MAX_CONFIG_BYTES + 1))
    before = {p.name for p in tmp_path.iterdir()}
    ran, took = _timed(*args(str(bad), tmp_path))
    assert took < SECONDS, took
    assert_error(ran, str(bad), "more than the 1 MiB limit")
    _nothing_written(tmp_path, before)


@pytest.mark.timeout(SECONDS * 2)
def test_a_policy_that_is_not_utf8_names_the_file(tmp_path: Path) -> None:
    # Before, the decoding error reached the command line unexplained ("input is not
    # valid: 'utf-8' codec can't decode ..."), without the policy's name.
    bad = tmp_path / "policy.toml"
    bad.write_bytes('default = "effect"\n# café\n'.encode("latin-1"))
    assert_error(
        cli(*READERS["run --policy"](str(bad), tmp_path)), f"cannot read policy {str(bad)!r}"
    )


@pytest.mark.timeout(SECONDS * 2)
@pytest.mark.parametrize("kind", ["named pipe", "link to /dev/zero", "link to /dev/urandom"])
@pytest.mark.parametrize(
    "command",
    [
        ["receipts", "list"],
        ["receipts", "verify"],
        ["approvals", "list"],
        ["pins", "list"],
        ["run", "hi", "--tools", TOOLS, "--model", "openai:m", "--create"],
    ],
    ids=" ".join,
)
def test_a_store_path_that_is_a_pipe_or_a_device(
    tmp_path: Path, command: list[str], kind: str
) -> None:
    # Before, a named pipe as the store blocked every store command forever (even with
    # --create); a device was read for the SQLite header and called "not a SQLite database".
    store = tmp_path / "store.db"
    HOSTILE[kind](store)
    before = {p.name for p in tmp_path.iterdir()}
    ran, took = _timed(*command, "--store", str(store))
    assert took < SECONDS, took
    assert_error(ran, str(store), "not a regular file")
    _nothing_written(tmp_path, before)


@pytest.mark.timeout(SECONDS * 2)
@pytest.mark.parametrize("command", [["receipts", "list"], ["approvals", "list"], ["pins", "list"]])
def test_a_store_path_that_is_not_sqlite(tmp_path: Path, command: list[str]) -> None:
    store = tmp_path / "store.db"
    store.write_bytes(b"\x00" * 4096 + b"not a database")
    ran = cli(*command, "--store", str(store))
    assert_error(ran, str(store), "not a SQLite database")
    assert store.read_bytes() == b"\x00" * 4096 + b"not a database"


@pytest.mark.timeout(SECONDS * 3)
def test_a_huge_catalog_is_read_once(tmp_path: Path) -> None:
    # 64 MB on one line, of JSON that holds no declaration: a reader that reads the file
    # once and parses it once answers in a second or two.
    bad = tmp_path / "huge.json"
    with bad.open("w") as out:
        out.write('["')
        out.write("weather " * 8_000_000)
        out.write('"]')
    ran, took = _timed("lint", str(bad))
    assert took < SECONDS, took
    assert_error(ran, str(bad), "holds no tool declarations")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file without read permission")
@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_file_without_read_permission(tmp_path: Path, reader: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([GOOD]))
    bad.chmod(0)
    assert_error(cli(*READERS[reader](str(bad), tmp_path)), str(bad), "ermission denied")


@pytest.mark.timeout(SECONDS * 2)
@pytest.mark.parametrize("kind", ["a file", "a named pipe"])
def test_search_does_not_put_its_cache_in_place_of_a_file(tmp_path: Path, kind: str) -> None:
    # Before, `--cache notes.txt` moved the file to a hidden `.notes.txt.old` and wrote
    # the index folder in its place.
    notes = tmp_path / "notes.txt"
    if kind == "a file":
        notes.write_text("precious")
    else:
        _fifo(notes)
    ran = cli("search", "weather", "-c", _good(tmp_path), "--cache", str(notes))
    assert_error(ran, f"--cache {str(notes)!r} is not a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.json", "notes.txt"]
    assert notes.is_file() == (kind == "a file")
