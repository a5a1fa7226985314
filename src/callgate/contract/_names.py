"""Tool names: the strictest rule every model API accepts, and namespaces as prefixes."""

from __future__ import annotations

import re

from callgate._errors import UserError

__all__ = ["NAME_RULE", "check_name", "qualify"]

NAME_RULE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""Letters, digits, `_` and `-`, 1 to 64 characters: accepted by OpenAI, Anthropic, Gemini, MCP."""


def check_name(name: str) -> str:
    """Return `name` when every provider accepts it; otherwise raise a readable `UserError`."""
    if NAME_RULE.match(name):
        return name
    if not name:
        raise UserError("a tool name must not be empty")
    if len(name) > 64:
        raise UserError(
            f"tool name {name[:70]!r}... is {len(name)} characters long; the limit is 64"
        )
    bad = sorted({c for c in name if not re.match(r"[A-Za-z0-9_-]", c)})
    raise UserError(
        f"tool name {name!r} contains {', '.join(map(repr, bad))}: only letters, digits, "
        "'_' and '-' are accepted by every model API (write groups as 'notes_search' "
        "or pass namespace='notes')"
    )


def qualify(name: str, namespace: str | None) -> tuple[str, str | None]:
    """Resolve `notes.search` groups and `namespace=` into (`notes_search`, `notes`).

    A dotted name is a namespace group; it is rendered with `_` because several
    providers reject dots.
    """
    if "." in name:
        group, _, short = name.rpartition(".")
        namespace = namespace or group.replace(".", "_")
        name = short
    if namespace:
        namespace = namespace.replace(".", "_")
        if not name.startswith(namespace + "_"):
            name = f"{namespace}_{name}"
    return name, namespace
