"""JSON Schema for callgate: validation, defaults, examples, readable errors, hashing.

This layer knows nothing of tools; everything above it validates through here.
"""

from callgate.schema._canonical import canonical_json, content_hash, escape_lone_surrogates
from callgate.schema._compile import (
    MAX_SCHEMA_DEPTH,
    CompiledSchema,
    Retriever,
    SchemaCompiler,
    compile_schema,
)
from callgate.schema._defaults import defaults_filler, fill_defaults
from callgate.schema._example import example_for
from callgate.schema._json_data import json_problems
from callgate.schema._legacy import normalize_types
from callgate.schema._parse import ArgumentError, ArgumentLimits, parse_arguments
from callgate.schema._pointer import display_path, resolve_local
from callgate.schema._report import (
    HINT_MAX_CANDIDATES,
    HINT_MAX_CHARS,
    MAX_REPORTED,
    FieldError,
    closest,
    describe_errors,
    hint_key,
    json_type,
)
from callgate.schema._result import check_result, wrapped_result_schema
from callgate.schema._validate import check, validate_instance

__all__ = [
    "HINT_MAX_CANDIDATES",
    "HINT_MAX_CHARS",
    "MAX_REPORTED",
    "MAX_SCHEMA_DEPTH",
    "ArgumentError",
    "ArgumentLimits",
    "CompiledSchema",
    "FieldError",
    "Retriever",
    "SchemaCompiler",
    "canonical_json",
    "check",
    "check_result",
    "closest",
    "compile_schema",
    "content_hash",
    "defaults_filler",
    "describe_errors",
    "display_path",
    "escape_lone_surrogates",
    "example_for",
    "fill_defaults",
    "hint_key",
    "json_problems",
    "json_type",
    "normalize_types",
    "parse_arguments",
    "resolve_local",
    "validate_instance",
    "wrapped_result_schema",
]
