"""No name `callgate.lint` exports means something else in another public package."""

from __future__ import annotations

import importlib

import callgate.lint

OTHER_PACKAGES = [
    "callgate",
    "callgate.schema",
    "callgate.contract",
    "callgate.dialects",
    "callgate.store",
    "callgate.gate",
    "callgate.models",
    "callgate.loop",
    "callgate.testing",
    "callgate.retrieval",
]


def test_lint_names_are_its_own() -> None:
    clashes = []
    for package in OTHER_PACKAGES:
        module = importlib.import_module(package)
        for name in set(module.__all__) & set(callgate.lint.__all__):
            if getattr(module, name) is not getattr(callgate.lint, name):
                clashes.append(f"{package}.{name}")
    assert clashes == []


def test_renamed_values_are_exported() -> None:
    assert {"LintRule", "ScanHit", "PinnedTool", "load_servers"} <= set(callgate.lint.__all__)
    assert not {"Rule", "Hit", "Pin"} & set(callgate.lint.__all__)
