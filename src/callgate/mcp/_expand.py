"""`${VAR}`, `${VAR:-default}` and `${env:VAR}` in an `mcpServers` config, expanded from the
environment, failing closed.

Claude Code leaves an unset `${TOKEN}` as literal text and sends it upstream; here a
variable that is unset and has no default, or a `${` that does not form a reference, is an
error naming the server and the variable. Every expanded value is a secret: callers keep
the set of values so they can be redacted wherever they might surface.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from callgate._errors import UserError

__all__ = ["Expanded", "UnsetVariable", "expand"]

_REFERENCE = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


class UnsetVariable(UserError):
    """A `${VAR}` without a default names a variable the environment lacks."""

    def __init__(self, server: str, variable: str, where: str) -> None:
        self.server = server
        self.variable = variable
        super().__init__(
            f"{_owner(server)}{where} uses ${{{variable}}}, which is not set in the "
            "environment and has no default (write ${" + variable + ":-value} for one)"
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class Expanded:
    text: str
    secrets: frozenset[str]
    """The values that replaced references (defaults included): never log or store them."""


def expand(text: str, environ: Mapping[str, str], *, server: str, where: str) -> Expanded:
    """Replace every reference in `text`; `server` (empty outside a server entry) and
    `where` name the place in error messages."""
    secrets: set[str] = set()
    pieces: list[str] = []
    position = 0
    for match in _REFERENCE.finditer(text):
        pieces.append(_literal(text[position : match.start()], server, where))
        name, default = match.group(1), match.group(2)
        value = environ.get(name)
        if value is None:
            if default is None:
                raise UnsetVariable(server, name, where)
            value = default
        if value:
            secrets.add(value)
        pieces.append(value)
        position = match.end()
    pieces.append(_literal(text[position:], server, where))
    return Expanded(text="".join(pieces), secrets=frozenset(secrets))


def _literal(part: str, server: str, where: str) -> str:
    if "${" in part:
        start = part.index("${")
        shown = part[start : start + 40]
        raise UserError(
            f"{_owner(server)}{where} has {shown!r}, which is not a variable reference; "
            "write ${NAME}, ${NAME:-default} or ${env:NAME}"
        )
    return part


def _owner(server: str) -> str:
    """The prefix of messages about one server's config ("" outside a server entry)."""
    return f"server {server!r}: " if server else ""
