"""Reading the workspace: `read_file`, `list_dir`, `search_files`, `search_text`."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator
from typing import Any

from callgate._errors import ToolError
from callgate._extras import require
from callgate.toolsets._settings import CodingLimits
from callgate.toolsets._workspace import Entry, Located, Workspace

__all__ = ["FileReader"]

_SNIFF = 8192
_HASH_LIMIT = 64 * 1024 * 1024
_MATCH_CHARS = 300


def is_binary(head: bytes) -> bool:
    """NUL bytes in the first block: what git and grep take as binary."""
    return b"\x00" in head[:_SNIFF]


class FileReader:
    """The read tools over one workspace, within the limits the descriptions state."""

    def __init__(self, workspace: Workspace, limits: CodingLimits) -> None:
        self.workspace = workspace
        self.limits = limits
        self._regex: Any = require("regex", extra="coding")

    # -- read_file ----------------------------------------------------------------------------

    def read(self, located: Located, start_line: int | None, end_line: int | None) -> str:
        first = start_line or 1
        if end_line is not None and end_line < first:
            raise ToolError(f"end_line ({end_line}) is before start_line ({first})")
        fd, info = self.workspace.open_file(located)
        with os.fdopen(fd, "rb") as handle:
            if is_binary(handle.read(_SNIFF)):
                raise ToolError(
                    f"{located.shown} is a binary file ({info.st_size} bytes); read_file shows "
                    "text files only"
                )
            handle.seek(0)
            page = _Page(self.limits, first, end_line)
            digest = hashlib.sha256() if info.st_size <= _HASH_LIMIT else None
            total, complete = 0, True
            for total, raw in enumerate(_lines(handle, self.limits.line_chars * 4, digest), 1):
                page.add(total, raw)
                if digest is None and (page.done or total == end_line):
                    complete = False  # too large to hash: stop reading once the page is full
                    break
        if total and first > total and complete:
            raise ToolError(
                f"{located.shown} has {total} lines; start_line {first} is past the end"
            )
        checksum = digest.hexdigest() if digest is not None else None
        return page.render(located.shown, total if complete else None, checksum)

    # -- list_dir -----------------------------------------------------------------------------

    def list(self, located: Located, depth: int, limit: int) -> str:
        target = self.workspace.absolute(located)
        if not target.is_dir():
            raise ToolError(f"{located.shown} is not a directory; use read_file for files")
        lines: list[str] = []
        more = False
        walk = self.workspace.walk(located, max_depth=depth, budget=self.limits.walk_entries)
        for entry in walk:
            if len(lines) >= limit:
                more = True
                break
            lines.append(self._entry_line(entry))
        head = f"{located.shown}/ (depth {depth})"
        if not lines:
            return f"{head}: empty directory"
        tail = (
            f"\n[first {limit} entries shown; list a subdirectory or lower depth]" if more else ""
        )
        return head + "\n" + "\n".join(lines) + tail

    def _entry_line(self, entry: Entry) -> str:
        name = entry.path.rsplit("/", 1)[-1] + ("/" if entry.is_dir else "")
        marks = [
            mark
            for mark, on in (
                ("link", entry.is_link),
                ("ignored", entry.ignored),
                ("secret", self.workspace.is_secret(entry.path)),
            )
            if on
        ]
        suffix = f"  ({', '.join(marks)})" if marks else ""
        return "  " * (entry.depth - 1) + name + suffix

    # -- search_files -------------------------------------------------------------------------

    def find(self, pattern: str, limit: int) -> str:
        spec = self._pattern(pattern, "pattern")
        found: list[str] = []
        more = False
        for entry in self._files():
            if spec.match_file(entry.path):
                if len(found) >= limit:
                    more = True
                    break
                found.append(entry.path)
        if not found:
            return f"no files match {pattern!r} (files ignored by .gitignore are not searched)"
        tail = f"\n[first {limit} matches shown; narrow the pattern]" if more else ""
        return f"{len(found)} files match {pattern!r}:\n" + "\n".join(found) + tail

    # -- search_text --------------------------------------------------------------------------

    def grep(self, expression: str, glob: str | None, limit: int) -> str:
        try:
            compiled = self._regex.compile(expression)
        except self._regex.error as exc:
            raise ToolError(f"invalid regular expression: {exc}") from None
        spec = self._pattern(glob, "glob") if glob else None
        deadline = time.monotonic() + self.limits.search_seconds
        search = _Search(limit)
        try:
            for entry in self._files():
                if spec is not None and not spec.match_file(entry.path):
                    continue
                if time.monotonic() > deadline:
                    search.notes.append("the time budget ran out; narrow the glob")
                    break
                if self._grep_file(entry.path, compiled, deadline, search):
                    break
        except TimeoutError:
            search.notes.append(
                f"the expression took longer than {self.limits.search_seconds:g} s (it may "
                "backtrack without end); simplify it"
            )
        return search.render(expression)

    def _grep_file(self, path: str, compiled: Any, deadline: float, search: _Search) -> bool:
        """Search one file; True when the result limit is reached."""
        located = self.workspace.locate(path)
        if located.secret:
            search.skipped["secret"] += 1
            return False
        try:
            fd, info = self.workspace.open_file(located)
        except ToolError:
            return False
        with os.fdopen(fd, "rb") as handle:
            if info.st_size > self.limits.search_file_bytes:
                search.skipped["large"] += 1
                return False
            data = handle.read()
        if is_binary(data):
            search.skipped["binary"] += 1
            return False
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), start=1):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            if compiled.search(line, timeout=remaining) and search.add(path, number, line):
                return True
        return False

    # -- shared -------------------------------------------------------------------------------

    def _files(self) -> Iterator[Entry]:
        root = self.workspace.locate(".")
        walk = self.workspace.walk(root, max_depth=10_000, budget=self.limits.walk_entries)
        return (e for e in walk if not e.is_dir and not e.ignored and not e.is_link)

    def _pattern(self, pattern: str, what: str) -> Any:
        pathspec: Any = require("pathspec", extra="coding")
        try:
            return pathspec.GitIgnoreSpec.from_lines([pattern])
        except Exception as exc:  # pathspec raises several types for a malformed pattern
            raise ToolError(f"invalid {what} {pattern!r}: {exc}") from None


def _lines(handle: Any, cap: int, digest: Any) -> Iterator[bytes]:
    """Lines of a binary file, each at most `cap` bytes (the rest of a longer line is read
    and hashed but not kept, so one huge line cannot fill the memory)."""
    while chunk := handle.readline(cap):
        if digest is not None:
            digest.update(chunk)
        line = chunk
        while len(chunk) == cap and not chunk.endswith(b"\n"):
            chunk = handle.readline(cap)
            if digest is not None:
                digest.update(chunk)
        yield line


def _decode(raw: bytes) -> tuple[str, bool]:
    """UTF-8 text, and whether it was valid (a long line cut inside a character is)."""
    try:
        return raw.decode("utf-8"), True
    except UnicodeDecodeError as exc:
        if not raw.endswith(b"\n") and exc.start >= len(raw) - 3:
            return raw[: exc.start].decode("utf-8", "replace"), True
        return raw.decode("utf-8", "replace"), False


class _Page:
    """The window of lines `read_file` returns, cut by lines and characters."""

    def __init__(self, limits: CodingLimits, first: int, last: int | None) -> None:
        self.limits = limits
        self.first, self.last = first, last
        self.lines: list[str] = []
        self.chars = 0
        self.cut_at: int | None = None
        self.bad_utf8 = False

    @property
    def done(self) -> bool:
        return self.cut_at is not None

    def add(self, number: int, raw: bytes) -> None:
        if number < self.first or self.done or (self.last is not None and number > self.last):
            return
        text, clean = _decode(raw)
        self.bad_utf8 = self.bad_utf8 or not clean
        text = text.rstrip("\r\n")
        if len(text) > self.limits.line_chars:
            text = (
                text[: self.limits.line_chars] + f" … [line cut at {self.limits.line_chars} chars]"
            )
        rendered = f"{number:>6}\t{text}"
        full = len(self.lines) >= self.limits.read_lines
        if full or (self.chars + len(rendered) > self.limits.read_chars and self.lines):
            self.cut_at = number
            return
        self.lines.append(rendered)
        self.chars += len(rendered) + 1

    def render(self, shown: str, total: int | None, checksum: str | None) -> str:
        if total == 0:
            return f"{shown}: empty file (0 lines)" + (f", sha256 {checksum}" if checksum else "")
        last = self.first + len(self.lines) - 1
        of = f"{total}" if total is not None else "a file too large to count"
        head = f"{shown}: lines {self.first}-{last} of {of}"
        if checksum:
            head += f", sha256 {checksum}"
        notes = []
        if self.cut_at is not None:
            notes.append(f"[cut at the size limit; call read_file with start_line={self.cut_at}]")
        if self.bad_utf8:
            notes.append("[the file is not valid UTF-8: undecodable bytes are shown as �]")
        return "\n".join([head, *self.lines, *notes])


class _Search:
    """Matching lines collected by `search_text`, and what was skipped or cut."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.matches: list[str] = []
        self.files: set[str] = set()
        self.skipped = {"secret": 0, "large": 0, "binary": 0}
        self.notes: list[str] = []

    def add(self, path: str, number: int, line: str) -> bool:
        if len(self.matches) >= self.limit:
            self.notes.append(f"first {self.limit} matching lines shown; narrow the search")
            return True
        text = line.strip()
        if len(text) > _MATCH_CHARS:
            text = text[:_MATCH_CHARS] + " …"
        self.matches.append(f"{path}:{number}: {text}")
        self.files.add(path)
        return False

    def render(self, expression: str) -> str:
        head = (
            f"{len(self.matches)} matching lines in {len(self.files)} files for {expression!r}"
            if self.matches
            else f"no lines match {expression!r}"
        )
        skipped = ", ".join(f"{n} {kind}" for kind, n in self.skipped.items() if n)
        notes = [f"[{note}]" for note in self.notes]
        if skipped:
            notes.append(f"[files not searched: {skipped}; read a secret file with read_file]")
        return "\n".join([head, *self.matches, *notes])
