from __future__ import annotations

from callgate import Tool, ToolAnnotations
from callgate.retrieval import card_for, split_words
from tests.retrieval.tools import make


def test_identifiers_split_into_words() -> None:
    assert split_words("getUserByID_v2") == ("get", "user", "by", "id", "v2")
    assert split_words("math.hypot") == ("math", "hypot")
    assert split_words("HTTPServerStart") == ("http", "server", "start")
    assert split_words("Homes_2_FindHomeByArea") == ("homes", "2", "find", "home", "by", "area")


def test_card_holds_name_words_description_parameters_enums_and_tags() -> None:
    tool = make(
        "get_weather",
        "Current weather for a city.",
        {
            "city": {"type": "string", "description": "City name"},
            "unitSystem": {"type": "string", "enum": ["metric", "imperial"]},
            "options": {
                "type": "object",
                "properties": {"include_hourly": {"type": "boolean", "description": "Hourly too"}},
            },
        },
        tags=("weather",),
    )
    card = card_for(tool)
    assert card.name == "get_weather"
    assert card.words == ("get", "weather")
    assert card.description == "Current weather for a city."
    assert card.parameters == (
        "city: City name",
        "unit system",
        "options",
        "include hourly: Hourly too",
    )
    assert card.enums == ("metric", "imperial")
    assert card.tags == ("weather",)
    assert card.text() == (
        "get weather. Current weather for a city. Parameters: city: City "
        "name; unit system; options; include hourly: Hourly too. Values: "
        "metric, imperial. Tags: weather."
    )


def test_card_reads_arrays_unions_and_definitions() -> None:
    schema = {
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
            "mode": {"anyOf": [{"type": "string", "enum": ["fast", "slow"]}, {"type": "null"}]},
        },
        "$defs": {
            "Item": {
                "type": "object",
                "properties": {"sku": {"type": "string", "description": "Stock keeping unit"}},
            }
        },
    }
    tool = Tool(name="order", description="Place an order.", input_schema=schema)
    card = card_for(tool)
    assert "sku: Stock keeping unit" in card.parameters
    assert "items" in card.parameters and "mode" in card.parameters


def test_title_words_join_the_name_words() -> None:
    tool = Tool(
        name="wx",
        description="",
        input_schema={"type": "object"},
        annotations=ToolAnnotations(title="Weather lookup"),
    )
    assert card_for(tool).words == ("wx", "weather", "lookup")


def test_enum_values_are_found_inside_variants_and_items() -> None:
    tool = make(
        "paint",
        "Paint a wall.",
        {
            "mode": {"anyOf": [{"type": "string", "enum": ["matte", "gloss"]}, {"type": "null"}]},
            "colors": {"type": "array", "items": {"enum": ["red", "blue"]}},
        },
    )
    assert card_for(tool).enums == ("matte", "gloss", "red", "blue")
