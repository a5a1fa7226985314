"""Where the evaluation data lives: `CALLGATE_DATA`, else `../shared/data` beside the repo."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"


def data_dir() -> Path:
    configured = os.environ.get("CALLGATE_DATA")
    path = Path(configured) if configured else ROOT.parent / "shared" / "data"
    if not path.is_dir():
        sys.exit(f"evaluation data not found at {path}; set CALLGATE_DATA")
    return path
