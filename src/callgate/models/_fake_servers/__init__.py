"""Fake provider servers: ASGI apps on 127.0.0.1 that speak each API's wire format.

They replay scripted turns (blocking JSON or SSE streaming, as the client asks) and record
the requests they received, so tests drive the official SDK clients over real HTTP.
"""

from callgate.models._fake_servers._anthropic import FakeAnthropicServer
from callgate.models._fake_servers._base import FakeProviderServer, RecordedRequest
from callgate.models._fake_servers._gemini import FakeGeminiServer
from callgate.models._fake_servers._openai_chat import FakeOpenAIChatServer
from callgate.models._fake_servers._openai_responses import FakeOpenAIResponsesServer

__all__ = [
    "FakeAnthropicServer",
    "FakeGeminiServer",
    "FakeOpenAIChatServer",
    "FakeOpenAIResponsesServer",
    "FakeProviderServer",
    "RecordedRequest",
]
