"""The `--store` option shared by the approvals and receipts commands."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from callgate.store import Store, open_store

__all__ = ["DEFAULT_STORE", "StoreOpt", "open_cli_store"]

DEFAULT_STORE = "sqlite:///callgate.db"

StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        envvar="CALLGATE_STORE",
        show_envvar=True,
        help="The store: sqlite:///path.db, postgresql://... or a plain file path "
        f"(default {DEFAULT_STORE}, i.e. ./callgate.db).",
    ),
]


def open_cli_store(url: str | None) -> Store:
    """Open the store a command works on; a bare path means a SQLite file."""
    url = url or os.environ.get("CALLGATE_STORE") or DEFAULT_STORE
    if "://" not in url:
        url = f"sqlite:///{url}"
    return open_store(url)
