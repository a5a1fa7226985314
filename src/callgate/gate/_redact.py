"""Redaction: secrets are cut out before anything is stored or logged.

Covers the API keys and tokens of the common providers, private key blocks, bearer and
basic authorization headers, credentials in URLs, `password=...` style pairs in text,
values under secret-sounding keys in JSON, and any patterns the host adds.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from callgate.contract import ToolResult

__all__ = ["REDACTED", "Redactor"]

REDACTED = "[REDACTED]"

# Provider formats as published by each provider; lengths are lower bounds so that short
# look-alikes survive. A group named `keep` stays in front of the redaction.
_KV = r"(?i:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|token)"
_BUILTIN: tuple[str, ...] = (
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----",
    r"(?P<keep>\b(?i:bearer|basic) )[A-Za-z0-9\-._~+/]{8,}=*",
    r"(?P<keep>://[^/\s:@]+:)[^/\s@]+(?=@)",  # user:password@host
    r"\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",  # OpenAI, Anthropic
    r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",  # AWS access key id
    r"\bgh[pousr]_[A-Za-z0-9]{30,}\b",  # GitHub
    r"\bgithub_pat_[A-Za-z0-9_]{22,}",
    r"\bglpat-[A-Za-z0-9_\-]{20,}",  # GitLab
    r"\bxox[abprs]-[A-Za-z0-9\-]{10,}",  # Slack
    r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}",  # Stripe
    r"\bAIza[0-9A-Za-z_\-]{35}",  # Google API key
    r"\bhf_[A-Za-z0-9]{30,}",  # Hugging Face
    r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",  # JWT
    rf"(?P<keep>\b{_KV}\s*[=:]\s*)[^\s&,;\"']+",  # password=..., token: ...
    # db_password=..., session_token: ... (a secret-sounding ending of a longer name)
    r"(?P<keep>\b(?:[A-Za-z][\w.-]*?)?(?i:password|passwd|secret|api[_-]?key|token|credential)"
    r"\s*[=:]\s*[\"']?)[^\s&,;\"'{}\[\]]+",
)

# `"name": "value"` in JSON text (a rendered result, a log line): the value is redacted when
# the name is one `Redactor.secret_key` calls secret, exactly as in a JSON value.
_JSON_PAIR = re.compile(r'"((?:[^"\\]|\\.){1,128})"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*)')

_SECRET_KEY_ENDINGS = (
    "password",
    "passwd",
    "secret",
    "token",
    "apikey",
    "privatekey",
    "accesskey",
    "secretkey",
    "credential",
    "credentials",
)
_SECRET_KEYS = frozenset(
    {"authorization", "cookie", "setcookie", "pwd", "auth", "proxyauthorization", "xapikey"}
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Redactor:
    """Replaces secrets with `[REDACTED]` in text and in JSON values."""

    patterns: tuple[str, ...] = ()
    """Extra regular expressions; each whole match is redacted."""
    keys: tuple[str, ...] = ()
    """Extra key names whose values are always redacted (compared without case, `-`, `_`)."""
    in_results: bool = False
    """Also redact what tools return before the model sees it."""
    _patterns: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)
    _keys: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        compiled = tuple(re.compile(p) for p in (*_BUILTIN, *self.patterns))
        object.__setattr__(self, "_patterns", compiled)
        object.__setattr__(self, "_keys", frozenset(_norm(k) for k in self.keys))

    def text(self, value: str) -> str:
        for pattern in self._patterns:
            value = pattern.sub(_replace, value)
        if '"' in value:
            value = _JSON_PAIR.sub(self._pair, value)
        return value

    def _pair(self, match: re.Match[str]) -> str:
        name, colon, content = match.group(1), match.group(2), match.group(3)
        if not self.secret_key(name) or content in ('""', f'"{REDACTED}"'):
            return match.group(0)
        return f'"{name}"{colon}"{REDACTED}"'

    def value(self, value: Any) -> Any:
        """A copy of a JSON value with secrets redacted (keys by name, strings by pattern)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {
                k: (REDACTED if self.secret_key(str(k)) and v not in (None, "") else self.value(v))
                for k, v in value.items()
            }
        if isinstance(value, list | tuple):
            return [self.value(v) for v in value]
        return value

    def result(self, result: ToolResult) -> ToolResult:
        """A copy of a result with secrets redacted in its text and its structured value."""
        content, structured = self.text(result.content), self.value(result.structured)
        if content == result.content and structured == result.structured:
            return result
        return dataclasses.replace(result, content=content, structured=structured)

    def secret_key(self, key: str) -> bool:
        norm = _norm(key)
        return norm in _SECRET_KEYS or norm in self._keys or norm.endswith(_SECRET_KEY_ENDINGS)

    def changes(self, value: Any) -> bool:
        return bool(self.value(value) != value)


def _replace(match: re.Match[str]) -> str:
    keep = match.groupdict().get("keep")
    return (keep or "") + REDACTED


def _norm(key: str) -> str:
    return key.lower().replace("-", "").replace("_", "")
