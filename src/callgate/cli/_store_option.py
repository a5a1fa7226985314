"""The `--store` option of every command that reads or writes a store.

A read command never creates a store: a path that does not exist, a folder, an empty
file or a file that is not a callgate store is an input error. Commands that may start
a store (`run`, `chat`) create one only with `--create`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated

import typer

from callgate._errors import UserError

if TYPE_CHECKING:
    from callgate.store import Store

__all__ = ["DEFAULT_STORE", "CreateOpt", "StoreOpt", "open_cli_store", "shown_url"]

DEFAULT_STORE = "callgate.db"

StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        envvar="CALLGATE_STORE",
        show_envvar=True,
        metavar="URL",
        help="sqlite:///path.db, a path to a SQLite file, or postgresql://... "
        f"(default ./{DEFAULT_STORE}).",
    ),
]
CreateOpt = Annotated[
    bool, typer.Option("--create", help="Create the SQLite store if it does not exist.")
]

_CONNINFO = re.compile(r"^\s*[A-Za-z_]+\s*=")
_PASSWORD = re.compile(r"(?<=://)([^:/@]*):[^@/]*@")


def open_cli_store(url: str | None, *, create: bool = False, creatable: bool = False) -> Store:
    """Open the store a command works on; a bare path means a SQLite file. `creatable`:
    the command has `--create` (the message for a missing store says so)."""
    from callgate.store import StoreUnavailable, open_store

    url = url or DEFAULT_STORE
    if "://" not in url:
        if _CONNINFO.match(url):
            raise UserError(
                f"--store {url!r} looks like a libpq connection string; "
                "write it as a URL: postgresql://user@host:5432/dbname"
            )
        url = f"sqlite:///{url}"
    if url.startswith("postgres"):
        _quiet_pool_retries()
    try:
        return open_store(url, create=create)
    except StoreUnavailable as exc:
        raise UserError(
            f"store {shown_url(url)} is unavailable ({exc}); is the database running?"
        ) from exc
    except UserError as exc:
        if create or "does not exist" not in str(exc):
            raise
        hint = "add --create to make it" if creatable else "pass --store URL or set CALLGATE_STORE"
        raise UserError(f"{exc}; {hint}") from exc


def shown_url(url: str) -> str:
    """`url` with any password masked, fit for a message."""
    return _PASSWORD.sub(r"\1:***@", url)


def _quiet_pool_retries() -> None:
    """The pool logs each failed connection attempt; the command reports the outcome once.
    A handler anywhere on the logger's path keeps logging's last-resort stderr printer out."""
    import logging

    if not logging.getLogger().handlers:
        logging.getLogger("psycopg").addHandler(logging.NullHandler())
