"""`module:attr` names the user's own code, found from where the user stands."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

from callgate._errors import UserError

__all__ = ["import_attribute", "importable_from_cwd"]


def importable_from_cwd() -> None:
    """Let `module:attr` resolve from the current folder, as `python -m` would."""
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def import_attribute(spec: str, *, option: str) -> Any:
    """The object `spec` (`module:attr`, attr may be dotted) names; a `UserError` that names
    `option` and the cause when the module cannot be imported or lacks the attribute."""
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise UserError(f"{option} {spec!r}: expected MODULE:ATTRIBUTE, e.g. myapp.tools:catalog")
    importable_from_cwd()
    try:
        value: Any = importlib.import_module(module_name)
    except Exception as exc:  # the user's module: whatever it raises while importing
        raise UserError(
            f"{option} {spec!r}: cannot import {module_name!r} "
            f"({type(exc).__name__}: {exc}); run from the folder that holds it"
        ) from exc
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise UserError(f"{option} {spec!r}: {module_name!r} has no attribute {attribute!r}")
        value = getattr(value, part)
    return value
