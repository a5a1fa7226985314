"""JSON Schema for callgate: validation, defaults, examples, readable errors, hashing.

This layer knows nothing of tools; everything above it validates through here.
"""

from callgate.schema._canonical import canonical_json, content_hash
from callgate.schema._compile import (
    CompiledSchema,
    Retriever,
    SchemaCompiler,
    compile_schema,
    draft_of,
)
from callgate.schema._defaults import defaults_filler, fill_defaults
from callgate.schema._example import example_for
from callgate.schema._legacy import normalize_types
from callgate.schema._parse import ArgumentError, ArgumentLimits, parse_arguments
from callgate.schema._pointer import display_path, resolve_local
from callgate.schema._report import FieldError, closest, describe_errors
from callgate.schema._validate import check, validate_instance

__all__ = [
    "ArgumentError",
    "ArgumentLimits",
    "CompiledSchema",
    "FieldError",
    "Retriever",
    "SchemaCompiler",
    "canonical_json",
    "check",
    "closest",
    "compile_schema",
    "content_hash",
    "defaults_filler",
    "describe_errors",
    "display_path",
    "draft_of",
    "example_for",
    "fill_defaults",
    "normalize_types",
    "parse_arguments",
    "resolve_local",
    "validate_instance",
]
