"""Catalogs named on the command line: read with progress, and what was skipped told."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from callgate.cli._output import note, progress
from callgate.cli._user_code import importable_from_cwd
from callgate.lint import LoadedCatalog, load_catalog, merge_catalogs

__all__ = ["load_catalogs", "skipped_json"]

_SHOWN = 5
"""Skipped entries named on stderr; `--json` lists them all."""


def load_catalogs(specs: Sequence[str]) -> LoadedCatalog:
    """The catalogs of `specs` as one; skipped files and folders are noted on stderr."""
    importable_from_cwd()
    with progress("reading") as on_file:
        loaded = [load_catalog(spec, on_file=on_file) for spec in specs]
    catalog = loaded[0] if len(loaded) == 1 else merge_catalogs(loaded)
    _note_skipped(catalog)
    return catalog


def skipped_json(*catalogs: LoadedCatalog) -> list[dict[str, Any]]:
    return [{"path": s.path, "reason": s.reason} for c in catalogs for s in c.skipped]


def _note_skipped(catalog: LoadedCatalog) -> None:
    if not catalog.skipped:
        return
    shown = "; ".join(f"{s.path} ({s.reason})" for s in catalog.skipped[:_SHOWN])
    more = len(catalog.skipped) - _SHOWN
    rest = f"; and {more} more (--json lists them)" if more > 0 else ""
    note(f"skipped {len(catalog.skipped)} entries: {shown}{rest}")
