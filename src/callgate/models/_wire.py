"""The transcript in a provider's wire format (through `callgate.dialects`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from callgate.dialects import (
    Dialect,
    Message,
    Rendered,
    Transcript,
    render_results,
    write_messages,
)

__all__ = ["history"]


def history(
    dialect: Dialect, messages: Sequence[Message], rendered: Rendered | None, native: Dialect
) -> list[dict[str, Any]]:
    """`messages` (without the system prompt, which each adapter places itself)."""
    if dialect is Dialect.TEXT:
        return _text_history(messages, rendered, native)
    transcript = Transcript(messages=tuple(messages))
    return write_messages(dialect, transcript, rendered=rendered).messages


def _text_history(
    messages: Sequence[Message], rendered: Rendered | None, native: Dialect
) -> list[dict[str, Any]]:
    """Text mode: plain user/assistant turns; calls as the model wrote them, results as
    user text."""
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "tool":
            for item in render_results(Dialect.TEXT, message.results, rendered=rendered):
                out.append(_plain("user", str(item["content"]), native))
        elif message.role == "assistant":
            raw = (message.state.get("text") or {}).get("raw") or message.text
            out.append(_plain("assistant", raw, native))
        elif message.role == "user":
            out.append(_plain("user", message.text, native))
    return out


def _plain(role: str, text: str, native: Dialect) -> dict[str, Any]:
    if native is Dialect.GEMINI:
        return {"role": "model" if role == "assistant" else "user", "parts": [{"text": text}]}
    return {"role": role, "content": text}
