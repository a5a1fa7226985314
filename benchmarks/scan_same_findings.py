"""Same findings: this revision's scan against another's, byte for byte, on every set and
corpus `scan_benchmark.py` reads.

A change meant only to make the scan faster must not change what it finds. Each revision
runs in a fresh process and writes, for every record of the poisoned and hard-benign sets
(the record's catalog, as the benchmark builds it) and every real corpus, the report's JSON
(`Report.to_dict`, every finding with its location, evidence and decoded text) and the text
report `callgate scan` prints; untrusted texts of the benchmark go through `scan_result`. The
two outputs are compared byte for byte, and the first difference is printed.

Run: python benchmarks/scan_same_findings.py [--data DIR] [--baseline-rev REV]
Writes benchmarks/results/scan_same_findings.json (exit 1 when they differ).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from _data import RESULTS, source_at
from scan_benchmark import (
    BENIGN_SETS,
    DEV_SETS,
    UNSEEN_SETS,
    _corpora,
    data_dir,
    record_catalog,
    records,
    run_child,
    untrusted_texts,
)

BASELINE_REV = "b782beb"
"""The revision before the scan's speed work."""


def dump(data: Path) -> dict[str, str]:
    """Every report this revision writes, by the name of what it scanned."""
    from rich.console import Console

    from callgate.lint import (
        render_report,
        scan,
        scan_result,
    )

    def text(report: Any) -> str:
        buffer = io.StringIO()
        out = Console(file=buffer, highlight=False, soft_wrap=True, no_color=True, width=120)
        render_report(report, out, explain=True)
        return buffer.getvalue()

    out: dict[str, str] = {}
    for name in (*DEV_SETS, *UNSEEN_SETS, *BENIGN_SETS):
        for record in records(name):
            report = scan(record_catalog(record))
            out[f"{name}/{record['id']}"] = json.dumps(report.to_dict(), ensure_ascii=False)
    for name, loaded in _corpora(data).items():
        report = scan(loaded)
        out[f"corpus/{name}"] = json.dumps(report.to_dict(), ensure_ascii=False)
        out[f"corpus/{name}/text"] = text(report)
    for i, untrusted in enumerate(untrusted_texts(data)):
        found = scan_result(untrusted, tool="t")
        out[f"result/{i}"] = json.dumps([str(f) for f in found], ensure_ascii=False)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", help="evaluation data folder (default ../shared/data)")
    parser.add_argument("--baseline-rev", default=BASELINE_REV)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    data = data_dir(args.data)
    if args.child:
        print(json.dumps(dump(data)))
        return
    with tempfile.TemporaryDirectory() as work:
        old = source_at(args.baseline_rev, Path(work))
        if old is None:
            sys.exit(f"revision {args.baseline_rev} not found")
        before, after = run_child(old, data, __file__), run_child(None, data, __file__)
    differ = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    digest = hashlib.sha256(json.dumps(after, sort_keys=True).encode("utf-8")).hexdigest()
    payload = {
        "baseline_rev": args.baseline_rev,
        "reports": len(after),
        "findings_bytes": sum(len(v) for v in after.values()),
        "sha256": digest,
        "identical": not differ,
        "differ": differ[:50],
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "scan_same_findings.json").write_text(
        json.dumps(payload, indent=2) + "\n", encoding="utf-8"
    )
    print(json.dumps({k: v for k, v in payload.items() if k != "differ"}))
    for key in differ[:3]:
        print(f"--- {key}\n{before.get(key)!r:.600}\n+++\n{after.get(key)!r:.600}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
