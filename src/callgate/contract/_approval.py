"""What a person decides about a held call: one vocabulary for the loop, the gate, the store
and the command line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ApprovalDecision", "Approve", "Decline", "Edit"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Approve:
    """Run the call as proposed, once."""

    by: str = "user"
    """Who decided (recorded with the approval and in its receipt)."""
    note: str | None = None
    grant: bool = False
    """Also allow this tool for the rest of the run without asking again (policy asks only:
    a grant never lifts the Rule of Two)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Decline:
    """Do not run the call; `note` is shown to the model."""

    by: str = "user"
    note: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Edit:
    """Run the call once with these arguments instead; they pass the same argument check as a
    proposal (schema, host-set parameters, defaults) and get a new request hash."""

    arguments: Mapping[str, Any] = field(default_factory=dict)
    by: str = "user"
    note: str | None = None
    grant: bool = False


ApprovalDecision = Approve | Decline | Edit
