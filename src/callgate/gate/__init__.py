"""The gate: the path of one call from proposal to outcome (DESIGN.md)."""

from callgate.gate._execute import ExecutionSettings
from callgate.gate._gate import Gate
from callgate.gate._prepare import Prepared, prepare
from callgate.gate._render import Rendered, render_value

__all__ = ["ExecutionSettings", "Gate", "Prepared", "Rendered", "prepare", "render_value"]
