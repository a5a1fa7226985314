"""`open_store(url, create=...)`: a read never creates a store; no file is taken for one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from callgate import UserError
from callgate.store import SQLiteStore, open_store


def test_create_false_refuses_what_is_not_a_callgate_store(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    with pytest.raises(UserError, match="does not exist"):
        open_store(f"sqlite:///{missing}", create=False)
    assert not missing.exists()
    with pytest.raises(UserError, match="is a folder"):
        open_store(f"sqlite:///{tmp_path}", create=False)
    empty = tmp_path / "empty.db"
    empty.touch()
    with pytest.raises(UserError, match="empty file"):
        open_store(f"sqlite:///{empty}", create=False)
    assert empty.read_bytes() == b""
    text = tmp_path / "notes.db"
    text.write_text("hello")
    with pytest.raises(UserError, match="not a SQLite database"):
        open_store(f"sqlite:///{text}", create=False)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(UserError, match="not a callgate store"):
        open_store(f"sqlite:///{other}", create=False)
    with sqlite3.connect(other) as db:  # and it was not migrated by the check
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"t"}


def test_create_false_opens_an_existing_store(tmp_path: Path) -> None:
    path = tmp_path / "callgate.db"
    SQLiteStore(path).close()
    with open_store(f"sqlite:///{path}", create=False) as store:
        assert store.receipts.verify().ok


def test_create_true_makes_a_store_but_never_overwrites_another_file(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    open_store(f"sqlite:///{path}").close()
    assert path.read_bytes().startswith(b"SQLite format 3\x00")
    empty = tmp_path / "empty.db"
    empty.touch()
    open_store(f"sqlite:///{empty}").close()  # an empty file holds nothing to lose
    text = tmp_path / "notes.txt"
    text.write_text("keep me")
    with pytest.raises(UserError, match="not a SQLite database"):
        open_store(f"sqlite:///{text}")
    assert text.read_text() == "keep me"
    with pytest.raises(UserError, match=r"folder .* does not exist"):
        open_store(f"sqlite:///{tmp_path / 'no' / 'x.db'}")


@pytest.mark.parametrize(
    "url", ["mysql://h/db", "callgate.db", "host=localhost dbname=x", "sqlite://rel.db", ""]
)
def test_unrecognised_urls(url: str) -> None:
    with pytest.raises(UserError, match="sqlite:///"):
        open_store(url)


def test_memory_store() -> None:
    with open_store("sqlite://:memory:", create=False) as store:
        assert store.receipts.verify().checked == 0
