"""The workspace jail: every path a model names is resolved inside one root, or refused.

A path is resolved lexically (`..` never reaches the operating system), then through the
file system (`realpath`): a symbolic link that leads out of the root is refused. Files are
then opened one directory at a time from the root with `O_NOFOLLOW`, along the path that
was checked, so a link swapped in between the check and the open fails instead of being
followed (the portable form of Linux's `openat2(RESOLVE_BENEATH)`).
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from callgate._errors import ToolError, UserError
from callgate._extras import require

__all__ = ["Entry", "Located", "Workspace"]

_MAX_PATH = 4096
_FORBIDDEN_ROOTS = ("/proc", "/sys", "/dev")
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True, kw_only=True, slots=True)
class Located:
    """A path inside the workspace, as the model wrote it and as it really is."""

    shown: str
    """The path relative to the root, normalized (what results show)."""
    real: str
    """The path relative to the root with every link resolved ("." for the root)."""
    secret: bool
    """It matches a secret pattern (by the name shown or the real name)."""
    protected: bool

    @property
    def name(self) -> str:
        return posixpath.basename(self.real)


@dataclass(frozen=True, kw_only=True, slots=True)
class Entry:
    """One directory entry met by a walk."""

    path: str
    """Relative to the root."""
    is_dir: bool
    is_link: bool
    ignored: bool
    """Ignored by a `.gitignore` (its directory is not entered)."""
    depth: int


class Workspace:
    """The root directory every coding tool works in, and the patterns that mark its files."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        secret_patterns: Iterable[str],
        protected_patterns: Iterable[str],
    ) -> None:
        self._pathspec: Any = require("pathspec", extra="coding")
        real = os.path.realpath(os.fspath(root))
        if not os.path.isdir(real):
            raise UserError(f"workspace root {os.fspath(root)!r} is not a directory")
        if real == "/" or any(real == r or real.startswith(r + "/") for r in _FORBIDDEN_ROOTS):
            raise UserError(f"workspace root {real!r} would expose the whole system")
        self.root = real
        self._given_root = os.path.normpath(os.path.abspath(os.fspath(root)))
        self._secrets = self._spec(secret_patterns)
        self._protected = self._spec(protected_patterns)

    def _spec(self, patterns: Iterable[str]) -> Any:
        return self._pathspec.GitIgnoreSpec.from_lines(list(patterns))

    # -- resolving --------------------------------------------------------------------------

    def locate(self, path: object) -> Located:
        """Resolve a model-given path; `ToolError` when it leaves the workspace."""
        shown = self._lexical(path)
        real_abs = os.path.realpath(os.path.join(self.root, shown))
        if not self._inside(real_abs):
            raise ToolError(
                f"{path!r} leads outside the workspace through a symbolic link; "
                "only files under the workspace root can be used"
            )
        real = os.path.relpath(real_abs, self.root)
        return Located(
            shown=shown,
            real=real,
            secret=self.is_secret(shown) or self.is_secret(real),
            protected=self._matches(self._protected, shown) or self._matches(self._protected, real),
        )

    def _lexical(self, path: object) -> str:
        if not isinstance(path, str) or not path.strip():
            raise ToolError("the path must be a non-empty string relative to the workspace root")
        if "\x00" in path or len(path) > _MAX_PATH:
            raise ToolError("the path holds a NUL character or is too long")
        if path.startswith("~"):
            raise ToolError(f"{path!r}: '~' is not expanded; give a path inside the workspace")
        if posixpath.isabs(path):
            normal = posixpath.normpath(path)
            for root in (self.root, self._given_root):
                if normal == root or normal.startswith(root + "/"):
                    return posixpath.relpath(normal, root)
            raise ToolError(
                f"{path!r} is outside the workspace; give a path relative to the workspace root"
            )
        normal = posixpath.normpath(path)
        if normal == ".." or normal.startswith("../"):
            raise ToolError(f"{path!r} climbs out of the workspace with '..'")
        return normal

    def _inside(self, real_abs: str) -> bool:
        return real_abs == self.root or real_abs.startswith(self.root + "/")

    def is_secret(self, relative: str) -> bool:
        return self._matches(self._secrets, relative)

    def _matches(self, spec: Any, relative: str) -> bool:
        if relative in (".", ""):
            return False
        parts = relative.split("/")
        # A pattern such as `.git/` matches the directory; anything below it is inside it too.
        prefixes = ["/".join(parts[:i]) + "/" for i in range(1, len(parts))]
        return any(bool(spec.match_file(p)) for p in [*prefixes, relative])

    # -- opening ------------------------------------------------------------------------------

    def open_parent(self, located: Located, *, create: bool = False) -> tuple[int, str]:
        """A descriptor of the checked path's directory and the final name; with `create`,
        missing directories are made on the way. The caller closes the descriptor."""
        if located.real == ".":
            raise ToolError("the workspace root is a directory, not a file")
        parts = located.real.split("/")
        fd = os.open(self.root, _DIR_FLAGS)
        for part in parts[:-1]:
            fd = _enter(fd, part, create=create)  # closes the descriptor it was given
        return fd, parts[-1]

    def open_file(self, located: Located) -> tuple[int, os.stat_result]:
        """Open a regular file for reading, never through a link; (descriptor, status)."""
        parent, name = self.open_parent(located)
        try:
            fd = os.open(
                name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=parent
            )
        except FileNotFoundError:
            raise ToolError(f"{located.shown} does not exist") from None
        except IsADirectoryError:
            raise ToolError(f"{located.shown} is a directory; use list_dir") from None
        except OSError as exc:
            raise _changed(located, exc) from None
        finally:
            os.close(parent)
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            kind = (
                "a directory; use list_dir" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            )
            raise ToolError(f"{located.shown} is {kind}")
        return fd, info

    def exists(self, located: Located) -> bool:
        return os.path.lexists(os.path.join(self.root, located.real))

    def absolute(self, located: Located) -> Path:
        return Path(self.root, located.real)

    # -- walking -------------------------------------------------------------------------------

    def walk(self, start: Located, *, max_depth: int, budget: int) -> Iterator[Entry]:
        """Entries below `start` (depth-first, sorted), honouring `.gitignore` files: an
        ignored directory is yielded but not entered. Links are yielded, never followed.
        Stops after `budget` entries."""
        ignores = self._ignores_above(start.real)
        seen = 0
        stack: list[tuple[str, int, list[tuple[str, Any]]]] = [(start.real, 1, ignores)]
        while stack:
            directory, depth, active = stack.pop()
            active = active + self._ignore_file(directory)
            entries = _scan(os.path.join(self.root, directory))
            children = []
            for name, is_dir, is_link in entries:
                seen += 1
                if seen > budget:
                    return
                path = name if directory == "." else f"{directory}/{name}"
                ignored = name == ".git" or _ignored(active, path, is_dir)
                entry = Entry(
                    path=path, is_dir=is_dir, is_link=is_link, ignored=ignored, depth=depth
                )
                yield entry
                if is_dir and not is_link and not ignored and depth < max_depth:
                    children.append((path, depth + 1, active))
            stack.extend(reversed(children))

    def _ignores_above(self, directory: str) -> list[tuple[str, Any]]:
        """The `.gitignore` files of the directories above `directory`, root first."""
        found = self._exclude_file()
        if directory == ".":
            return found
        parts = directory.split("/")
        for i in range(len(parts)):
            found += self._ignore_file("." if i == 0 else "/".join(parts[:i]))
        return found

    def _exclude_file(self) -> list[tuple[str, Any]]:
        return self._read_ignore(".", os.path.join(self.root, ".git", "info", "exclude"))

    def _ignore_file(self, directory: str) -> list[tuple[str, Any]]:
        return self._read_ignore(directory, os.path.join(self.root, directory, ".gitignore"))

    def _read_ignore(self, directory: str, path: str) -> list[tuple[str, Any]]:
        try:
            if os.path.islink(path) or not os.path.isfile(path):
                return []
            with open(path, encoding="utf-8", errors="replace") as handle:
                lines = handle.read(1_000_000).splitlines()
        except OSError:
            return []
        return [(directory, self._spec(lines))]


