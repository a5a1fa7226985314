"""The validation entry point: one schema, one instance, a list of model-facing errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from callgate.schema._compile import CompiledSchema, compile_schema
from callgate.schema._json_data import json_problems
from callgate.schema._report import FieldError, describe_errors

__all__ = ["MAX_INSTANCE_DEPTH", "check", "validate_instance"]

MAX_INSTANCE_DEPTH = 1000
"""Deepest instance `check` validates against a recursive schema, and the depth past which
jsonschema-rs cannot report an error: deeper ones are reported as too deep."""


def check(
    compiled: CompiledSchema, instance: Any, *, root: str = "(arguments)"
) -> list[FieldError]:
    """Every reason `instance` fails `compiled`; empty when it is valid.

    Never raises on hostile data: what jsonschema-rs cannot read (lone surrogates in text
    it must look at, nesting deeper than `MAX_INSTANCE_DEPTH`) is reported as a failure.
    `root` names the value itself in messages (`(arguments)`, `(result)`).
    """
    if compiled.recursive:
        # A recursive schema follows the instance down, in native code, on the C stack.
        too_deep = _unreadable(instance, root, only_depth=True)
        if too_deep:
            return too_deep
    try:
        if compiled.validator.is_valid(instance):
            return []
        return describe_errors(
            compiled.iter_errors(instance), compiled.schema, instance=instance, root=root
        )
    except (UnicodeEncodeError, ValueError):
        return _unreadable(instance, root, only_depth=False) or [
            FieldError(path=(), kind="type", message=f"'{root}' is not JSON data", root=root)
        ]


def _unreadable(instance: Any, root: str, *, only_depth: bool) -> list[FieldError]:
    problems = json_problems(instance, max_depth=MAX_INSTANCE_DEPTH, root=root)
    return [p for p in problems if not only_depth or p.kind == "depth"]


def validate_instance(schema: Mapping[str, Any] | bool, instance: Any) -> list[FieldError]:
    """Compile (cached) and check: the same path tool arguments take through the gate."""
    return check(compile_schema(schema), instance)
