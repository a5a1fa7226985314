"""Find tool calls in free text."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from callgate.contract import Tool, ToolCall
from callgate.dialects._aliases import Aliases

__all__ = ["Extracted", "extract_calls"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Extracted:
    text: str
    calls: tuple[ToolCall, ...] = ()


def extract_calls(text: str, tools: Iterable[Tool], *, aliases: Aliases | None = None
                  ) -> Extracted:
    return Extracted(text=text)
