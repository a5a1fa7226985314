"""Sensitive files, literal secrets and dangerous shell commands in model-readable text."""

from __future__ import annotations

import re
from collections.abc import Iterator

from callgate.lint._finding import LintRule, Severity
from callgate.lint._phrases import compile_phrase
from callgate.lint._scan_site import ScanHit, TextSite, sentence_around
from callgate.lint._text import view

__all__ = ["RULES", "check_commands", "check_secret_literals", "check_sensitive_files"]

H, M = Severity.HIGH, Severity.MEDIUM

RULES = (
    LintRule(
        id="S004",
        name="sensitive-file",
        kind="scan",
        severity=H,
        summary="Text names a secret-bearing file (`~/.ssh`, `id_rsa`, `.env`, "
        "`~/.aws/credentials`, `/etc/passwd`, MCP client configs); high when it also "
        "tells the model to read or pass it.",
        why="A model with file access will read what a description tells it to, and the "
        "contents leave through the next argument.",
        fix="Remove the reference; a tool that needs a credential gets it from the host.",
    ),
    LintRule(
        id="S006",
        name="secret-literal",
        kind="scan",
        severity=M,
        summary="A literal credential (cloud key, token, private key block) in the text.",
        why="Anything in a declaration is sent to every model provider and logged.",
        fix="Remove and rotate the credential; configure it on the server side.",
    ),
    LintRule(
        id="S014",
        name="dangerous-command",
        kind="scan",
        severity=H,
        summary="A shell command that downloads and runs code, opens a reverse shell or "
        "wipes files (`curl ... | sh`, `/dev/tcp`, `rm -rf ~`, `powershell -enc`).",
        why="A model with a shell tool may run the command it was shown.",
        fix="Remove the command from the declaration.",
    ),
)

_FILES = re.compile(
    r"(?:~|\$home|%userprofile%|/home/\w+|/root)?/?\.ssh\b(?:/[\w.-]+)?"
    r"|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?:\.pub)?"
    r"|\bauthorized_keys\b"
    r"|(?<![\w.-])\.env(?:\.[a-z]+)?(?![\w/-])"
    r"|/etc/(?:passwd|shadow|sudoers|gshadow|master\.passwd)\b"
    r"|\.aws/(?:credentials|config)\b"
    r"|\.(?:netrc|pgpass|npmrc|pypirc|git-credentials|htpasswd|bash_history|zsh_history)\b"
    r"|\.docker/config\.json|\.kube/config\b|\.gnupg\b"
    r"|\b(?:credentials|secrets|service[-_]account)\.json\b"
    r"|\b(?:claude_desktop_config|mcp)\.json\b|\.cursor/"
    r"|\bwallet\.dat\b|\bkeychain\b|\b(?:private|secret)[ _-]key\b",
    re.IGNORECASE,
)

_ACTION_EN = compile_phrase(
    "read*|open*|cat|load*|dump*|print*|include*|attach*|send*|pass*|upload*|copy*|paste*|"
    "forward*|fetch*|get|look up|grab|collect*|extract*|append*|put|contents of|content of"
)
_ACTION_RU = compile_phrase(
    "прочитай*|прочти*|открой*|передай*|передав*|отправь*|перешли*|скопируй*|вставь*|"
    "приложи*|загрузи*|добавь*|содержимое",
    "cyrillic",
)

_SECRETS = re.compile(
    r"\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_\w{22,}"
    r"|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bsk_live_[0-9A-Za-z]{20,}|\bAIza[0-9A-Za-z_-]{35}\b"
    r"|\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}|-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----"
    r"|\beyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]{10,}"
)

_COMMANDS = re.compile(
    r"\b(?:curl|wget)\b[^|;\n]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b"
    r"|\brm\s+-(?:rf|fr|r\s+-f|f\s+-r)\s+(?:/|~|\$home|\*)"
    r"|/dev/tcp/|\bnc\s+(?:-\w+\s+)*-[ec]\s|\bmkfifo\b.{0,80}\bnc\b"
    r"|\bpowershell(?:\.exe)?\s+(?:-\w+\s+)*-(?:e|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}"
    r"|\bchmod\s+(?:-R\s+)?777\s+/|:\(\)\s*\{\s*:\|:&\s*\};:"
    r"|\b(?:iex|invoke-expression)\b.{0,40}\bdownloadstring\b",
    re.IGNORECASE,
)


def check_sensitive_files(site: TextSite) -> Iterator[ScanHit]:
    """S004: medium for a mention, high when the same sentence asks to read or move it."""
    match = _FILES.search(site.text)
    if match is None:
        return
    begin, end = sentence_around(site.text, match.start(), match.end())
    sentence = site.text[begin:end]
    acted = any(p.pattern.search(view(sentence, p.kind).text) for p in (_ACTION_EN, _ACTION_RU))
    severity = H if acted else M
    what = "asks to read or pass" if acted else "names"
    yield ScanHit(
        rule="S004",
        severity=severity,
        start=match.start(),
        end=match.end(),
        message=f"{what} the sensitive file {match.group(0)!r}",
    )


def check_secret_literals(site: TextSite) -> Iterator[ScanHit]:
    match = _SECRETS.search(site.text)
    if match is not None:
        shown = match.group(0)
        yield ScanHit(
            rule="S006",
            severity=M,
            start=match.start(),
            end=match.end(),
            message=f"literal credential {shown[:8]}... in the declaration",
        )


def check_commands(site: TextSite) -> Iterator[ScanHit]:
    light = site.view("light")
    match = _COMMANDS.search(light.text)
    if match is not None:
        start, end = light.source_span(*match.span())
        yield ScanHit(
            rule="S014",
            severity=H,
            start=start,
            end=end,
            message="shell command that runs downloaded code, opens a shell or wipes files",
        )
