"""`@tool`: a tool contract from a typed Python function, its schema derived by pydantic."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import inspect
import types
import typing
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Any, overload

import docstring_parser
import pydantic
from pydantic import BaseModel, ConfigDict, TypeAdapter

from callgate._errors import UserError
from callgate.contract._call import CallContext
from callgate.contract._kinds import Effect, ToolAnnotations, to_effect
from callgate.contract._names import qualify
from callgate.contract._schema_tidy import tidy_schema
from callgate.contract._tool import Executor, FromContext, Label, RunIn, Tool

__all__ = ["tool"]

_JSON_NATIVE: tuple[Any, ...] = (str, int, float, bool, type(None), Any, list, dict)


@overload
def tool(fn: Executor, /) -> Tool: ...
@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    effect: Effect | str | None = None,
    namespace: str | None = None,
    annotations: ToolAnnotations | None = None,
    version: str | None = None,
    deprecated: bool = False,
    replacement: str | None = None,
    timeout: float | None = None,
    examples: Iterable[Mapping[str, Any]] = (),
    read_back: Executor | None = None,
    reconcile: Executor | None = None,
    labels: Iterable[Label] = (),
    sequential: bool = False,
    run_in: RunIn = "thread",
    tags: Iterable[str] = (),
    metadata: Mapping[str, Any] | None = None,
) -> Callable[[Executor], Tool]: ...


def tool(fn: Executor | None = None, /, **options: Any) -> Tool | Callable[[Executor], Tool]:
    """Make a `Tool` from a typed function, sync or async.

    The input schema comes from the type hints (pydantic), parameter descriptions and
    the tool description from the docstring (Google, NumPy or Sphinx style). Without an
    `effect` the tool is treated as a `write`, the cautious reading of an unknown tool.
    """
    if fn is not None:
        return _build(fn, **options)
    return lambda f: _build(f, **options)


def _build(fn: Executor, **options: Any) -> Tool:
    if not callable(fn):
        raise UserError(f"@tool needs a function, got {type(fn).__name__}")
    doc = docstring_parser.parse(inspect.getdoc(fn) or "")
    params, server = _parameters(fn, doc)
    model = pydantic.create_model(_model_name(fn), __config__=ConfigDict(extra="forbid"), **params)
    name, namespace = qualify(
        options.pop("name", None) or fn.__name__, options.pop("namespace", None)
    )
    annotations = options.pop("annotations", None) or ToolAnnotations()
    effect = options.pop("effect", None) or annotations.effect() or Effect.WRITE
    description = options.pop("description", None) or _description(doc)
    if not description:
        raise UserError(f"tool {name!r} has no description: write a docstring or pass description=")
    return Tool(
        name=name,
        namespace=namespace,
        description=description,
        input_schema=tidy_schema(model.model_json_schema()),
        output_schema=_output_schema(fn),
        executor=fn,
        effect=to_effect(effect),
        annotations=annotations,
        server_parameters=server,
        arguments_model=None if _json_native(params) else model,
        numbers=_numbers(params),
        examples=tuple(options.pop("examples", ())),
        labels=options.pop("labels", ()),
        tags=tuple(options.pop("tags", ())),
        metadata=dict(options.pop("metadata", None) or {}),
        **options,
    )


def _parameters(
    fn: Executor, doc: docstring_parser.Docstring
) -> tuple[dict[str, Any], dict[str, str]]:
    """The model-facing fields, and the server-side parameters (name -> context key)."""
    described = {p.arg_name: p.description for p in doc.params if p.description}
    hints = _hints(fn, include_extras=True)
    fields: dict[str, Any] = {}
    server: dict[str, str] = {}
    for param in inspect.signature(fn).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD, param.POSITIONAL_ONLY):
            raise UserError(f"{fn.__name__}: tools take named parameters only, not {param}")
        hint = hints.get(param.name, Any)
        if hint is CallContext:
            continue
        marker = _from_context(hint)
        if marker is not None:
            server[param.name] = marker.key
            continue
        default = ... if param.default is param.empty else param.default
        info = pydantic.Field(default, description=described.get(param.name))
        fields[param.name] = (hint, info)
    return fields, server


def _from_context(hint: Any) -> FromContext | None:
    if typing.get_origin(hint) is not typing.Annotated:
        return None
    return next((m for m in hint.__metadata__ if isinstance(m, FromContext)), None)


def _hints(fn: Executor, *, include_extras: bool = False) -> dict[str, Any]:
    try:
        return typing.get_type_hints(fn, include_extras=include_extras)
    except NameError as exc:
        raise UserError(
            f"{getattr(fn, '__name__', fn)!r}: cannot resolve a type hint ({exc}); "
            "define the types it names at module level"
        ) from exc


def _description(doc: docstring_parser.Docstring) -> str:
    parts = [doc.short_description, doc.long_description]
    return "\n\n".join(p.strip() for p in parts if p and p.strip())


def _model_name(fn: Executor) -> str:
    return "".join(w.capitalize() for w in getattr(fn, "__name__", "tool").split("_")) + "Args"


def _output_schema(fn: Executor) -> dict[str, Any] | None:
    hint = _hints(fn).get("return")
    if not isinstance(hint, type) or not (
        issubclass(hint, BaseModel) or dataclasses.is_dataclass(hint) or typing.is_typeddict(hint)
    ):
        return None
    return tidy_schema(TypeAdapter(hint).json_schema(mode="serialization"))


def _json_native(params: Mapping[str, tuple[Any, Any]]) -> bool:
    """True when validated JSON can be passed to the function as it is (no pydantic step),
    top-level numbers converted by `Tool.numbers` aside."""
    return all(_number(hint) is not None or _native(hint) for hint, _ in params.values())


def _numbers(params: Mapping[str, tuple[Any, Any]]) -> dict[str, type]:
    """The top-level `int` and `float` parameters (`Tool.numbers`)."""
    kinds = {name: _number(hint) for name, (hint, _) in params.items()}
    return {name: kind for name, kind in kinds.items() if kind is not None}


def _number(hint: Any) -> type | None:
    """`int` or `float` for a parameter typed so (possibly Optional or Annotated)."""
    if typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(hint) if a is not type(None)]
        hint = rest[0] if len(rest) == 1 else None
    return hint if hint is int or hint is float else None


def _native(hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return _native(typing.get_args(hint)[0])
    if origin is typing.Literal:  # a JSON 1.0 matches the enum value 1: pydantic gives 1
        return all(isinstance(v, str | bool | type(None)) for v in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType, list, dict):
        return all(_native(a) for a in typing.get_args(hint) if a is not Ellipsis)
    if hint is float or hint is int:
        # JSON 3 must arrive as 3.0 in a float parameter, and 3.0 (an integer to JSON
        # Schema) as 3 in an int one.
        return False
    if isinstance(hint, type) and issubclass(
        hint, BaseModel | enum.Enum | datetime.date | datetime.time | uuid.UUID
    ):
        return False
    return hint in _JSON_NATIVE
