"""The numbers and patterns the coding toolset works within, each stated to the model."""

from __future__ import annotations

import math
from dataclasses import dataclass

from callgate._errors import UserError

__all__ = ["DEFAULT_ALLOW", "PROTECTED_PATTERNS", "SECRET_PATTERNS", "CodingLimits"]

DEFAULT_ALLOW: tuple[str, ...] = ("pytest", "ruff check", "git status", "git diff")
"""Commands `run_command` runs without asking: a program and the arguments it starts with."""

SECRET_PATTERNS: tuple[str, ...] = (
    ".env",
    ".env.*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.keystore",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    "credentials",
    "credentials.*",
    ".netrc",
    ".pgpass",
    ".pypirc",
    ".npmrc",
    ".git-credentials",
    "*.tfvars",
    "secrets.*",
)
"""gitignore-style patterns of files that hold secrets: private data for the Rule of Two."""

PROTECTED_PATTERNS: tuple[str, ...] = (".git/",)
"""Files a write or edit never changes without a human: `.git/config` can name programs that
`git status` runs (fsmonitor, filters), so writing there would turn an allowlisted command
into any command."""


@dataclass(frozen=True, kw_only=True, slots=True)
class CodingLimits:
    """Sizes and times of the coding tools; the descriptions the model reads state them.

    The defaults keep every result under the gate's default result cut (20,000
    characters), so the toolset's own notices ("call again with start_line=...") survive.
    """

    read_lines: int = 2000
    """Lines `read_file` returns per call."""
    read_chars: int = 18_000
    """Characters `read_file` returns per call (whole lines)."""
    line_chars: int = 2000
    """A longer line is cut, with a notice."""
    list_entries: int = 500
    """Most entries `list_dir` and `search_files` return (the `limit` maximum)."""
    search_results: int = 200
    """Most matching lines `search_text` returns (the `limit` maximum)."""
    search_file_bytes: int = 2_000_000
    """Larger files are skipped by `search_text` (and counted)."""
    search_seconds: float = 10.0
    """Time budget of one `search_text` (a regular expression that backtracks stops here)."""
    walk_entries: int = 200_000
    """Directory entries one search visits at most."""
    write_chars: int = 1_000_000
    """Largest `content` of `write_file` and `new` of `edit_file`."""
    command_timeout: float = 60.0
    """Seconds a command runs when the call names no timeout."""
    command_timeout_max: float = 600.0
    """Largest timeout a call may ask for."""
    command_output_chars: int = 16_000
    """Output kept from a command: the first and the last half of it, with a notice."""
    fetch_bytes: int = 2_000_000
    """Bytes read from a response body at most."""
    fetch_chars: int = 18_000
    """Characters of a fetched page returned to the model."""
    fetch_seconds: float = 20.0
    """Time budget of one `fetch_url`, redirects included."""
    fetch_redirects: int = 5

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not number or not 0 < value < math.inf:
                raise UserError(f"CodingLimits.{name} must be a positive number, got {value!r}")
        if self.command_timeout > self.command_timeout_max:
            raise UserError("CodingLimits.command_timeout must not exceed command_timeout_max")
