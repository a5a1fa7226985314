"""Import an optional dependency, or fail with the install command in the message."""

from __future__ import annotations

import importlib
from types import ModuleType

from callgate._errors import MissingExtraError

__all__ = ["require"]


def require(module: str, *, extra: str, package: str | None = None) -> ModuleType:
    """Import `module`; on failure raise `MissingExtraError` naming `callgate[extra]`."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(extra, package or module.split(".")[0]) from exc
