"""The public API is a contract: every exported name is deliberate, sorted and importable."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

import callgate
from callgate import MissingExtraError

PUBLIC_PACKAGES = [
    "callgate",
    "callgate.schema",
    "callgate.contract",
    "callgate.dialects",
    "callgate.store",
    "callgate.gate",
    "callgate.models",
    "callgate.loop",
    "callgate.testing",
    "callgate.lint",
    "callgate.retrieval",
    "callgate.toolsets",
    "callgate.mcp",
    "callgate.gateway",
]


def _import(name: str) -> ModuleType:
    """The package, or a skip with the install command when it needs a missing extra."""
    try:
        return importlib.import_module(name)
    except MissingExtraError as exc:
        pytest.skip(f"{name}: {exc}")


def _isort_key(name: str) -> tuple[int, str]:
    """CONSTANTS, then Classes, then functions: the order ruff's RUF022 keeps."""
    kind = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return kind, name


@pytest.mark.parametrize("name", PUBLIC_PACKAGES)
def test_all_is_sorted_and_complete(name: str) -> None:
    module = _import(name)
    exported = module.__all__
    assert exported == sorted(exported, key=_isort_key), f"{name}.__all__ is not sorted"
    public = {n for n in dir(module) if not n.startswith("_")}
    submodules = {n for n in public if type(getattr(module, n)).__name__ == "module"}
    assert set(exported) == public - submodules, f"{name}: exports differ from public names"


def test_top_level_names() -> None:
    expected = {
        "Agent",
        "ApprovalDecision",
        "Approve",
        "ArgumentLimits",
        "Backoff",
        "CallContext",
        "CallgateError",
        "Catalog",
        "ConflictError",
        "Context",
        "Decision",
        "Decline",
        "Dialect",
        "Edit",
        "Effect",
        "ExecutionSettings",
        "FromContext",
        "Gate",
        "MissingExtraError",
        "OutcomeUnknownError",
        "Policy",
        "Redactor",
        "Route",
        "Rule",
        "RunResult",
        "Store",
        "StoreUnavailable",
        "Timings",
        "Tool",
        "ToolAnnotations",
        "ToolCall",
        "ToolError",
        "ToolResult",
        "TransientError",
        "UnknownToolError",
        "UserError",
        "open_store",
        "tool",
        "tool_from_declaration",
    }
    assert set(callgate.__all__) == expected
    for name in callgate.__all__:
        assert getattr(callgate, name) is not None


def test_routes_are_the_closed_set_of_the_design() -> None:
    assert [r.value for r in callgate.Route] == [
        "invalid",
        "denied",
        "held",
        "declined",
        "failed",
        "timeout",
        "unknown_outcome",
        "conflict",
        "completed",
        "verified",
    ]


def test_no_public_name_means_two_different_things() -> None:
    """A name exported by several packages is one object (a re-export), never two."""
    seen: dict[str, tuple[str, object]] = {}
    clashes = []
    for package in PUBLIC_PACKAGES:
        try:
            module = importlib.import_module(package)
        except MissingExtraError:
            continue  # not importable here, so none of its names can clash
        for name in module.__all__:
            obj = getattr(module, name)
            first = seen.setdefault(name, (package, obj))
            if first[1] is not obj:
                clashes.append(f"{name}: {first[0]} and {package}")
    assert clashes == []


@pytest.mark.parametrize(
    ("package", "internal"),
    [
        ("callgate.gate", {"prepare", "Prepared", "render_value", "Rendered", "TaintTracker"}),
        ("callgate.store", {"GroupCommitStore", "FinishRequest", "BatchResult"}),
    ],
)
def test_internals_are_not_exported(package: str, internal: set[str]) -> None:
    assert not internal & set(importlib.import_module(package).__all__)
