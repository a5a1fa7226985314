"""One model turn through the gate: five proposed calls, five routes.

Run: python examples/quickstart.py
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from pydantic import Field

from callgate import Catalog, Gate, ToolCall, ToolError, tool


@tool(effect="read", examples=[{"city": "Moscow", "days": 3}])
def get_weather_forecast(
    city: str,
    days: Annotated[int, Field(ge=1, le=7)] = 3,
    units: Literal["celsius", "fahrenheit"] = "celsius",
) -> dict[str, Any]:
    """Return the forecast for a city. Use when the user asks about future weather.

    Args:
        city: City name, e.g. Moscow.
        days: How many days ahead, 1 to 7.
        units: Temperature units.
    """
    return {"city": city, "days": days, "units": units, "forecast": ["sunny"] * days}


@tool(effect="read", timeout=0.5)
async def find_orders(customer: str, status: Literal["OPEN", "CANCELLED"] = "OPEN") -> list[str]:
    """Find a customer's orders by status. Use when the user asks about their orders."""
    if customer == "slow":
        await asyncio.sleep(5)
    if customer == "nobody":
        raise ToolError(f"no customer named {customer!r}; ask the user for their e-mail")
    return [f"{customer}-1001", f"{customer}-1002"]


async def main() -> None:
    gate = Gate(Catalog([get_weather_forecast, find_orders]))
    turn = [
        ToolCall(id="call_1", name="get_weather_forecast", arguments='{"city": "Москва"}'),
        ToolCall(id="call_2", name="get_weather_forecast", arguments='{"city": "Oslo", "days": 9}'),
        ToolCall(
            id="call_3", name="find_orders", arguments={"customer": "ann", "status": "CANCELED"}
        ),
        ToolCall(id="call_4", name="find_orders", arguments={"customer": "nobody"}),
        ToolCall(id="call_5", name="find_orders", arguments={"customer": "slow"}),
        ToolCall(id="call_6", name="get_wheather", arguments="{}"),
    ]
    for result in await gate.run_batch(turn):
        print(f"{result.call_id}  {result.route:<10} {result.content}\n")
    gate.close()


if __name__ == "__main__":
    asyncio.run(main())
