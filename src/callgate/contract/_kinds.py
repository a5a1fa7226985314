"""The closed vocabularies of the contract: effects, routes, and MCP-style annotations."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from callgate._errors import UserError, shown

__all__ = ["Effect", "Route", "ToolAnnotations", "to_effect"]


class Effect(StrEnum):
    """What calling a tool does to the world; it decides how carefully the gate proceeds."""

    READ = "read"
    """Changes nothing: safe to retry, never held by default."""
    WRITE = "write"
    """Changes state that can be changed back."""
    IRREVERSIBLE = "irreversible"
    """Changes state for good (a payment, an e-mail sent, a deletion)."""


def to_effect(value: Effect | str) -> Effect:
    """`value` as an `Effect`; `UserError` naming the three effects otherwise."""
    try:
        return Effect(value)
    except ValueError:
        known = ", ".join(e.value for e in Effect)
        raise UserError(f"unknown effect {shown(value)}; expected one of {known}") from None


class Route(StrEnum):
    """The closed set of outcomes of one proposed call (DESIGN.md, "The path of one call")."""

    INVALID = "invalid"
    DENIED = "denied"
    HELD = "held"
    DECLINED = "declined"
    FAILED = "failed"
    TIMEOUT = "timeout"
    UNKNOWN_OUTCOME = "unknown_outcome"
    CONFLICT = "conflict"
    COMPLETED = "completed"
    VERIFIED = "verified"

    @property
    def is_error(self) -> bool:
        """True when the call did not do what the model asked (a held call is only waiting)."""
        return self not in (Route.COMPLETED, Route.VERIFIED, Route.HELD)

    @property
    def executed(self) -> bool:
        """True when the tool ran (or may have run) against the target system."""
        return self in (
            Route.COMPLETED,
            Route.VERIFIED,
            Route.FAILED,
            Route.TIMEOUT,
            Route.UNKNOWN_OUTCOME,
            Route.CONFLICT,
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolAnnotations:
    """MCP tool annotations: hints for clients, never a security boundary on their own."""

    title: str | None = None
    read_only: bool | None = None
    """MCP `readOnlyHint`: the tool does not modify its environment."""
    destructive: bool | None = None
    """MCP `destructiveHint`: updates may be destructive (meaningful when not read-only)."""
    idempotent: bool | None = None
    """MCP `idempotentHint`: repeating the call with the same arguments has no extra effect."""
    open_world: bool | None = None
    """MCP `openWorldHint`: the tool reaches an open world (web, e-mail), not a closed one."""

    def to_mcp(self) -> dict[str, Any]:
        """The wire form, with unset hints left out."""
        pairs = {
            "title": self.title,
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        }
        return {k: v for k, v in pairs.items() if v is not None}

    @classmethod
    def from_mcp(cls, data: Any) -> ToolAnnotations:
        """The hints of an MCP `annotations` object; what is not a boolean is no hint."""
        if not isinstance(data, Mapping):
            return cls()

        def flag(key: str) -> bool | None:
            value = data.get(key)
            return value if isinstance(value, bool) else None

        title = data.get("title")
        return cls(
            title=title if isinstance(title, str) else None,
            read_only=flag("readOnlyHint"),
            destructive=flag("destructiveHint"),
            idempotent=flag("idempotentHint"),
            open_world=flag("openWorldHint"),
        )

    def effect(self) -> Effect | None:
        """The effect these hints imply, or None when they say nothing.

        `readOnlyHint: true` is a read, whatever else is set: MCP gives `destructiveHint`
        meaning only when `readOnlyHint` is false. Otherwise `destructiveHint: true` is
        irreversible and `false` a write. `readOnlyHint: false` alone is MCP's default
        and says no more than no hints at all (None: the caller's default applies).
        """
        if self.read_only:
            return Effect.READ
        if self.destructive is None:
            return None
        return Effect.IRREVERSIBLE if self.destructive else Effect.WRITE

    def with_effect(self, effect: Effect) -> ToolAnnotations:
        """Fill hints left unset from a declared effect, keeping those the author set."""
        return replace(
            self,
            read_only=self.read_only if self.read_only is not None else effect is Effect.READ,
            destructive=(
                self.destructive
                if self.destructive is not None or effect is Effect.READ
                else effect is Effect.IRREVERSIBLE
            ),
        )
