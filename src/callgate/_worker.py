"""The worker process of `run_in="process"` tools: `python -m callgate._worker`.

Reads calls from standard input and writes answers to a private copy of standard output;
the tool's own prints go to standard error, so nothing it writes can corrupt the answers.
Frames are 8-byte big-endian lengths followed by pickles, in both directions.
"""

from __future__ import annotations

import importlib
import os
import pickle
import signal
import sys
import traceback
from typing import Any, BinaryIO

from callgate._errors import ConflictError, ToolError, TransientError

__all__ = ["KINDS", "read_frame", "write_frame"]

KINDS: dict[str, type[ToolError]] = {
    "conflict": ConflictError,
    "transient": TransientError,
    "tool": ToolError,
}
"""Answer kinds for the library's own tool errors (their message reaches the model)."""


def write_frame(out: BinaryIO, value: Any) -> None:
    data = pickle.dumps(value)
    out.write(len(data).to_bytes(8, "big") + data)
    out.flush()


def read_frame(source: BinaryIO) -> Any:
    """The next frame, or raise EOFError when the other side is gone."""
    header = _exactly(source, 8)
    return pickle.loads(_exactly(source, int.from_bytes(header, "big")))


def _exactly(source: BinaryIO, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = source.read(left)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _resolve(module: str, qualname: str) -> Any:
    target: Any = importlib.import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part)
    executor = getattr(target, "executor", None)  # `@tool` put a Tool under the name
    return executor if callable(executor) else target


def _answer(module: str, qualname: str, kwargs: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "ok", _resolve(module, qualname)(**kwargs)
    except Exception as exc:
        kind = next((k for k, cls in KINDS.items() if isinstance(exc, cls)), None)
        if kind is not None:
            return kind, exc.message  # type: ignore[attr-defined]
        return "other", traceback.format_exc()


def serve(preload: list[str]) -> None:
    """Answer calls; `preload` names modules imported before saying ready."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # the tool's prints go to standard error
    calls = sys.stdin.buffer
    for module in preload:
        importlib.import_module(module)
    write_frame(answers, ("ready", None))  # started: the parent's deadlines count from here
    while True:
        try:
            module, qualname, kwargs = read_frame(calls)
        except EOFError:
            return
        answer = _answer(module, qualname, kwargs)
        try:
            write_frame(answers, answer)
        except Exception:  # the value would not pickle
            write_frame(answers, ("other", traceback.format_exc()))


if __name__ == "__main__":
    serve(sys.argv[1:])
