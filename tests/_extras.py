"""Skip every test module of a directory whose tests need an optional extra that is not
installed, with the install command as the reason (a skip raised while a conftest is imported
is an error, so the skip is raised where pytest collects each module)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

import pytest


class _SkippedModule(pytest.Module):
    reason = ""

    def _getobj(self) -> object:
        pytest.skip(self.reason, allow_module_level=True)


def skip_modules_without(
    module: str, *, extra: str, what: str
) -> Callable[[Path, pytest.Collector], pytest.Module | None]:
    """A `pytest_pycollect_makemodule` hook for a conftest: each module below it is a skip
    saying `what` is missing and how to install it, when `module` cannot be imported."""
    try:
        importlib.import_module(module)
        missing = False
    except ImportError:
        missing = True

    def pytest_pycollect_makemodule(
        module_path: Path, parent: pytest.Collector
    ) -> pytest.Module | None:
        if not missing:
            return None
        skipped = _SkippedModule.from_parent(parent, path=module_path)
        skipped.reason = f"needs {what}: pip install 'callgate[{extra}]'"
        return skipped

    return pytest_pycollect_makemodule
