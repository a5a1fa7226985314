"""The validation entry point: one schema, one instance, a list of model-facing errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from callgate.schema._compile import CompiledSchema, compile_schema
from callgate.schema._report import FieldError, describe_errors

__all__ = ["check", "validate_instance"]


def check(compiled: CompiledSchema, instance: Any) -> list[FieldError]:
    """Every reason `instance` fails `compiled`; empty when it is valid."""
    if compiled.is_valid(instance):
        return []
    return describe_errors(compiled.iter_errors(instance), compiled.schema)


def validate_instance(schema: Mapping[str, Any] | bool, instance: Any) -> list[FieldError]:
    """Compile (cached) and check: the same path tool arguments take through the gate."""
    return check(compile_schema(schema), instance)
