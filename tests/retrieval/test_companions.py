"""Companions: tools another tool needs first, declared or learned from its parameters."""

from __future__ import annotations

from typing import Any

from callgate import Tool, tool_from_declaration
from callgate.retrieval import ToolIndex, select_tools, server_tools
from tests.conftest import RETRIEVAL, require
from tests.retrieval.tools import make

require(*RETRIEVAL, extra="retrieval")


def _mcp(name: str, description: str, required: dict[str, Any] | None = None) -> dict[str, Any]:
    props = required or {}
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": props, "required": list(props)},
    }


def _maps() -> list[Tool]:
    coordinates = {"home_latitude": {"type": "number"}, "home_longitude": {"type": "number"}}
    return list(
        server_tools(
            {
                "maps": [
                    _mcp(
                        "geocode_address",
                        "Convert an address to geographic coordinates.",
                        {"address": {"type": "string"}},
                    ),
                    _mcp(
                        "reverse_geocode",
                        "Coordinates to an address.",
                        {"latitude": {"type": "number"}, "longitude": {"type": "number"}},
                    ),
                    _mcp("analyze_commute", "Commute time between home and work.", coordinates),
                ],
                "trains": [
                    _mcp("get_current_date", "Today's date in Shanghai time."),
                    _mcp(
                        "get_tickets",
                        "Train tickets between two stations.",
                        {"date": {"type": "string"}, "from_station": {"type": "string"}},
                    ),
                    _mcp("list_stations", "Stations of a city."),
                    _mcp(
                        "get_station", "Details of one station.", {"station_id": {"type": "string"}}
                    ),
                ],
                "other": [_mcp("geocode_everything", "Geocoding of anything.")],
            }
        ).tools
    )


def test_companions_are_learned_within_a_server() -> None:
    index = ToolIndex(_maps())
    assert [t.name for t in index.companions("maps_analyze_commute")] == ["maps_geocode_address"]
    # reverse_geocode needs coordinates itself, so it serves no one.
    assert [t.name for t in index.companions("maps_reverse_geocode")] == ["maps_geocode_address"]
    assert [t.name for t in index.companions("trains_get_tickets")] == ["trains_get_current_date"]
    assert [t.name for t in index.companions("trains_get_station")] == ["trains_list_stations"]
    assert index.companions("maps_geocode_address") == ()


def test_a_companion_takes_a_place_in_the_first_k() -> None:
    index = ToolIndex(_maps())
    found = [h.tool.name for h in index.search("how long is my commute from home to work", 2)]
    assert found == ["maps_analyze_commute", "maps_geocode_address"]
    chosen = select_tools(index, "commute from home to work", 2)
    assert [t.name for t in chosen] == ["maps_analyze_commute", "maps_geocode_address"]


def test_declared_companions_come_first_and_cross_servers() -> None:
    tools = [
        make("send_report", "Email the weekly report.", {"to": {"type": "string"}}),
        make("render_chart", "Draw a chart as a PNG file."),
        make("weather", "Weather today."),
    ]
    index = ToolIndex(tools, companions={"send_report": ["render_chart", "no_such_tool"]})
    assert [t.name for t in index.companions("send_report")] == ["render_chart"]
    assert [h.tool.name for h in index.search("send the weekly report", 2)] == [
        "send_report",
        "render_chart",
    ]


def test_a_catalog_without_servers_learns_nothing() -> None:
    nearby = _mcp("nearby", "Places near a point.", {"lat": {"type": "number"}})
    tools = [
        tool_from_declaration(nearby),
        tool_from_declaration(_mcp("geocode", "Address to coordinates.")),
    ]
    assert tools[0].input_schema["required"] == ["lat"]
    assert ToolIndex(tools).companions("nearby") == ()
    # The same two tools on one server: the geocoder is learned.
    served = server_tools({"maps": [nearby, _mcp("geocode", "Address to coordinates.")]}).tools
    assert [t.name for t in ToolIndex(served).companions("maps_nearby")] == ["maps_geocode"]
