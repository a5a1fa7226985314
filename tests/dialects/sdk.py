"""Validate payloads against the official SDKs' own request types, strictly.

The SDKs' request params are TypedDicts, which pydantic validates leniently: unknown
keys are ignored and `Iterable[...]` fields are checked lazily. Here every TypedDict of
the SDK is closed (`extra="forbid"`) while the adapter is built, and lazy iterables are
drained, so a misspelt or misplaced key fails the test. Where an SDK is not installed, the
test that validates against it skips, naming the install command.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from pydantic import ConfigDict, TypeAdapter
from typing_extensions import is_typeddict

from tests.conftest import require

_FORBID = ConfigDict(extra="forbid")


@contextmanager
def _closed_typeddicts(package: str) -> Iterator[None]:
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, package + "."):
        importlib.import_module(info.name)
    patched = []
    for name, module in list(sys.modules.items()):
        if not name.startswith(package):
            continue
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and is_typeddict(obj)
                and "__pydantic_config__" not in obj.__dict__
            ):
                setattr(obj, "__pydantic_config__", _FORBID)  # noqa: B010 - TypedDicts have no such slot
                patched.append(obj)
    try:
        yield
    finally:
        for obj in patched:
            delattr(obj, "__pydantic_config__")


@cache
def adapter(package: str, module: str, name: str) -> TypeAdapter[Any]:
    with _closed_typeddicts(package):
        return TypeAdapter(getattr(importlib.import_module(module), name))


def drain(value: Any) -> Any:
    """Consume pydantic's lazy iterators so their items are validated too."""
    if isinstance(value, dict):
        return {k: drain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [drain(v) for v in value]
    if hasattr(value, "__next__"):
        return [drain(v) for v in value]
    return value


def openai_chat_request(request: dict[str, Any]) -> None:
    require("openai", extra="openai")
    ta = adapter(
        "openai.types",
        "openai.types.chat.completion_create_params",
        "CompletionCreateParamsNonStreaming",
    )
    drain(ta.validate_python({"model": "gpt-test", **request}))


def openai_responses_request(request: dict[str, Any]) -> None:
    require("openai", extra="openai")
    ta = adapter(
        "openai.types",
        "openai.types.responses.response_create_params",
        "ResponseCreateParamsNonStreaming",
    )
    drain(ta.validate_python({"model": "gpt-test", **request}))


def anthropic_request(request: dict[str, Any]) -> None:
    require("anthropic", extra="anthropic")
    ta = adapter(
        "anthropic.types",
        "anthropic.types.message_create_params",
        "MessageCreateParamsNonStreaming",
    )
    drain(ta.validate_python({"model": "claude-test", "max_tokens": 10, **request}))


def gemini_request(request: dict[str, Any]) -> None:
    """`contents` through `types.Content`, the rest through `GenerateContentConfig`."""
    import json

    require("google.genai", extra="gemini")
    from google.genai import types

    body = json.loads(json.dumps(request))
    for content in body.pop("contents", []):
        types.Content.model_validate_json(json.dumps(content))
    types.GenerateContentConfig.model_validate_json(json.dumps(body))


def mcp_tool(tool: dict[str, Any]) -> None:
    require("mcp", extra="mcp")
    import mcp.types

    mcp.types.Tool.model_validate(tool, strict=False)


def mcp_result(result: dict[str, Any]) -> None:
    require("mcp", extra="mcp")
    import mcp.types

    mcp.types.CallToolResult.model_validate(result)
