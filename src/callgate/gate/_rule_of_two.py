"""The Rule of Two: no single step may combine untrusted input, private data and an action
that is irreversible or sends data out (DESIGN.md, "Rule of Two").

The labels a run has taken in are kept in the store (`store.labels`), so every process
serving the run sees them and a resumed run needs no replay; this module only judges.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from callgate.contract import Context, Effect, Tool

__all__ = ["RULE_OF_TWO", "action_words", "acts", "violation"]

RULE_OF_TWO = "rule-of-two"
"""The rule id of a call held by the Rule of Two (a grant for the tool does not lift it)."""


def acts(tool: Tool, labels: Collection[str] = ()) -> bool:
    """The third leg: an irreversible action, or one that sends data out. `labels`: the
    call's own, besides the tool's (`Decision.labels`)."""
    return (
        tool.effect is Effect.IRREVERSIBLE
        or "public_sink" in tool.labels
        or "public_sink" in labels
    )


def violation(
    tool: Tool, seen: Mapping[str, str], context: Context, labels: Collection[str] = ()
) -> str | None:
    """Why calling `tool` now would complete the three legs, or None when it would not.

    `seen` maps the labels the run has taken in to what brought each one; `labels` are the
    call's own, besides the tool's. A context whose `attributes["trusted"]` is False counts
    as untrusted input from the start: the principal itself is the open world.
    """
    if not acts(tool, labels):
        return None
    untrusted = seen.get("untrusted_output")
    if untrusted is None and context.attributes.get("trusted") is False:
        untrusted = f"the untrusted principal {context.principal}"
    own = "private_data" in tool.labels or "private_data" in labels
    private = seen.get("private_data") or (tool.name if own else None)
    if untrusted is None or private is None:
        return None
    return (
        f"Rule of Two: this run has taken in untrusted content (from {untrusted}) and "
        f"private data (from {private}), and {tool.name} {action_words(tool)}; a human must "
        "approve it"
    )


def action_words(tool: Tool) -> str:
    """How `tool` acts, in words: the third leg it would bring."""
    if tool.effect is Effect.IRREVERSIBLE:
        return "is irreversible"
    return "sends data out (a public sink)"