def _enter(fd: int, part: str, *, create: bool) -> int:
    try:
        child = os.open(part, _DIR_FLAGS, dir_fd=fd)
    except FileNotFoundError:
        if not create:
            raise ToolError(f"directory {part!r} does not exist") from None
        try:
            os.mkdir(part, 0o777, dir_fd=fd)
            child = os.open(part, _DIR_FLAGS, dir_fd=fd)
        except OSError as exc:
            raise ToolError(f"cannot create directory {part!r}: {exc.strerror}") from None
    except OSError as exc:
        raise ToolError(
            f"{part!r} changed into a link or a file while it was being opened ({exc.strerror}); "
            "nothing was done"
        ) from None
    finally:
        os.close(fd)
    return child


def _changed(located: Located, exc: OSError) -> ToolError:
    return ToolError(
        f"{located.shown} could not be opened safely ({exc.strerror}): it is a link or it "
        "changed while being opened; nothing was done"
    )


def _scan(directory: str) -> list[tuple[str, bool, bool]]:
    try:
        with os.scandir(directory) as it:
            found = []
            for item in it:
                try:
                    is_link = item.is_symlink()
                    is_dir = item.is_dir(follow_symlinks=False)
                except OSError:
                    continue
                found.append((item.name, is_dir, is_link))
    except OSError:
        return []
    return sorted(found)


def _ignored(active: list[tuple[str, Any]], path: str, is_dir: bool) -> bool:
    """Git's rule: the last pattern that decides wins, deeper `.gitignore` files last."""
    decision = False
    for base, spec in active:
        if base != ".":
            if not path.startswith(base + "/"):
                continue
            relative = path[len(base) + 1 :]
        else:
            relative = path
        result = spec.check_file(relative + "/" if is_dir else relative)
        if result.include is not None:
            decision = bool(result.include)
    return decision
