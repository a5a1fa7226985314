"""The stdio client's lines, read as the event loop sees them arrive.

The SDK's stdio transport reads stdin in a worker thread, which no cancellation reaches: a
SIGTERM while the client is silent would leave the gateway waiting for the client's next
line (and, the worker thread being joined at exit, the process would not end until stdin
closes). Reading only once the descriptor is readable keeps every wait cancellable.

While serving, fd 0 points at the null device, as the SDK does for its own reads, so a
child process that inherits it reads EOF instead of the client's messages.
"""

from __future__ import annotations

import codecs
import contextlib
import os
from collections.abc import AsyncIterator, Iterator

import anyio

__all__ = ["StdinLines", "claimed_stdin"]

_CHUNK = 1 << 16
MAX_LINE = 64 << 20
"""A longer line without a newline is handed on as it is (the transport answers a parse
error) rather than held in memory without end."""


class StdinLines:
    """`async for line in StdinLines(fd)`: UTF-8 lines (undecodable bytes replaced), each
    with its newline, until EOF."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        while chunk := await self._read():
            text = decoder.decode(chunk)
            if "\n" not in text and len(pending) + len(text) <= MAX_LINE:
                pending += text
                continue
            *lines, pending = (pending + text).split("\n")
            for line in lines:
                yield line + "\n"
            if len(pending) > MAX_LINE:
                yield pending
                pending = ""
        if tail := pending + decoder.decode(b"", final=True):
            yield tail

    async def _read(self) -> bytes:
        with contextlib.suppress(OSError):  # a regular file or /dev/null cannot be waited on
            await anyio.wait_readable(self.fd)  # and never blocks a read for long
        return os.read(self.fd, _CHUNK)


@contextlib.contextmanager
def claimed_stdin() -> Iterator[StdinLines]:
    """The client's lines on a private copy of fd 0, with fd 0 on the null device until
    the block ends."""
    private = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    try:
        yield StdinLines(private)
    finally:
        os.dup2(private, 0)
        os.close(private)
