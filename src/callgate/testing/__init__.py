"""Fakes and fixtures for tests of code built on callgate, this project's own included.

A scripted model and fake provider servers that speak each API's real wire format
(streaming included), and the standard fixture kit of the gate: each fixture states the
route it expects and the side effect that must not happen, and checks both; the example
tools with in-memory backends the kit and the demo use; and a clock that tests advance by
hand.
"""

from callgate.cli._demo_tools import (
    SUPPLIER_POLICY,
    Faults,
    OrderBook,
    Supplier,
    SupplierRegistry,
    WeatherService,
    example_tools,
    order_tools,
    supplier_tools,
    weather_tools,
)
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
from callgate.testing._clock import ManualClock
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
    "SUPPLIER_POLICY",
    "FakeAnthropicServer",
    "FakeGeminiServer",
    "FakeOpenAIChatServer",
    "FakeOpenAIResponsesServer",
    "FakeProviderServer",
    "Faults",
    "Fixture",
    "FixtureReport",
    "FixtureResult",
    "FixtureTarget",
    "ManualClock",
    "OrderBook",
    "RecordedRequest",
    "ScriptError",
    "ScriptExhausted",
    "ScriptedCall",
    "ScriptedModel",
    "Supplier",
    "SupplierRegistry",
    "TargetFaults",
    "Turn",
    "WeatherService",
    "example_tools",
    "order_tools",
    "run_fixtures",
    "run_fixtures_sync",
    "supplier_target",
    "supplier_tools",
    "weather_tools",
]
