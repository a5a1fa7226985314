"""Model adapters over the official SDK clients, a scripted model and fake provider servers.

Adapters turn the loop's canonical requests into each provider's API and the answers back
into canonical turns. The SDKs are optional extras, imported only when an adapter is built.
"""

from callgate.models._adapter import SDKModel
from callgate.models._anthropic import AnthropicModel
from callgate.models._fake_servers import (
    FakeAnthropicServer,
    FakeGeminiServer,
    FakeOpenAIChatServer,
    FakeOpenAIResponsesServer,
    FakeProviderServer,
    RecordedRequest,
)
from callgate.models._gemini import GeminiModel
from callgate.models._openai_chat import OpenAIChatModel
from callgate.models._openai_responses import OpenAIResponsesModel
from callgate.models._resolve import PROVIDERS, model_from_spec
from callgate.models._retry import NO_RETRY, RetryPolicy
from callgate.models._script import ScriptedCall, ScriptError, Turn, TurnSource
from callgate.models._scripted import ScriptedHTTPError, ScriptedModel, ScriptExhausted
from callgate.models._types import (
    ArgumentsDelta,
    CallStarted,
    Model,
    ModelRequest,
    ModelTurn,
    StreamEvent,
    TextDelta,
    Usage,
)

__all__ = [
    "NO_RETRY",
    "PROVIDERS",
    "AnthropicModel",
    "ArgumentsDelta",
    "CallStarted",
    "FakeAnthropicServer",
    "FakeGeminiServer",
    "FakeOpenAIChatServer",
    "FakeOpenAIResponsesServer",
    "FakeProviderServer",
    "GeminiModel",
    "Model",
    "ModelRequest",
    "ModelTurn",
    "OpenAIChatModel",
    "OpenAIResponsesModel",
    "RecordedRequest",
    "RetryPolicy",
    "SDKModel",
    "ScriptError",
    "ScriptExhausted",
    "ScriptedCall",
    "ScriptedHTTPError",
    "ScriptedModel",
    "StreamEvent",
    "TextDelta",
    "Turn",
    "TurnSource",
    "Usage",
    "model_from_spec",
]
