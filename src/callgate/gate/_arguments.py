"""The argument check: the one path from what someone proposed to the arguments a tool runs
with, for a model's proposal and for an approver's edit alike."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from callgate.contract import CompiledTool
from callgate.gate._inject import supplied_by_model
from callgate.schema import ArgumentError, ArgumentLimits, FieldError, check, parse_arguments

__all__ = ["Rejected", "check_arguments"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Rejected:
    """Why proposed arguments cannot run."""

    problems: Sequence[FieldError] | str = ()
    """Schema violations, or why the payload is not an arguments object at all."""
    host_set: tuple[str, ...] = ()
    """Server-side parameters that were sent although only the host sets them."""

    def message(self) -> str:
        if self.host_set:
            return f"{', '.join(map(repr, self.host_set))} is set by the host"
        if isinstance(self.problems, str):
            return self.problems
        return "; ".join(p.message for p in self.problems)


def check_arguments(
    entry: CompiledTool, raw: object, limits: ArgumentLimits
) -> dict[str, Any] | Rejected:
    """Parse within `limits`, refuse host-set parameters, validate against the schema and
    fill the declared defaults; returns the arguments to run with, or why not."""
    arguments = parse_arguments(raw, limits)
    if isinstance(arguments, ArgumentError):
        return Rejected(problems=arguments.message)
    tool = entry.tool
    if tool.server_parameters:
        sent = supplied_by_model(tool, arguments)
        if sent:
            return Rejected(host_set=tuple(sent))
    problems = check(entry.input, arguments)
    if problems:
        return Rejected(problems=problems)
    filled: dict[str, Any] = entry.fill_defaults(arguments)
    return filled
