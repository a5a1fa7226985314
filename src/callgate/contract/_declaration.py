"""A tool contract from a declaration dict, in any shape users already hold."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from callgate._errors import UserError, shown
from callgate.contract._kinds import Effect, ToolAnnotations, to_effect
from callgate.contract._names import qualify
from callgate.contract._tool import Executor, Tool
from callgate.schema import MAX_SCHEMA_DEPTH, json_problems, normalize_types

__all__ = ["MAX_DECLARATION_DEPTH", "Declaration", "read_declaration", "tool_from_declaration"]

MAX_DECLARATION_DEPTH = MAX_SCHEMA_DEPTH
"""Deepest nesting of objects and arrays accepted in one declaration (real catalogs stay
under 20); deeper ones are refused before any schema is read."""

Shape = Literal[
    "openai_chat", "openai_responses", "anthropic", "mcp", "gemini", "plain", "legacy_arguments"
]

_EMPTY_OBJECT: Mapping[str, Any] = {"type": "object", "properties": {}}


@dataclass(frozen=True, kw_only=True, slots=True)
class Declaration:
    """The parts of a declaration every shape shares, before it becomes a `Tool`."""

    shape: Shape
    name: str
    description: str
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any] | None = None
    annotations: ToolAnnotations = field(default_factory=ToolAnnotations)
    repairs: tuple[str, ...] = ()
    """Non-standard schema parts rewritten on reading (`dict` -> `object`, ...)."""


def read_declaration(decl: Mapping[str, Any], *, checked: bool = False) -> Declaration:
    """Recognise the shape of `decl` and pull out name, description and schemas.

    A declaration that is not JSON data (NaN, Infinity, lone surrogates, integers Python
    cannot write, nesting past `MAX_DECLARATION_DEPTH`) raises `UserError` naming the tool
    and the field, like every other declaration the library cannot use. `checked=True`
    says the caller's own walk over `decl` has already found none of these (the catalog
    loader of `callgate.lint` walks each declaration once, for all its readers).
    """
    if not isinstance(decl, Mapping):
        raise UserError(f"a tool declaration must be an object, got {type(decl).__name__}")
    if not checked:
        _check_data(decl)
    shape, body = _shape(decl)
    name = body.get("name")
    if not isinstance(name, str) or not name:
        raise UserError(f"tool declaration ({shape}) has no 'name': {shown(dict(decl))}")
    raw_schema = _input_schema(shape, body)
    schema, repairs = normalize_types(raw_schema)
    if schema.get("type") is None and "properties" in schema:
        schema["type"] = "object"
    output = body.get("outputSchema") if shape == "mcp" else None
    annotations = ToolAnnotations.from_mcp(body.get("annotations"))
    if shape == "mcp" and isinstance(body.get("title"), str) and annotations.title is None:
        annotations = replace(annotations, title=body["title"])
    description = body.get("description")
    return Declaration(
        shape=shape,
        name=name,
        description=description if isinstance(description, str) else "",
        input_schema=schema,
        output_schema=output if isinstance(output, Mapping) else None,
        annotations=annotations,
        repairs=tuple(repairs),
    )


def tool_from_declaration(
    decl: Mapping[str, Any] | Declaration,
    executor: Executor | None = None,
    *,
    effect: Effect | str | None = None,
    namespace: str | None = None,
    **options: Any,
) -> Tool:
    """Build a `Tool` from a declaration, or from one `read_declaration` has read; `executor`
    is called with the arguments as keywords.

    Without `effect`, MCP annotations decide it; with none either, the tool is a `write`.
    """
    read = decl if isinstance(decl, Declaration) else read_declaration(decl)
    name, namespace = qualify(read.name, namespace)
    chosen = to_effect(effect) if effect else read.annotations.effect() or Effect.WRITE
    metadata = dict(options.pop("metadata", None) or {})
    metadata.setdefault("source_name", read.name)
    if read.repairs:
        metadata["schema_repairs"] = list(read.repairs)
    return Tool(
        name=name,
        namespace=namespace,
        description=read.description,
        input_schema=read.input_schema,
        output_schema=read.output_schema,
        executor=executor,
        effect=chosen,
        annotations=read.annotations,
        metadata=metadata,
        **options,
    )


def _check_data(decl: Mapping[str, Any]) -> None:
    problem = next(json_problems(decl, max_depth=MAX_DECLARATION_DEPTH, root="(declaration)"), None)
    if problem is None:
        return
    body = decl.get("function") if isinstance(decl.get("function"), Mapping) else decl
    name = body.get("name") if isinstance(body, Mapping) else None
    label = shown(name) if isinstance(name, str) else "without a name"
    raise UserError(f"tool declaration {label}: {problem.message}")


def _shape(decl: Mapping[str, Any]) -> tuple[Shape, Mapping[str, Any]]:
    if decl.get("type") == "function" and isinstance(decl.get("function"), Mapping):
        return "openai_chat", decl["function"]
    if "inputSchema" in decl:
        return "mcp", decl
    if "input_schema" in decl:
        return "anthropic", decl
    if "parametersJsonSchema" in decl:
        return "gemini", decl
    if decl.get("type") == "function":
        return "openai_responses", decl
    if isinstance(decl.get("arguments"), list):
        return "legacy_arguments", decl
    return "plain", decl


def _input_schema(shape: Shape, body: Mapping[str, Any]) -> Mapping[str, Any]:
    key = {"mcp": "inputSchema", "anthropic": "input_schema", "gemini": "parametersJsonSchema"}.get(
        shape, "parameters"
    )
    if shape == "legacy_arguments":
        return _from_argument_list(body["arguments"])
    schema = body.get(key)
    if schema is None:
        return dict(_EMPTY_OBJECT)
    if not isinstance(schema, Mapping):
        raise UserError(f"tool {shown(body.get('name'))}: '{key}' must be a JSON object")
    return schema


def _from_argument_list(arguments: list[Any]) -> dict[str, Any]:
    """The legacy `[{name, type, desc, optional}]` form some MCP registries still publish."""
    props: dict[str, Any] = {}
    required: list[str] = []
    for arg in arguments:
        if not isinstance(arg, Mapping) or not isinstance(arg.get("name"), str):
            continue
        prop: dict[str, Any] = {"type": arg.get("type", "string")}
        if isinstance(arg.get("desc"), str):
            prop["description"] = arg["desc"]
        if isinstance(arg.get("items"), Mapping):
            prop["items"] = dict(arg["items"])
        props[arg["name"]] = prop
        if not arg.get("optional"):
            required.append(arg["name"])
    return {"type": "object", "properties": props, "required": required}
