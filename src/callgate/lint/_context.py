"""What a per-tool lint rule may know about the rest of the catalog."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding

__all__ = ["CatalogCheck", "LintContext", "ToolCheck"]

LARGE_CATALOG = 15
"""From this many tools on, a bare name like `search` is ambiguous to a model."""


@dataclass(frozen=True, kw_only=True, slots=True)
class LintContext:
    size: int
    """Number of tools in the catalog being linted."""
    names: frozenset[str]
    """Every declared name, for replacement and cross-reference checks."""

    @property
    def large(self) -> bool:
        return self.size >= LARGE_CATALOG


ToolCheck = Callable[[ToolEntry, LintContext], Iterable[Finding]]
CatalogCheck = Callable[[Sequence[ToolEntry]], Iterable[Finding]]
