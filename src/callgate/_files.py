"""Reading a file a person named: a regular file only, and no more than its limit.

A path is hostile input like the file it names. A FIFO without a writer blocks `open()`
forever, and a link to /dev/zero or /dev/urandom never ends: the file is opened without
waiting for a writer, refused unless it is a regular file, and read no further than the
limit its caller sets (a file that grows while it is read is still cut there).
"""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO

from callgate._errors import UserError

__all__ = ["MAX_CONFIG_BYTES", "open_regular", "read_bytes", "read_config"]

MAX_CONFIG_BYTES = 1 << 20
"""The most a configuration file (an `mcpServers` JSON, `callgate.toml`, a policy) holds."""

_KINDS = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def open_regular(path: str | os.PathLike[str], *, limit: int | None = None) -> BinaryIO:
    """The regular file at `path` (links followed), open for reading in binary. An
    `OSError` whose `strerror` says why when it cannot be opened, is a folder, is not a
    regular file, or is larger than `limit` bytes."""
    where = os.fspath(path)
    fd = os.open(where, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", where)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "a special file")
            raise OSError(errno.EINVAL, f"is {kind}, not a regular file", where)
        if limit is not None and info.st_size > limit:
            raise OSError(errno.EFBIG, _too_large(info.st_size, limit), where)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def read_bytes(path: str | os.PathLike[str], *, limit: int | None = None) -> bytes:
    """The bytes of the regular file at `path` (see `open_regular`), no more than `limit`."""
    with open_regular(path, limit=limit) as handle:
        data = handle.read() if limit is None else handle.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise OSError(errno.EFBIG, _too_large(len(data), limit), os.fspath(path))
    return data


def read_config(path: str | os.PathLike[str], label: str) -> str:
    """The UTF-8 text of a configuration file of at most `MAX_CONFIG_BYTES`; a `UserError`
    "cannot read {label}: why" when it is not one (`label` names the file for the reader)."""
    try:
        return read_bytes(path, limit=MAX_CONFIG_BYTES).decode("utf-8")
    except OSError as exc:
        raise UserError(f"cannot read {label}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise UserError(f"cannot read {label}: {exc}") from exc


def _too_large(size: int, limit: int) -> str:
    return f"{size} bytes is more than the {limit / (1 << 20):g} MiB limit"
