"""Tool catalogs that exercise every schema feature the dialects treat differently."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from callgate.contract import Catalog, Effect, Tool, ToolAnnotations, tool_from_declaration

WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name"},
        "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
        "days": {"type": "integer", "minimum": 1, "maximum": 14},
    },
    "required": ["city"],
}

ORDER = {
    "type": "object",
    "$defs": {
        "Item": {
            "type": "object",
            "properties": {
                "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\d+$"},
                "qty": {"type": "integer", "exclusiveMinimum": 0},
                "note": {"type": ["string", "null"]},
            },
            "required": ["sku", "qty"],
        },
    },
    "properties": {
        "items": {
            "type": "array",
            "items": {"$ref": "#/$defs/Item"},
            "minItems": 1,
            "maxItems": 50,
            "uniqueItems": True,
        },
        "ship": {
            "oneOf": [
                {"type": "string", "const": "pickup"},
                {
                    "type": "object",
                    "properties": {"street": {"type": "string"}},
                    "required": ["street"],
                },
            ]
        },
        "email": {"type": "string", "format": "email", "maxLength": 200},
        "when": {"type": "string", "format": "date-time"},
        "site": {"type": "string", "format": "uri"},
        "priority": {"type": "integer", "enum": [1, 2, 3]},
        "gift": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
    },
    "required": ["items"],
    "additionalProperties": False,
}

OPEN_MAP = {
    "type": "object",
    "properties": {
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "query": {"type": "string"},
    },
    "required": ["query"],
}

TREE = {
    "type": "object",
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "required": ["name"],
        }
    },
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "required": ["root"],
}

CONDITIONAL = {
    "type": "object",
    "properties": {"mode": {"type": "string"}, "size": {"type": "number", "multipleOf": 0.5}},
    "if": {"properties": {"mode": {"const": "big"}}},
    "then": {"required": ["size"]},
    "not": {"required": ["forbidden"]},
}


def tools() -> list[Tool]:
    """A small catalog covering enums, refs, unions, maps, recursion, odd names."""
    return [
        Tool(
            name="get_weather",
            description="Current weather for a city.",
            input_schema=WEATHER,
            effect=Effect.READ,
            annotations=ToolAnnotations(title="Weather", idempotent=True),
        ),
        Tool(
            name="place_order",
            description="Place an order.",
            input_schema=ORDER,
            output_schema={"type": "object", "properties": {"id": {"type": "string"}}},
        ),
        Tool(
            name="search-notes",
            description="Search notes by label.",
            input_schema=OPEN_MAP,
            effect=Effect.READ,
        ),
        Tool(
            name="1password_lookup",
            description="Look a secret up.",
            input_schema={
                "type": "object",
                "properties": {"item": {"type": "string"}},
                "required": ["item"],
            },
            effect=Effect.READ,
        ),
        Tool(name="walk_tree", description="Walk a tree.", input_schema=TREE, effect=Effect.READ),
        Tool(name="resize", description="Resize.", input_schema=CONDITIONAL),
        Tool(name="ping", description="", input_schema={"type": "object"}, effect=Effect.READ),
    ]


def catalog() -> Catalog:
    return Catalog(tools())


def mcp_catalog(data_dir: Path) -> list[Tool]:
    """Every tool of the LiveMCPBench servers, as published."""
    servers = json.loads((data_dir / "mcp-tools" / "livemcpbench-tools.json").read_text())
    out: dict[str, Tool] = {}
    for server in servers:
        for entry in (server.get("tools") or {}).values():
            for decl in entry.get("tools") or []:
                made = _tool(decl)
                if made is not None:
                    out.setdefault(made.name, made)
    return list(out.values())


def _tool(decl: dict[str, Any]) -> Tool | None:
    try:
        return tool_from_declaration(decl)
    except Exception:  # a published tool callgate itself rejects is not a dialect concern
        return None
