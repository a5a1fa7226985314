"""Fakes and fixtures for tests of code built on callgate, this project's own included.

A scripted model and fake provider servers that speak each API's real wire format
(streaming included), and the standard fixture kit of the gate: each fixture states the
route it expects and the side effect that must not happen, and checks both; the example
tools with in-memory backends the kit and the demo use; and a clock that tests advance by
hand.

The pytest plugin (`_plugin.py`) lives here and pytest loads it in every session where
callgate is installed, so the names below are imported only when first used.
"""

import typing as _typing

from callgate._lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
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
    from callgate.testing._catalog_target import (
        catalog_target,
    )
    from callgate.testing._clock import (
        ManualClock,
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
    "catalog_target",
    "example_tools",
    "order_tools",
    "run_fixtures",
    "run_fixtures_sync",
    "supplier_target",
    "supplier_tools",
    "weather_tools",
]

_LAZY = {
    "STANDARD_FIXTURES": "callgate.testing._fixtures",
    "SUPPLIER_POLICY": "callgate.cli._demo_tools",
    "FakeAnthropicServer": "callgate.models",
    "FakeGeminiServer": "callgate.models",
    "FakeOpenAIChatServer": "callgate.models",
    "FakeOpenAIResponsesServer": "callgate.models",
    "FakeProviderServer": "callgate.models",
    "Faults": "callgate.cli._demo_tools",
    "Fixture": "callgate.testing._fixtures",
    "FixtureReport": "callgate.testing._fixtures",
    "FixtureResult": "callgate.testing._fixtures",
    "FixtureTarget": "callgate.testing._fixtures",
    "ManualClock": "callgate.testing._clock",
    "OrderBook": "callgate.cli._demo_tools",
    "RecordedRequest": "callgate.models",
    "ScriptError": "callgate.models",
    "ScriptExhausted": "callgate.models",
    "ScriptedCall": "callgate.models",
    "ScriptedModel": "callgate.models",
    "Supplier": "callgate.cli._demo_tools",
    "SupplierRegistry": "callgate.cli._demo_tools",
    "TargetFaults": "callgate.testing._fixtures",
    "Turn": "callgate.models",
    "WeatherService": "callgate.cli._demo_tools",
    "catalog_target": "callgate.testing._catalog_target",
    "example_tools": "callgate.cli._demo_tools",
    "order_tools": "callgate.cli._demo_tools",
    "run_fixtures": "callgate.testing._fixtures",
    "run_fixtures_sync": "callgate.testing._fixtures",
    "supplier_target": "callgate.testing._fixtures",
    "supplier_tools": "callgate.cli._demo_tools",
    "weather_tools": "callgate.cli._demo_tools",
}

__getattr__, __dir__ = _lazy_exports("callgate.testing", globals(), _LAZY)
