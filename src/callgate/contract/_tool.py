"""The tool contract: everything the host needs to know about one tool."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from callgate._errors import UserError
from callgate.contract._call import CallContext
from callgate.contract._kinds import Effect, ToolAnnotations
from callgate.contract._names import check_name
from callgate.schema import content_hash

__all__ = ["CONTEXT_FIELDS", "LABELS", "Executor", "FromContext", "Label", "RunIn", "Tool"]

Executor = Callable[..., Any]
"""A sync or async callable; it receives the validated arguments as keyword arguments."""

Label = typing.Literal["untrusted_output", "private_data", "public_sink"]
"""Sensitivity labels the Rule of Two tracks over a run."""

LABELS: frozenset[str] = frozenset(typing.get_args(Label))
"""The closed set of labels: any other name is an error when the tool is declared."""

RunIn = typing.Literal["thread", "inline", "process"]
"""Where a synchronous executor runs: a worker thread (the default), the event loop's own
thread (for tools that never block: no thread hand-off), or a worker process that is killed
when the call's deadline passes (for tools that may hang or leak)."""

CONTEXT_FIELDS = frozenset({"principal", "tenant", "roles", "scopes", "run_id"})
"""`Context` fields a server-side parameter can name; any other key names an attribute."""


@dataclass(frozen=True, slots=True)
class FromContext:
    """Marks a parameter as server-side: the host fills it from the call's `Context`.

    `tenant: Annotated[str, FromContext("tenant")]` is left out of the schema the model
    sees; a model that sends it anyway gets `invalid`, and only the context's value is used.
    `key` is a `Context` field (`principal`, `tenant`, `roles`, `scopes`, `run_id`) or the
    name of an entry of `Context.attributes`.
    """

    key: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Tool:
    """A tool as the host sees it. Build one with `@tool` or `tool_from_declaration`."""

    name: str
    """The wire name, namespace prefix included (`notes_search`)."""
    description: str
    input_schema: Mapping[str, Any]
    """JSON Schema of the arguments object (draft 2020-12 unless `$schema` says otherwise)."""
    output_schema: Mapping[str, Any] | None = None
    """When set, structured results are checked against it before the model sees them."""
    executor: Executor | None = field(default=None, compare=False, repr=False)
    effect: Effect = Effect.WRITE
    annotations: ToolAnnotations = field(default_factory=ToolAnnotations)
    version: str | None = None
    deprecated: bool = False
    replacement: str | None = None
    """The tool to use instead, when deprecated."""
    timeout: float | None = None
    """Seconds; `None` uses the gate's default."""
    namespace: str | None = None
    examples: tuple[Mapping[str, Any], ...] = ()
    """Valid argument objects; the first one is shown to a model that sent invalid arguments."""
    read_back: Executor | None = field(default=None, compare=False, repr=False)
    """After a write: reads the object back and says whether the write took effect."""
    reconcile: Executor | None = field(default=None, compare=False, repr=False)
    """Given an idempotency key: says whether an earlier attempt took effect."""
    labels: frozenset[Label] = frozenset()
    """Rule of Two labels; an open-world tool (`annotations.open_world`) is always
    `untrusted_output`, since what it returns comes from outside."""
    server_parameters: Mapping[str, str] = field(default_factory=dict)
    """Parameter name -> context key (see `FromContext`): filled by the host, never by the model."""
    sequential: bool = False
    """Run alone: never at the same time as another call of the batch."""
    run_in: RunIn = "thread"
    """Where a synchronous executor runs (see `RunIn`); async executors run on the loop."""
    tags: tuple[str, ...] = ()
    source: str | None = None
    """Where the tool comes from: an upstream MCP server's name; None for the host's own.
    Recorded in every receipt; not part of the fingerprint."""
    metadata: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """Free-form data (lint suppressions, source server, ...); not part of the fingerprint."""
    arguments_model: type[BaseModel] | None = field(default=None, compare=False, repr=False)
    numbers: Mapping[str, type] = field(default_factory=dict, compare=False, repr=False)
    """Set by `@tool`: parameters typed `int` or `float` whose JSON numbers are converted
    (JSON Schema's integer `3.0` arrives as `3`, a `3` for a float as `3.0`) without the
    pydantic step the other types need."""
    """Set by `@tool`: converts validated JSON into the function's typed parameters."""
    fingerprint: str = field(init=False, compare=False)
    """sha256 of the contract's content; it changes whenever what the model sees changes."""
    context_parameter: str | None = field(init=False, compare=False, repr=False)
    is_async: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        check_name(self.name)
        if not isinstance(self.input_schema, Mapping):
            raise UserError(f"tool {self.name!r}: input_schema must be a JSON object")
        if self.replacement is not None and not self.deprecated:
            raise UserError(f"tool {self.name!r} names a replacement but is not deprecated")
        set_ = object.__setattr__
        _check_server_parameters(self.name, self.input_schema, self.server_parameters)
        set_(self, "effect", Effect(self.effect))
        set_(self, "annotations", self.annotations.with_effect(self.effect))
        set_(self, "labels", _labels(self.name, self.labels, self.annotations))
        set_(self, "fingerprint", content_hash(self.contract()))
        set_(self, "context_parameter", _context_parameter(self.executor))
        set_(self, "is_async", _is_async(self.executor))
        _check_run_in(self.name, self.run_in, self.is_async, self.executor)

    def contract(self) -> dict[str, Any]:
        """The content a fingerprint covers: what the model is shown, and what the tool does."""
        content = {
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
            "output_schema": self.output_schema,
            "annotations": self.annotations.to_mcp(),
            "effect": self.effect.value,
            "version": self.version,
        }
        if self.server_parameters:  # only when present, so older fingerprints stay stable
            content["server_parameters"] = dict(self.server_parameters)
        return content

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the executor directly, bypassing the gate (for tests and local use)."""
        if self.executor is None:
            raise UserError(f"tool {self.name!r} has no executor")
        return self.executor(*args, **kwargs)

    @property
    def idempotent(self) -> bool:
        """Safe to repeat: a read, or a tool whose author declared it idempotent."""
        return self.effect is Effect.READ or bool(self.annotations.idempotent)

    def bind(self, arguments: dict[str, Any], call: CallContext | None) -> dict[str, Any]:
        """Keyword arguments for the executor from validated JSON arguments."""
        if self.arguments_model is not None:
            model = self.arguments_model.model_validate(arguments)
            arguments = {name: getattr(model, name) for name in type(model).model_fields}
        for name, kind in self.numbers.items():
            value = arguments.get(name)
            if type(value) in (int, float) and type(value) is not kind:
                arguments[name] = kind(value)  # checked by the schema: 3.0 for an int is 3
        if self.context_parameter is not None:
            arguments[self.context_parameter] = call
        return arguments


def _check_server_parameters(
    name: str, schema: Mapping[str, Any], parameters: Mapping[str, str]
) -> None:
    shown = schema.get("properties")
    leaked = sorted(p for p in parameters if isinstance(shown, Mapping) and p in shown)
    if leaked:
        raise UserError(
            f"tool {name!r}: server-side parameter(s) {', '.join(leaked)} must not "
            "appear in the input schema the model sees"
        )
    empty = sorted(p for p, key in parameters.items() if not key)
    if empty:
        raise UserError(
            f"tool {name!r}: server-side parameter(s) {', '.join(empty)} name no context key"
        )


def _labels(name: str, labels: Any, annotations: ToolAnnotations) -> frozenset[Label]:
    if isinstance(labels, str) or not isinstance(labels, typing.Iterable):
        raise UserError(
            f"tool {name!r}: labels must be a collection of label names such as "
            f"{{'untrusted_output'}}, not {type(labels).__name__}"
        )
    given = list(labels)
    unknown = sorted({repr(label) for label in given if label not in LABELS})
    if unknown:
        raise UserError(
            f"tool {name!r}: unknown label(s) {', '.join(unknown)}; the labels are "
            f"{', '.join(sorted(LABELS))}"
        )
    if annotations.open_world:
        given.append("untrusted_output")
    return frozenset(given)


def _check_run_in(name: str, run_in: Any, is_async: bool, executor: Executor | None) -> None:
    if run_in not in typing.get_args(RunIn):
        raise UserError(f"tool {name!r}: run_in must be 'thread', 'inline' or 'process'")
    if is_async and run_in != "thread":
        raise UserError(
            f"tool {name!r}: run_in={run_in!r} is for synchronous executors; an async "
            "executor runs on the event loop"
        )
    qualname = getattr(executor, "__qualname__", "")
    if run_in == "process" and executor is not None and "<" in qualname:
        # The worker imports the executor by name: a lambda or a nested function has none.
        raise UserError(
            f"tool {name!r}: run_in='process' needs a module-level function, not {qualname}"
        )


def _context_parameter(executor: Executor | None) -> str | None:
    if executor is None:
        return None
    try:
        hints = typing.get_type_hints(executor)
    except Exception:  # unresolvable annotations: the executor simply gets no context
        return None
    return next((n for n, h in hints.items() if h is CallContext and n != "return"), None)


def _is_async(executor: Executor | None) -> bool:
    if executor is None:
        return False
    call = getattr(executor, "__call__", None)  # noqa: B004 - async __call__ on instances
    return inspect.iscoroutinefunction(executor) or inspect.iscoroutinefunction(call)
