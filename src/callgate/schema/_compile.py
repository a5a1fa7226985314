"""Compile JSON Schemas once and validate instances against them with jsonschema-rs."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import jsonschema_rs

from callgate._errors import UserError
from callgate.schema._canonical import canonical_json
from callgate.schema._json_data import json_problems
from callgate.schema._pointer import resolve_local

__all__ = [
    "MAX_SCHEMA_DEPTH",
    "CompiledSchema",
    "Retriever",
    "SchemaCompiler",
    "compile_schema",
]

Retriever = Callable[[str], Any]
"""Returns the schema document for a URI a `$ref` points outside the schema."""

MAX_SCHEMA_DEPTH = 100
"""Deepest nesting of objects and arrays accepted in a schema (real ones stay under 20)."""


def _no_remote(uri: str) -> Any:
    # Fetching schemas from the network while validating model output would let a schema
    # author make the host issue requests; remote references need an explicit retriever.
    raise ValueError(f"remote schema {uri!r} is not available offline")


@dataclass(frozen=True, kw_only=True, slots=True)
class CompiledSchema:
    """A schema compiled once; validation reuses the compiled form."""

    schema: Mapping[str, Any] | bool
    validator: jsonschema_rs.Validator = field(repr=False)
    recursive: bool = False
    """The schema can refer back to itself (or to a schema not in it), so validation
    follows an instance as deep as it goes."""

    def is_valid(self, instance: Any) -> bool:
        return bool(self.validator.is_valid(instance))

    def iter_errors(self, instance: Any) -> Iterator[jsonschema_rs.ValidationError]:
        return iter(self.validator.iter_errors(instance))


class SchemaCompiler:
    """Compiles schemas (format assertion on by default) and caches them by content."""

    def __init__(
        self,
        *,
        retriever: Retriever | None = None,
        assert_formats: bool = True,
        max_cached: int = 4096,
    ) -> None:
        self._retriever = retriever or _no_remote
        # Tool arguments are checked with format assertion on (a bad date is a bad call);
        # off gives the specification's default, where `format` is only an annotation.
        self._assert_formats = assert_formats
        self._cache: dict[str, CompiledSchema] = {}
        self._max_cached = max_cached
        self._lock = threading.Lock()

    def compile(self, schema: Mapping[str, Any] | bool) -> CompiledSchema:
        """The compiled form of `schema`; `UserError` for a schema that is not valid, or
        not JSON data (NaN, lone surrogates, nesting past `MAX_SCHEMA_DEPTH`)."""
        try:
            key = canonical_json(schema)
        except (TypeError, ValueError, RecursionError):
            key = None
        found = self._cache.get(key) if key is not None else None
        if found is not None:
            return found
        problem = next(json_problems(schema, max_depth=MAX_SCHEMA_DEPTH, root="(schema)"), None)
        if problem is not None or key is None:
            detail = problem.message if problem else "not JSON data"
            raise UserError(f"invalid JSON Schema: {detail}")
        compiled = self._build(schema)
        with self._lock:
            if len(self._cache) >= self._max_cached:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = compiled
        return compiled

    def _build(self, schema: Mapping[str, Any] | bool) -> CompiledSchema:
        body: dict[str, Any] | bool = schema if isinstance(schema, bool) else dict(schema)
        options: dict[str, Any] = {
            "validate_formats": self._assert_formats,
            "retriever": self._retriever,
        }
        try:
            if isinstance(body, dict) and "$schema" in body:
                # Detection follows `$schema`, custom metaschemas and their vocabularies included.
                validator = jsonschema_rs.validator_for(body, **options)
            else:
                validator = jsonschema_rs.Draft202012Validator(body, **options)
        except (ValueError, jsonschema_rs.ReferencingError) as exc:
            raise UserError(f"invalid JSON Schema: {exc}") from exc
        return CompiledSchema(schema=schema, validator=validator, recursive=_recursive(schema))


_UNKNOWN: Mapping[str, Any] = {}


def _recursive(schema: Mapping[str, Any] | bool) -> bool:
    """True when following `$ref`s from the root can come back to a schema on the way
    (a cycle), or reaches one this schema does not hold (remote, anchor, dynamic)."""
    if not isinstance(schema, Mapping):
        return False
    finished: dict[int, bool] = {id(schema): False}
    stack: list[tuple[Any, Iterator[Any]]] = [(schema, _edges(schema, schema))]
    while stack:
        node, edges = stack[-1]
        nxt = next(edges, None)
        if nxt is None:
            finished[id(node)] = True
            stack.pop()
            continue
        if nxt is _UNKNOWN or finished.get(id(nxt)) is False:
            return True
        if id(nxt) not in finished:
            finished[id(nxt)] = False
            stack.append((nxt, _edges(schema, nxt)))
    return False


def _edges(root: Mapping[str, Any], node: Any) -> Iterator[Any]:
    values = node.items() if isinstance(node, Mapping) else enumerate(node)
    for key, value in values:
        if key in ("$dynamicRef", "$recursiveRef"):
            yield _UNKNOWN
        elif key == "$ref" and isinstance(value, str) and isinstance(node, Mapping):
            pointer = {"$ref": value}
            target = resolve_local(root, pointer, max_hops=1)
            yield _UNKNOWN if target is pointer else target
        elif isinstance(value, Mapping | list):
            yield value


_default = SchemaCompiler()


def compile_schema(schema: Mapping[str, Any] | bool) -> CompiledSchema:
    """Compile `schema` with the shared, offline compiler."""
    return _default.compile(schema)
