"""Ready toolsets: catalogs of tools with contracts, effects and Rule of Two labels.

    catalog = coding_tools("/path/to/repo", allow=["pytest", "git diff"], hosts=["docs.python.org"])
    gate = Gate(catalog, policy=catalog.policy())

`coding_tools` gives a coding agent its files (read, list, search by name and content,
edit a fragment, write), a terminal without a shell (an allowlist runs, the rest is held
for a person) and web fetches that never reach the local network, all inside one
workspace directory.
"""

from callgate.toolsets._coding import CodingCatalog, coding_tools
from callgate.toolsets._commands import CommandRule
from callgate.toolsets._fetch import Resolver
from callgate.toolsets._settings import (
    DEFAULT_ALLOW,
    PROTECTED_PATTERNS,
    SECRET_PATTERNS,
    CodingLimits,
)

__all__ = [
    "DEFAULT_ALLOW",
    "PROTECTED_PATTERNS",
    "SECRET_PATTERNS",
    "CodingCatalog",
    "CodingLimits",
    "CommandRule",
    "Resolver",
    "coding_tools",
]
