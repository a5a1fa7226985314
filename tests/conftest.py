"""Shared fixtures: the evaluation data folder, and the PostgreSQL DSN when a server runs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path | None:
    """`CALLGATE_DATA` if set, else `../shared/data` beside the repository."""
    configured = os.environ.get("CALLGATE_DATA")
    path = Path(configured) if configured else ROOT.parent / "shared" / "data"
    return path if path.is_dir() else None


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The evaluation data; skipped where absent, a failure in CI (`CI=true`)."""
    path = shared_data_dir()
    if path is None:
        reason = ("evaluation data not found: set CALLGATE_DATA or place it at ../shared/data")
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path
