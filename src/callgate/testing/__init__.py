"""Fakes and fixtures for tests of code built on callgate, this project's own included.

A scripted model and fake provider servers that speak each API's real wire format
(streaming included), and the standard fixture kit of the gate: each fixture states the
route it expects and the side effect that must not happen, and checks both.
"""

from callgate.models import (
    FakeAnthropicServer,
    FakeGeminiServer,
    FakeOpenAIChatServer,
    FakeOpenAIResponsesServer,
    FakeProviderServer,
    RecordedRequest,
    ScriptedCall,
    ScriptedModel,
    ScriptError,
    ScriptExhausted,
    Turn,
)
from callgate.testing._fixtures import (
    STANDARD_FIXTURES,
    Fixture,
    FixtureReport,
    FixtureResult,
    FixtureTarget,
    TargetFaults,
    run_fixtures,
    run_fixtures_sync,
    supplier_target,
)

__all__ = [
    "STANDARD_FIXTURES",
    "FakeAnthropicServer",
    "FakeGeminiServer",
    "FakeOpenAIChatServer",
    "FakeOpenAIResponsesServer",
    "FakeProviderServer",
    "Fixture",
    "FixtureReport",
    "FixtureResult",
    "FixtureTarget",
    "RecordedRequest",
    "ScriptError",
    "ScriptExhausted",
    "ScriptedCall",
    "ScriptedModel",
    "TargetFaults",
    "Turn",
    "run_fixtures",
    "run_fixtures_sync",
    "supplier_target",
]
