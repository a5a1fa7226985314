"""A faster `__init__` for the frozen, slotted dataclasses built on every call.

A frozen dataclass's generated `__init__` sets each field through `object.__setattr__`,
which for a 13-field `ToolResult` costs more than a bare validation plus a direct tool call.
The `__init__` made here has the same signature and the same result, but sets each slot
through its descriptor directly. Only for classes whose fields are all plain keyword-only
parameters: no default factories and no `__post_init__` to run.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["fast_init"]

T = TypeVar("T", bound=type)


def fast_init(cls: T) -> T:
    """Class decorator, applied after `@dataclass(frozen=True, kw_only=True, slots=True)`."""
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__; fast_init would skip it")
    namespace: dict[str, Any] = {}
    params, body = [], []
    for f in dataclasses.fields(cls):
        if not f.init or not f.kw_only or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name} is not a plain keyword-only field")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, *, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls
