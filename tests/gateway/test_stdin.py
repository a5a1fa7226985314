"""The stdio client's lines as the gateway reads them: the same lines as a file would give,
from any chunking, and a wait that a cancellation ends."""

from __future__ import annotations

import os

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from callgate.gateway._stdin import StdinLines


async def _lines(chunks: list[bytes]) -> list[str]:
    read, write = os.pipe()

    async def feed() -> None:
        for chunk in chunks:
            await anyio.to_thread.run_sync(os.write, write, chunk)
        os.close(write)

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(feed)
            lines = [line async for line in StdinLines(read)]
    finally:
        os.close(read)
    return lines


@given(st.lists(st.binary(max_size=300) | st.just(b"\n") | st.just("é😀".encode()[:3])))
def test_lines_are_what_a_text_file_would_give(chunks: list[bytes]) -> None:
    text = b"".join(chunks).decode("utf-8", errors="replace")
    *whole, last = text.split("\n")
    expected = [line + "\n" for line in whole] + ([last] if last else [])
    assert anyio.run(_lines, chunks) == expected


async def test_a_silent_client_does_not_hold_up_a_cancellation() -> None:
    read, write = os.pipe()
    try:
        with anyio.move_on_after(0.2) as scope:
            async for _ in StdinLines(read):
                pass
        assert scope.cancelled_caught
    finally:
        os.close(read)
        os.close(write)


async def test_an_endless_line_is_handed_on_in_bounded_pieces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("callgate.gateway._stdin.MAX_LINE", 1000)
    got = await _lines([b"x" * 700] * 5 + [b"\nok\n"])
    assert "".join(got) == "x" * 3500 + "\nok\n"
    assert len(got) > 3 and max(len(line) for line in got) <= 1000 + 700
    assert got[-1] == "ok\n"
