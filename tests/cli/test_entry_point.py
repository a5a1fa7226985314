"""The real entry point (`python -m callgate.cli`) and what `--help` costs and says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from callgate.cli._app import COMMANDS, EXIT_CODES, load_command
from tests.cli.helpers import ROOT, assert_error, callgate, cli
from tests.conftest import POSTGRES, needs

HEAVY = (
    "callgate.contract",
    "callgate.gate",
    "callgate.lint",
    "callgate.loop",
    "callgate.models",
    "callgate.retrieval",
    "callgate.schema",
    "callgate.store",
    "httpx",
    "jsonschema_rs",
    "pydantic",
    "rich",
)


def _imported_by(*args: str) -> set[str]:
    """Modules a fresh interpreter has imported after running `callgate ARGS`."""
    code = (
        "import sys\n"
        "from callgate.cli import main\n"
        f"sys.argv = ['callgate', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    return set(done.stderr.split())


def test_help_imports_no_command_and_no_heavy_module() -> None:
    loaded = _imported_by("--help")
    assert "typer" in loaded
    assert not [m for m in loaded if m.startswith(HEAVY)]
    assert not [m for m in loaded if m.startswith("callgate.cli.") and m != "callgate.cli._app"]


def test_a_command_imports_what_it_needs_and_no_more() -> None:
    receipts = _imported_by("receipts", "--help")
    assert "callgate.cli._receipts" in receipts and "callgate.store" in receipts
    assert not [m for m in receipts if m.startswith(("callgate.lint", "callgate.retrieval"))]
    assert not [m for m in receipts if m.startswith(("callgate.models", "openai"))]
    lint = _imported_by("lint", "--help")
    assert "callgate.lint" in lint
    assert not [m for m in lint if m.startswith(("callgate.loop", "callgate.retrieval"))]


def _collecting(*args: str, before: bool = True) -> tuple[bool, bool]:
    """Whether the cyclic collector is on as `callgate ARGS` ends its command and once
    `main()` has returned, in a fresh interpreter whose collector was `before`. A command
    that crashes fails the test rather than reading as either."""
    code = (
        "import gc, json, sys\n"
        "from callgate.cli import _app, main\n"
        "seen = []\n"
        "command = _app.app\n"
        "def traced():\n"
        "    try:\n        command()\n    finally:\n        seen.append(gc.isenabled())\n"
        "_app.app = traced\n"
        f"gc.enable() if {before!r} else gc.disable()\n"
        "threshold = gc.get_threshold()\n"
        f"sys.argv = ['callgate', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "assert gc.get_threshold() == threshold, gc.get_threshold()\n"
        "print(json.dumps([*seen, gc.isenabled()]))\n"
    )
    during, after = json.loads(_last_line(code))
    return during, after


def test_the_collector_is_off_while_starting_and_on_for_a_command_that_collects(
    tmp_path: Path,
) -> None:
    catalog = tmp_path / "tools.json"
    catalog.write_text(json.dumps([{"name": "get_time", "description": "The time now."}]))
    assert _collecting("--help") == (False, True)
    assert _collecting("nosuch") == (False, True)
    assert _collecting("scan", str(catalog), "-o", str(tmp_path / "scan.json")) == (False, True)
    assert _collecting("lint", str(catalog)) == (False, True)
    assert _collecting("receipts", "--help") == (True, True)
    assert _collecting("version") == (True, True)
    assert _collecting("version", before=False) == (True, False)
    assert [s.name for s in COMMANDS if not s.collected] == ["lint", "scan"]


def test_a_command_that_crashes_fails_the_collector_check(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="Traceback"):
        _collecting("--debug", "receipts", "verify", "--store", str(tmp_path / "no" / "x.db"))


def test_help_lists_every_command_and_the_exit_codes() -> None:
    ran = callgate("--help")
    assert ran.code == 0, ran
    for spec in COMMANDS:
        assert f"  {spec.name} " in ran.stdout and spec.help in ran.stdout
    for code, meaning in EXIT_CODES:
        assert f"{code}  {meaning.split(':')[0]}" in " ".join(ran.stdout.split("\n"))


@pytest.mark.parametrize("spec", COMMANDS, ids=lambda s: s.name)
def test_every_command_has_help_without_type_placeholders_after_flags(spec: object) -> None:
    from callgate.cli._app import CommandSpec

    assert isinstance(spec, CommandSpec)
    command = load_command(spec)
    assert command.name == spec.name
    ran = cli(spec.name, "--help")
    assert ran.code == 0 and "Usage: callgate" in ran.stdout
    assert "<bool>" not in ran.stdout
    for sub in getattr(command, "commands", {}):
        sub_help = cli(spec.name, sub, "--help")
        assert sub_help.code == 0 and "<bool>" not in sub_help.stdout


def test_the_real_entry_point_reports_errors_like_the_in_process_one(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    for args in (
        ["lint", str(deep)],
        ["search", "x", "-c", str(tmp_path / "missing.json")],
        ["receipts", "verify", "--store", str(tmp_path / "missing.db")],
        ["approvals", "list", "--store", "mysql://db/x"],
        ["pin", str(deep), "-o", str(tmp_path / "no" / "lock.json")],
    ):
        real, in_process = callgate(*args, cwd=tmp_path), cli(*args)
        assert_error(real)
        assert (real.code, real.stderr) == (in_process.code, in_process.stderr)
    assert list(tmp_path.iterdir()) == [deep]


def test_the_real_entry_point_reads_and_writes(tmp_path: Path) -> None:
    catalog = tmp_path / "tools.json"
    catalog.write_text(
        json.dumps(
            [
                {
                    "name": "get_weather",
                    "description": "Get the current weather for one city.",
                    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
                }
            ]
        )
    )
    ran = callgate("lint", str(catalog), "--json", "--fail-on", "never", cwd=tmp_path)
    assert ran.code == 0 and json.loads(ran.stdout)["tools"] == 1
    assert callgate("version").stdout.strip() == __import__("callgate").__version__


@needs(*POSTGRES, extra="postgres")
def test_an_unreachable_postgresql_is_one_line_from_the_real_entry_point() -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ran = callgate("receipts", "verify", "--store", f"postgresql://u:pw@127.0.0.1:{port}/x")
    assert_error(ran, "is unavailable", f"127.0.0.1:{port}")
    assert "pw@" not in ran.output


def test_an_unexpected_error_is_one_line_with_the_way_to_the_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from callgate.cli import _lint

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("surprise")

    monkeypatch.setattr(_lint, "lint", broken)
    catalog = tmp_path / "tools.json"
    catalog.write_text("[]")
    ran = cli("lint", str(catalog))
    assert_error(ran, "unexpected KeyError", "--debug", "CALLGATE_DEBUG=1")
    with pytest.raises(AssertionError, match="raised"):
        cli("--debug", "lint", str(catalog))


def test_main_in_process_leaves_the_callers_objects_collectable() -> None:
    code = (
        "import gc, sys\n"
        "from callgate.cli import main\n"
        "assert gc.get_freeze_count() == 0\n"
        "sys.argv = ['callgate', 'version']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('FROZEN', gc.get_freeze_count())\n"
    )
    assert _last_line(code) == "FROZEN 0"


def _last_line(code: str) -> str:
    """The last line `code` prints, run in a fresh interpreter that must succeed."""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1]
