"""Where the evaluation data lives: `CALLGATE_DATA`, else `../shared/data` beside the repo."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"


def data_dir() -> Path:
    configured = os.environ.get("CALLGATE_DATA")
    path = Path(configured) if configured else ROOT.parent / "shared" / "data"
    if not path.is_dir():
        sys.exit(f"evaluation data not found at {path}; set CALLGATE_DATA")
    return path


def source_at(rev: str, into: Path) -> Path | None:
    """The package as it was at git revision `rev`, unpacked into `into` (put it first on
    `PYTHONPATH` to run it); None without git history."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "src/callgate"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    tar = into / f"{rev}.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as handle:
        handle.extractall(into / rev, filter="data")
    return into / rev / "src"
