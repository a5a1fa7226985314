"""A faster `__init__` for the frozen, slotted dataclasses built on every call.

A frozen dataclass's generated `__init__` sets each field through `object.__setattr__`,
which for a 13-field `ToolResult` costs more than a bare validation plus a direct tool call.
The `__init__` made here has the same signature and the same result, but sets each slot
through its descriptor directly. `fast_builder` goes further for the two values made on
every call's path (the completed `ToolResult` and its `Timings`). Only for classes whose
fields are all plain keyword-only parameters: no default factories and no `__post_init__`
to run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["fast_builder", "fast_init"]

T = TypeVar("T", bound=type)
R = TypeVar("R")


def fast_init(cls: T) -> T:
    """Class decorator, applied after `@dataclass(frozen=True, kw_only=True, slots=True)`."""
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__; fast_init would skip it")
    namespace: dict[str, Any] = {}
    fields = dataclasses.fields(cls)
    params = _parameters(cls, fields, namespace)
    body = []
    for f in fields:
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, *, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls


def fast_builder(cls: type[R], *positional: str, **fixed: Any) -> Callable[..., R]:
    """A function taking the keyword arguments of `cls(...)` that returns the same instance,
    made faster still, for the few places where one is made on every call's path. The fields
    named in `positional` come first and are passed by position, in that order (matching
    keywords to parameters costs a call more than the stores it leads to); the others stay
    keyword-only, with the class's defaults. Fields given in `fixed` are no parameters: every
    value built has the value given there (`route=Route.COMPLETED`).

    It fills the slots of a twin class with the same layout (plain attribute stores: no
    descriptor calls, no frozen `__setattr__` in the way), then makes the object an instance
    of `cls` by `__class__` assignment, which Python allows between classes whose instances
    have the same layout. The result is indistinguishable from `cls(...)`: the same type, the
    same fields, equal, hashable and frozen like any other instance.
    """
    if cls.__bases__ != (object,) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: fast_builder needs a slotted dataclass without bases")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    slots = tuple(getattr(cls, "__slots__", ()))
    if tuple(f.name for f in fields) != slots:
        raise TypeError(f"{cls.__name__}: every slot must be a field, in order")
    twin = type(f"_{cls.__name__}Layout", (), {"__slots__": slots})
    namespace: dict[str, Any] = {"_new": object.__new__, "_twin": twin, "_cls": cls}
    named = [*positional, *fixed]
    if set(named) - set(slots) or len(set(named)) != len(named):
        raise TypeError(f"{cls.__name__}: positional and fixed fields must be distinct fields")
    by_name = {f.name: f for f in fields}
    first = _parameters(cls, tuple(by_name[name] for name in positional), namespace)
    required = [p for p in first if "=" not in p]
    if first[: len(required)] != required:
        raise TypeError(f"{cls.__name__}: a positional field without a default follows one with")
    others = tuple(f for f in fields if f.name not in positional and f.name not in fixed)
    rest = _parameters(cls, others, namespace)
    for name, value in fixed.items():
        _parameters(cls, (by_name[name],), {})  # a plain field, as every parameter is
        namespace[f"_fixed_{name}"] = value
    params = [*first, "*", *rest] if rest else first
    body = ["    self = _new(_twin)"]
    body += [f"    self.{f.name} = {'_fixed_' * (f.name in fixed)}{f.name}" for f in fields]
    body += ["    self.__class__ = _cls", "    return self"]
    source = f"def build_{cls.__name__}({', '.join(params)}):\n" + "\n".join(body)
    exec(source, namespace)
    build: Callable[..., R] = namespace[f"build_{cls.__name__}"]
    return build


def _parameters(
    cls: type, fields: tuple[dataclasses.Field[Any], ...], namespace: dict[str, Any]
) -> list[str]:
    """The parameters of the generated function for `fields`, defaults put in `namespace`."""
    params = []
    for f in fields:
        if not f.init or not f.kw_only or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name} is not a plain keyword-only field")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    return params
