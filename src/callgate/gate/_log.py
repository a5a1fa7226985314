"""The gate's log, redacted with the gate's own `Redactor` before a record exists.

Redaction happens here, where the gate logs, rather than in a filter on the shared logger:
a logger is global, while two gates in one process may redact different patterns.
"""

from __future__ import annotations

import logging
import traceback

from callgate.gate._redact import Redactor

__all__ = ["GateLog"]


class GateLog:
    """`error` and `exception` on logger `callgate.gate`, message and traceback redacted."""

    def __init__(self, redactor: Redactor, logger: logging.Logger | None = None) -> None:
        self.redactor = redactor
        self.logger = logger or logging.getLogger("callgate.gate")

    def error(self, message: str, *args: object) -> None:
        if self.logger.isEnabledFor(logging.ERROR):
            self.logger.error("%s", self.redactor.text(message % args))

    def exception(self, message: str, *args: object) -> None:
        """Log with the current exception's traceback, both redacted."""
        if self.logger.isEnabledFor(logging.ERROR):
            text = f"{message % args}\n{traceback.format_exc().rstrip()}"
            self.logger.error("%s", self.redactor.text(text))
