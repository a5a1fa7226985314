"""Redaction: secrets are cut out before anything is stored or logged.

Covers the API keys and tokens of the common providers, private key blocks, bearer and
basic authorization headers, credentials in URLs, `password=...` style pairs in text,
values under secret-sounding keys in JSON, and any patterns the host adds.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["REDACTED", "RedactingFilter", "Redactor", "install_log_redaction"]

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
    rf"(?P<keep>\"{_KV}\"\s*:\s*\")[^\"]+",  # "password": "..."
)

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
        return value

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


class RedactingFilter(logging.Filter):
    """A logging filter that redacts messages and tracebacks before any handler sees them."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self.redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.redactor.text(record.getMessage())
        record.args = None
        if record.exc_info and record.exc_info[0] is not None:
            text = logging.Formatter().formatException(record.exc_info)
            record.exc_text = self.redactor.text(text)
            record.exc_info = None
        return True


def install_log_redaction(
    redactor: Redactor, loggers: Iterable[str] = ("callgate.gate", "callgate")
) -> None:
    """Attach a `RedactingFilter` to callgate's loggers (idempotent).

    A logger's filters see only records logged on it, not on its children: each logger
    that logs call data is named here.
    """
    for name in loggers:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactingFilter) for f in logger.filters):
            logger.addFilter(RedactingFilter(redactor))
