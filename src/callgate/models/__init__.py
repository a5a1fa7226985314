"""Model adapters over the official SDK clients, a scripted model and fake provider servers.

Adapters turn the loop's canonical requests into each provider's API and the answers back
into canonical turns. The SDKs are optional extras, imported only when an adapter is built.
"""

from callgate.models._fake_servers import (
    FakeAnthropicServer,
    FakeGeminiServer,
    FakeOpenAIChatServer,
    FakeOpenAIResponsesServer,
    FakeProviderServer,
    RecordedRequest,
)
from callgate.models._messages import AssistantMessage, Message, ToolResults, UserMessage
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
    "ArgumentsDelta",
    "AssistantMessage",
    "CallStarted",
    "FakeAnthropicServer",
    "FakeGeminiServer",
    "FakeOpenAIChatServer",
    "FakeOpenAIResponsesServer",
    "FakeProviderServer",
    "Message",
    "Model",
    "ModelRequest",
    "ModelTurn",
    "RecordedRequest",
    "RetryPolicy",
    "ScriptError",
    "ScriptExhausted",
    "ScriptedCall",
    "ScriptedHTTPError",
    "ScriptedModel",
    "StreamEvent",
    "TextDelta",
    "ToolResults",
    "Turn",
    "TurnSource",
    "Usage",
    "UserMessage",
]
