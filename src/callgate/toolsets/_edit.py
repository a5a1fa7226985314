"""Changing the workspace: `edit_file` (one exact fragment) and `write_file`.

Both write a temporary file beside the target and rename it over the target, so a reader
never sees half a file. Just before the rename the target is read again: if it changed
since it was read (another editor, a formatter, a second call), the write is dropped and
the call routes `conflict`.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import os
import secrets
import stat

from callgate._errors import ConflictError, ToolError
from callgate.toolsets._files import is_binary
from callgate.toolsets._settings import CodingLimits
from callgate.toolsets._workspace import Located, Workspace

__all__ = ["FileWriter", "sha256"]

_CONTEXT = 2
_CANDIDATES = 5


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class FileWriter:
    def __init__(self, workspace: Workspace, limits: CodingLimits) -> None:
        self.workspace = workspace
        self.limits = limits

    def edit(self, located: Located, old: str, new: str, expected_sha256: str | None) -> str:
        if not old:
            raise ToolError(
                "old is empty; give the exact text to replace (write_file creates files)"
            )
        if old == new:
            raise ToolError("old and new are the same; nothing to change")
        data, mode = self._read(located)
        current = sha256(data)
        _expect(located, expected_sha256, current)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ToolError(
                f"{located.shown} is not UTF-8 text; edit_file changes text files"
            ) from None
        if "\r\n" in text and "\r\n" not in old:  # the model wrote \n for a CRLF file
            old, new = old.replace("\n", "\r\n"), new.replace("\n", "\r\n")
        found = _occurrences(text, old)
        if len(found) != 1:
            raise ToolError(_no_single_match(located.shown, text, old, found))
        at = found[0]
        updated = text[:at] + new + text[at + len(old) :]
        encoded = _encode(updated)
        digest = self._replace(located, encoded, base=current, mode=mode)
        first = text.count("\n", 0, at) + 1
        old_lines, new_lines = old.count("\n") + 1, new.count("\n") + 1
        return (
            f"Edited {located.shown}: lines {first}-{first + old_lines - 1} replaced by "
            f"{new_lines} line(s); sha256 now {digest}\n"
            + _snippet(updated, first, first + new_lines - 1)
        )

    def write(self, located: Located, content: str, expected_sha256: str | None) -> str:
        encoded = _encode(content)
        lines = content.count("\n") + (0 if content.endswith("\n") or not content else 1)
        if self.workspace.exists(located):
            data, mode = self._read(located, allow_binary=True)
            current = sha256(data)
            _expect(located, expected_sha256, current)
            digest = self._replace(located, encoded, base=current, mode=mode)
            verb = "Replaced"
        else:
            if expected_sha256:
                raise ConflictError(
                    f"{located.shown} does not exist, but a sha256 of its content was expected"
                )
            digest = self._create(located, encoded)
            verb = "Created"
        return f"{verb} {located.shown}: {lines} line(s), {len(encoded)} bytes, sha256 {digest}"

    # -- helpers ------------------------------------------------------------------------------

    def _read(self, located: Located, *, allow_binary: bool = False) -> tuple[bytes, int]:
        fd, info = self.workspace.open_file(located)
        with os.fdopen(fd, "rb") as handle:
            if info.st_size > self.limits.write_chars * 4:
                raise ToolError(
                    f"{located.shown} is too large to change here ({info.st_size} bytes)"
                )
            data = handle.read()
        if not allow_binary and is_binary(data):
            raise ToolError(f"{located.shown} is a binary file; edit_file changes text files")
        return data, stat.S_IMODE(info.st_mode)

    def _create(self, located: Located, data: bytes) -> str:
        parent, name = self.workspace.open_parent(located, create=True)
        try:
            flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC
            try:
                fd = os.open(name, flags, 0o666, dir_fd=parent)
            except FileExistsError:
                raise ConflictError(
                    f"{located.shown} was created by someone else meanwhile; read it first"
                ) from None
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        finally:
            os.close(parent)
        return sha256(data)

    def _replace(self, located: Located, data: bytes, *, base: str, mode: int) -> str:
        parent, name = self.workspace.open_parent(located)
        temporary = f".{name}.{secrets.token_hex(6)}.tmp"
        try:
            flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(temporary, flags, mode, dir_fd=parent)
            with os.fdopen(fd, "wb") as handle:
                os.fchmod(handle.fileno(), mode)  # the umask narrowed it at creation
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            if self._current(located) != base:
                raise ConflictError(
                    f"{located.shown} changed while this call was writing it; nothing was "
                    "written. Read it again and redo the change"
                )
            os.replace(temporary, name, src_dir_fd=parent, dst_dir_fd=parent)
        except BaseException:
            _remove(temporary, parent)
            raise
        finally:
            os.close(parent)
        return sha256(data)

    def _current(self, located: Located) -> str:
        fd, _ = self.workspace.open_file(located)
        with os.fdopen(fd, "rb") as handle:
            return sha256(handle.read())


def _encode(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise ToolError("the text holds a lone surrogate, which is not valid Unicode") from None


def _expect(located: Located, expected: str | None, current: str) -> None:
    if expected and expected.strip().lower() != current:
        raise ConflictError(
            f"{located.shown} changed since it was read (sha256 now {current}, expected "
            f"{expected}); read it again and redo the change"
        )


def _occurrences(text: str, fragment: str) -> list[int]:
    """Every start of `fragment`, overlapping ones included (`aa` twice in `aaa`)."""
    found, at = [], text.find(fragment)
    while at != -1:
        found.append(at)
        at = text.find(fragment, at + 1)
    return found


def _no_single_match(shown: str, text: str, old: str, found: list[int]) -> str:
    lines = text.splitlines()
    if found:
        numbers = [text.count("\n", 0, at) + 1 for at in found]
        listed = "\n".join(f"{n:>6}\t{lines[n - 1][:200]}" for n in numbers[:_CANDIDATES])
        more = (
            f"\n  ... and {len(numbers) - _CANDIDATES} more" if len(numbers) > _CANDIDATES else ""
        )
        return (
            f"old occurs {len(found)} times in {shown}, at lines "
            f"{', '.join(map(str, numbers[:20]))}:\n{listed}{more}\n"
            "Include more surrounding lines in old so that it matches exactly once."
        )
    probe = next((ln.strip() for ln in old.splitlines() if ln.strip()), old.strip())
    scored = sorted(
        (
            (difflib.SequenceMatcher(None, probe, ln.strip()).ratio(), i)
            for i, ln in enumerate(lines)
        ),
        reverse=True,
    )
    close = [(i + 1, lines[i]) for score, i in scored[:_CANDIDATES] if score >= 0.5]
    hint = (
        "Closest lines:\n" + "\n".join(f"{n:>6}\t{ln[:200]}" for n, ln in sorted(close))
        if close
        else "No line is close to it."
    )
    return (
        f"old was not found in {shown}. {hint}\n"
        "Read the file again and copy the fragment exactly, indentation included."
    )


def _snippet(text: str, first: int, last: int) -> str:
    lines = text.splitlines()
    start, end = max(first - _CONTEXT, 1), min(last + _CONTEXT, len(lines))
    return "\n".join(f"{n:>6}\t{lines[n - 1][:300]}" for n in range(start, end + 1))


def _remove(name: str, parent: int) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name, dir_fd=parent)
