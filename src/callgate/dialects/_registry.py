"""One codec per dialect."""

from __future__ import annotations

from functools import cache

from callgate.dialects._codec import Codec
from callgate.dialects._kinds import Dialect

__all__ = ["codec"]


@cache
def codec(dialect: Dialect) -> Codec:
    from callgate.dialects._anthropic import Anthropic
    from callgate.dialects._gemini import Gemini
    from callgate.dialects._mcp import MCP
    from callgate.dialects._openai_chat import OpenAIChat
    from callgate.dialects._responses import OpenAIResponses
    from callgate.dialects._text import Text

    made: dict[Dialect, type[Codec]] = {
        Dialect.OPENAI_CHAT: OpenAIChat,
        Dialect.OPENAI_RESPONSES: OpenAIResponses,
        Dialect.ANTHROPIC: Anthropic,
        Dialect.GEMINI: Gemini,
        Dialect.MCP: MCP,
        Dialect.TEXT: Text,
    }
    return made[dialect]()
