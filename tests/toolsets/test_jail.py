"""Every way out of the workspace is refused, through the gate as a model would see it."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callgate import ToolError, UserError
from callgate.toolsets import coding_tools
from callgate.toolsets._workspace import Workspace
from tests.toolsets.conftest import Session

ESCAPES = [
    "../outside.txt",
    "src/../../outside.txt",
    "./../outside.txt",
    "~/outside.txt",
    "/etc/passwd",
    "/proc/self/root/etc/passwd",
    "/proc/self/cwd/../outside.txt",
    "//etc/passwd",
    "with\x00nul",
]


@pytest.mark.parametrize("path", ESCAPES)
async def test_paths_that_leave_the_root_are_denied(
    session: Callable[..., Session], workspace: Path, path: str
) -> None:
    s = session()
    result = await s.call("read_file", path=path)
    assert result.route == "denied", result
    assert result.rule_id == "toolset:refused"
    assert "outside secret" not in result.content


@pytest.mark.parametrize("path", ["../outside.txt", "/etc/passwd"])
async def test_escapes_fail_closed_without_the_policy(
    session: Callable[..., Session], path: str
) -> None:
    s = session(lean=True)
    result = await s.call("read_file", path=path)
    assert result.route == "failed"
    assert "workspace" in result.content and "outside secret" not in result.content


async def test_an_absolute_path_inside_the_root_is_read(
    session: Callable[..., Session], workspace: Path
) -> None:
    result = await session().call("read_file", path=str(workspace / "README.md"))
    assert result.route == "completed" and "# Project" in result.content


@pytest.mark.parametrize(
    "link_target, path",
    [
        ("../outside.txt", "notes.txt"),
        ("/etc", "notes.txt/passwd"),
        ("/proc/self/root", "notes.txt/etc/hostname"),
        ("/proc/self/cwd", "notes.txt/x"),
    ],
)
async def test_symbolic_links_out_of_the_root_are_denied(
    session: Callable[..., Session], workspace: Path, link_target: str, path: str
) -> None:
    (workspace / "notes.txt").symlink_to(link_target)
    result = await session().call("read_file", path=path)
    assert result.route == "denied"
    assert "symbolic link" in result.content


async def test_links_inside_the_root_are_followed(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "readme-link").symlink_to("README.md")
    (workspace / "pkg").symlink_to("src/pkg")
    s = session()
    assert "# Project" in (await s.call("read_file", path="readme-link")).content
    assert "def main" in (await s.call("read_file", path="pkg/app.py")).content


async def test_a_link_to_a_secret_is_a_secret(
    session: Callable[..., Session], workspace: Path
) -> None:
    (workspace / "config.txt").symlink_to(".env")
    result = await session(secrets="deny").call("read_file", path="config.txt")
    assert result.route == "denied" and result.rule_id == "toolset:secrets"


async def test_writes_through_an_outward_link_change_nothing(
    session: Callable[..., Session], workspace: Path, tmp_path: Path
) -> None:
    (workspace / "out").symlink_to(tmp_path)
    s = session()
    created = await s.call("write_file", path="out/new.txt", content="x")
    edited = await s.call("edit_file", path="out/outside.txt", old="outside", new="inside")
    escaped = await s.call("write_file", path="../planted.txt", content="x")
    assert {created.route, edited.route, escaped.route} == {"denied"}
    assert not (tmp_path / "new.txt").exists() and not (tmp_path / "planted.txt").exists()
    assert (tmp_path / "outside.txt").read_text() == "outside secret\n"


async def test_a_link_swapped_in_after_the_check_is_not_followed(
    session: Callable[..., Session],
    workspace: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The directory is replaced by a link between the check and the open (fault injection)."""
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "app.py").write_text("STOLEN-CONTENT\n")
    original = Workspace.open_file

    def swap_then_open(self: Workspace, located: Any) -> Any:
        pkg = workspace / "src" / "pkg"
        if not pkg.is_symlink():
            (pkg / "app.py").unlink()
            pkg.rmdir()
            pkg.symlink_to(tmp_path / "elsewhere")
        return original(self, located)

    monkeypatch.setattr(Workspace, "open_file", swap_then_open)
    result = await session().call("read_file", path="src/pkg/app.py")
    assert result.route == "failed"
    assert "STOLEN-CONTENT" not in result.content
    assert "nothing was done" in result.content


async def test_special_files_are_refused_without_blocking(
    session: Callable[..., Session], workspace: Path
) -> None:
    os.mkfifo(workspace / "pipe")
    result = await session().call("read_file", path="pipe")
    assert result.route == "failed" and "not a regular file" in result.content


@pytest.mark.parametrize("root", ["/", "/proc", "/proc/self", "/sys"])
def test_a_root_that_exposes_the_system_is_refused(root: str) -> None:
    with pytest.raises(UserError):
        coding_tools(root)


@pytest.fixture
def linked_workspace(tmp_path: Path) -> Workspace:
    root = tmp_path / "root"
    (root / "src" / "deep").mkdir(parents=True)
    (root / "src" / "deep" / "f.txt").write_text("x")
    (root / "up").symlink_to("..")
    (root / "abs").symlink_to("/")
    (root / "in").symlink_to("src")
    (root / "loop").symlink_to("loop")
    return Workspace(root, secret_patterns=[".env"], protected_patterns=[".git/"])


PARTS = st.sampled_from(["..", ".", "src", "deep", "f.txt", "up", "abs", "in", "loop", "", "etc"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(PARTS, max_size=8), absolute=st.booleans())
def test_no_path_resolves_outside(
    linked_workspace: Workspace, parts: list[str], absolute: bool
) -> None:
    path = "/".join(parts)
    if absolute:
        path = linked_workspace.root + "/" + path
    try:
        located = linked_workspace.locate(path)
    except ToolError:
        return
    real = os.path.realpath(os.path.join(linked_workspace.root, located.real))
    assert real == linked_workspace.root or real.startswith(linked_workspace.root + "/")
    assert ".." not in located.shown.split("/")


@given(text=st.text(max_size=300))
@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_text_is_a_path_or_a_clear_refusal(linked_workspace: Workspace, text: str) -> None:
    try:
        located = linked_workspace.locate(text)
    except ToolError as exc:
        assert exc.message
        return
    real = os.path.realpath(os.path.join(linked_workspace.root, located.real))
    assert real == linked_workspace.root or real.startswith(linked_workspace.root + "/")
