"""A small catalog in English and Russian for the retrieval tests."""

from __future__ import annotations

from typing import Any

from callgate import Effect, Tool


def make(
    name: str,
    description: str,
    properties: dict[str, Any] | None = None,
    *,
    effect: Effect = Effect.READ,
    **options: Any,
) -> Tool:
    schema = {"type": "object", "properties": properties or {}}
    return Tool(
        name=name,
        description=description,
        input_schema=schema,
        effect=effect,
        executor=lambda **kwargs: {"tool": name, "arguments": kwargs},
        **options,
    )


def catalog() -> list[Tool]:
    return [
        make(
            "get_weather",
            "Current weather and forecast for a city.",
            {
                "city": {"type": "string", "description": "City name, e.g. Paris"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
        ),
        make(
            "convert_currency",
            "Convert an amount of money from one currency to another.",
            {
                "amount": {"type": "number"},
                "source": {"type": "string"},
                "target": {"type": "string", "description": "Currency code such as EUR"},
            },
        ),
        make(
            "send_email",
            "Send an email message to a recipient.",
            {"to": {"type": "string"}, "subject": {"type": "string"}, "body": {"type": "string"}},
            effect=Effect.WRITE,
        ),
        make(
            "book_restaurant",
            "Reserve a table at a restaurant.",
            {
                "restaurant": {"type": "string"},
                "people": {"type": "integer"},
                "time": {"type": "string", "description": "Reservation time"},
            },
            effect=Effect.WRITE,
        ),
        make(
            "delete_account",
            "Delete a user account permanently.",
            {"user_id": {"type": "string"}},
            effect=Effect.IRREVERSIBLE,
        ),
        make(
            "sales_report",
            "Сформировать отчёт о продажах за месяц.",
            {"month": {"type": "string", "description": "Месяц отчёта"}},
        ),
        make(
            "find_flights",
            "Найти авиабилеты между городами на дату.",
            {
                "origin": {"type": "string", "description": "Город вылета"},
                "destination": {"type": "string", "description": "Город прилёта"},
            },
        ),
        make(
            "translate_text",
            "Translate text between languages.",
            {"text": {"type": "string"}, "target_language": {"type": "string"}},
            tags=("language", "i18n"),
        ),
    ]


CATALOG = catalog()
"""For `callgate search --catalog tests.retrieval.tools:CATALOG`."""
