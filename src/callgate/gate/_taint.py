"""The Rule of Two: no single step may combine untrusted input, private data and an action
that is irreversible or sends data out (DESIGN.md, "Rule of Two").

The tracker remembers, per run, which labelled tools' outputs entered the run. A call that
would complete the three is held for a human, whatever the policy rules say.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from callgate.contract import Context, Effect, Tool

__all__ = ["TaintTracker"]


class TaintTracker:
    """Labels seen per run (label -> first tool that brought it), bounded to recent runs.

    A context whose `attributes["trusted"]` is False counts as untrusted input from the
    start: the principal itself is the open world.
    """

    def __init__(self, *, max_runs: int = 10_000) -> None:
        self._runs: OrderedDict[str, dict[str, str]] = OrderedDict()
        self._max_runs = max_runs
        self._lock = threading.Lock()

    def seen(self, run_id: str | None) -> dict[str, str]:
        """label -> the tool whose output brought it into the run."""
        if run_id is None:
            return {}
        with self._lock:
            return dict(self._runs.get(run_id, {}))

    def observe(self, tool: Tool, run_id: str | None) -> None:
        """Record that `tool`'s output entered the run."""
        labels = tool.labels & {"untrusted_output", "private_data"}
        if run_id is None or not labels:
            return
        with self._lock:
            seen = self._runs.setdefault(run_id, {})
            self._runs.move_to_end(run_id)
            for label in sorted(labels):
                seen.setdefault(label, tool.name)
            while len(self._runs) > self._max_runs:
                self._runs.popitem(last=False)

    def mark(self, run_id: str, label: str, source: str) -> None:
        """Restore a label for a run resumed without the loop (`Agent.resume` restores
        labels itself, from the run's completed calls)."""
        with self._lock:
            self._runs.setdefault(run_id, {}).setdefault(label, source)

    def violation(self, tool: Tool, context: Context) -> str | None:
        """Why calling `tool` now would break the Rule of Two, or None when it would not."""
        acts = tool.effect is Effect.IRREVERSIBLE or "public_sink" in tool.labels
        if not acts:
            return None
        seen = self.seen(context.run_id)
        untrusted = seen.get("untrusted_output")
        if untrusted is None and context.attributes.get("trusted") is False:
            untrusted = f"the untrusted principal {context.principal}"
        private = seen.get("private_data") or (tool.name if "private_data" in tool.labels else None)
        if untrusted is None or private is None:
            return None
        action = (
            "is irreversible"
            if tool.effect is Effect.IRREVERSIBLE
            else "sends data out (a public sink)"
        )
        return (
            f"Rule of Two: this run has taken in untrusted content (from {untrusted}) and "
            f"private data (from {private}), and {tool.name} {action}; "
            "a human must approve it"
        )
