"""Sensitive files, literal secrets and dangerous shell commands in model-readable text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from operator import itemgetter

from callgate.lint._alternatives import Alternatives
from callgate.lint._concepts import first_directive, tag_text
from callgate.lint._finding import LintRule, Severity
from callgate.lint._scan_site import ScanHit, TextSite
from callgate.lint._words import name_tokens

__all__ = [
    "RULES",
    "check_commands",
    "check_secret_literals",
    "check_sensitive_files",
    "own_purpose",
]

H, M, L = Severity.HIGH, Severity.MEDIUM, Severity.LOW

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

# Each alternative with what every match of it holds (`Alternatives`); the gate is what
# one of them holds.
_FILES = Alternatives.of(
    (
        ((".ssh",), r"(?:~|\$home|%userprofile%|/home/\w+|/root)?/?\.ssh\b(?:/[\w.-]+)?"),
        (("id_",), r"\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?:\.pub)?"),
        (("authorized_keys",), r"\bauthorized_keys\b"),
        ((".env",), r"(?<![\w.-])\.env(?:\.[a-z]+)?(?![\w/-])"),
        (
            ("/etc/", "/proc/"),
            r"/etc/(?:passwd|shadow|sudoers|gshadow|master\.passwd)\b|/proc/self/environ\b",
        ),
        (
            (".aws/", ".azure/", "gcloud", ".kube/"),
            r"\.aws/(?:credentials|config)\b|\.azure/|\.config/gcloud\b|\.kube/config\b",
        ),
        (
            ("netrc", "pgpass", "npmrc", "pypirc", "git-credentials", "htpasswd", "_history"),
            r"\.(?:netrc|pgpass|npmrc|pypirc|git-credentials|htpasswd|bash_history|zsh_history)\b",
        ),
        (
            (".docker/", "gnupg", "password-store", "keyring"),
            r"\.docker/config\.json|\.gnupg\b|\.password-store\b|keyrings?/[\w.-]+",
        ),
        (
            ("credentials.", "secrets.", "service"),
            r"\b(?:credentials|secrets|service[-_]account|application_default_credentials)"
            r"\.(?:json|db)\b",
        ),
        (
            ("claude_desktop", "mcp.json", ".cursor/"),
            r"\b(?:claude_desktop_config|mcp)\.json\b|\.cursor/",
        ),
        (
            ("wallet.dat", "keychain", "private", "secret"),
            r"\bwallet\.dat\b|\bkeychain\b|\b(?:private|secret)[ _-]key\b",
        ),
        (
            ("cookies", "login data"),
            r"\bcookies\.sqlite\b|\bcookies\.binarycookies\b|\bLogin Data\b"
            r"|(?:Chrome|Chromium|Firefox|Edge|Brave|Safari)\b[^\n]{0,60}?\bCookies\b",
        ),
    ),
    re.IGNORECASE,
    gate=(
        *("ssh", "id_", "authorized_keys", ".env", "/etc/", "/proc/", ".aws/", ".azure/"),
        *("gcloud", ".kube/", "netrc", "pgpass", "npmrc", "pypirc", "git-credentials"),
        *("htpasswd", "_history", ".docker/", "gnupg", "password-store", "keyring"),
        *("credentials.", "secrets.", "service", "claude_desktop", "mcp.json", ".cursor/"),
        *("wallet.dat", "keychain", "private", "secret", "cookies", "login data"),
    ),
)
# A path under the home folder whose parts name a secret: `~/.config/gh/hosts.yml`,
# `~/.local/share/app/token`, `%APPDATA%\\app\\session.json` ...
_HOME_SECRET = re.compile(
    r"(?:~|\$HOME|\$\{HOME\}|%(?:USERPROFILE|APPDATA|LOCALAPPDATA)%|/home/\w+|/Users/\w+)"
    r"[/\\](?:[\w .@-]+[/\\]){0,6}?[\w.@-]*"
    r"(?:token|secret|credential|cookie|passw|keyring|wallet|auth|session|hosts\.yml|"
    r"\.pem|\.key|\.p12|\.pfx|\.kdbx|id_)[\w.@-]*",
    re.IGNORECASE,
)
_CONFIG_HOME = re.compile(r"~/\.config/(?:gh|hub|gcloud|op|doctl|heroku|netlify|vercel)\b[\w./-]*")
_ACTS = ("READ", "MOVE")
# A cheap substring test that spares the home patterns most texts.
_HOME_NEEDLES: tuple[str, ...] = ("~", "$home", "${home}", "%userprofile%", "%appdata%")
_HOME_NEEDLES += ("%localappdata%", "/home/", "/users/")
_SECRETS = re.compile(
    r"\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_\w{22,}"
    r"|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bsk_live_[0-9A-Za-z]{20,}|\bAIza[0-9A-Za-z_-]{35}\b"
    r"|\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}|-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----"
    r"|\beyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]{10,}"
)

_COMMANDS = Alternatives.of(
    (
        (("curl", "wget"), r"\b(?:curl|wget)\b[^|;\n]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b"),
        (
            ("curl", "wget"),
            r"\b(?:curl|wget)\b[^\n]{0,200}?(?:-o|-O|>)\s*(?P<file>\S+)\s*(?:&&|;)\s*"
            r"(?:sudo\s+)?(?:(?:ba|z|da)?sh|chmod\s+\+x|\.?/)",
        ),
        (
            ("curl", "wget", "nc"),
            r"\|\s*(?:curl|wget|nc)\b[^\n]{0,80}?(?:-d\s*@-|--data[-\w]*\s*@-|-T\s*-|https?://)",
        ),
        (("rm",), r"\brm\s+-(?:rf|fr|r\s+-f|f\s+-r)\s+(?:/|~|\$home|\*)"),
        (
            ("/dev/tcp/", "nc", "mkfifo"),
            r"/dev/tcp/|\bnc\s+(?:-\w+\s+)*-[ec]\s|\bmkfifo\b.{0,80}\bnc\b",
        ),
        (
            ("powershell",),
            r"\bpowershell(?:\.exe)?\s+(?:-\w+\s+)*-(?:e|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}",
        ),
        (("chmod", ":("), r"\bchmod\s+(?:-R\s+)?777\s+/|:\(\)\s*\{\s*:\|:&\s*\};:"),
        (("downloadstring",), r"\b(?:iex|invoke-expression)\b.{0,40}\bdownloadstring\b"),
    ),
    re.IGNORECASE,
    gate=(
        *("curl", "wget", "rm ", "/dev/tcp", "nc ", "mkfifo", "chmod"),
        *("powershell", "iex", "invoke-expression", ":()"),
    ),
)
# Reconnaissance chained before the real work: `env && ...`, `whoami; ...`; piped into a
# filter that ends the command and only shows it (`env | sort`), it is the work itself.
_PROBES = re.compile(
    r"(?:^|[`'\"(;&|]\s*|\b(?:run|execute|prefix\w*|with)\s+`?)"
    r"(?P<probe>env|printenv|id|whoami|uname(?:\s+-\w+)?|hostname|ifconfig|ip\s+a(?:ddr)?|"
    r"set|history|cat\s+(?:~|/etc|\$HOME)\S*|ls\s+-\w+\s+(?:~|/)\S*)\s*"
    r"(?:&&|;|\|\||\|(?!\s*(?:sort|grep|head|tail|less|more|wc|cut|uniq|column|jq)\b[^|;&>`\n]*(?:`|$)))",
    re.IGNORECASE,
)


def check_sensitive_files(site: TextSite) -> Iterator[ScanHit]:
    """S004: medium for a mention, high when the same sentence asks to read or move it. Every
    file named is judged, so a mention first cannot cover a request after it."""
    lowered = site.text.lower()
    matches = list(_FILES.finditer(site.text, lowered))
    if not matches and any(map(lowered.__contains__, _HOME_NEEDLES)):
        home = [*_CONFIG_HOME.finditer(site.text), *_HOME_SECRET.finditer(site.text)]
        matches = sorted(home, key=lambda m: m.start())
    if not matches:
        return
    # One hit per file asked for (a tool is judged against each: named for one file, it
    # may be asked for another); a text that only names files gets one, for the first.
    asked = [m for m in matches if _asked(site.text, m.start(), *_ACTS)]
    for match in asked or matches[:1]:
        what = "asks to read or pass" if asked else "names"
        yield ScanHit(
            rule="S004",
            severity=H if asked else M,
            start=match.start(),
            end=match.end(),
            message=f"{what} the sensitive file {match.group(0)!r}",
            target=match.group(0),
        )


def _asked(text: str, at: int, *acts: str) -> bool:
    """The sentence of `text` holding position `at` asks for one of `acts` (read, move)."""
    return any(c.start <= at < c.end and c.has(*acts) for c in tag_text(text).clauses)


_PATH_WORDS = re.compile(r"[a-z]{2,}")
_GENERIC = frozenset({"config", "home", "users", "file", "files", "data", "json", "local", "share"})
# What a listed file holds that is no secret of its own, by a word of its path: a tool
# named for the accounts works on `/etc/passwd` (world-readable, no password in it).
_HOLDS = {
    "passwd": frozenset({"user", "users", "account", "accounts", "login", "logins"}),
    "known": frozenset({"host", "hosts", "fingerprint", "fingerprints"}),
}


def own_purpose(tool: str, hit: ScanHit, text: str) -> bool:
    """The tool's name says it works on the file `hit` names in `text`
    (`ssh_authorized_keys_add` and `~/.ssh/authorized_keys`, `dotenv_load` and `.env`) or on
    what the file holds (`local_user_lookup` and `/etc/passwd`). A tool named only for what
    the file holds may read it, not pass it on: `get_user_info` told to put `/etc/passwd`
    into an argument is not at its own work, nor is any tool told to pass a file into an
    argument. A file asked for in hiding (encoded) never is."""
    if hit.decoded is not None:
        return False  # a file asked for in hiding is no tool's own work
    path = hit.target or ""
    named = set(name_tokens(tool))
    named |= {n.removeprefix("dot") for n in named}
    parts = set(_PATH_WORDS.findall(path.lower())) - _GENERIC
    if parts & named or any(p in tool.lower() for p in parts if len(p) >= 4):
        return not _into_argument(text, hit.start)
    held = {w for p in parts for w in _HOLDS.get(p, ())}
    return bool(held & named) and not _asked(text, hit.start, "MOVE")


def _into_argument(text: str, at: int) -> bool:
    """The sentence holding `at` asks to pass something into an argument or field ("include
    its contents in the notes argument"): no tool's own work, whatever it is named for
    (writing into the file itself, "append the key to ~/.ssh/authorized_keys", is)."""
    return any(
        c.start <= at < c.end and c.has("MOVE") and c.has("SINK") for c in tag_text(text).clauses
    )


_SECRET_NEEDLES: tuple[str, ...] = ("AKIA", "github_pat_", "xox", "sk_live_", "AIza", "sk-")
_SECRET_NEEDLES += ("-----BEGIN", "eyJ", "ghp_", "gho_", "ghu_", "ghs_", "ghr_")


def check_secret_literals(site: TextSite) -> Iterator[ScanHit]:
    if not any(map(site.text.__contains__, _SECRET_NEEDLES)):
        return
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
    """S014: commands first, then probes; low when every match is written as an example."""
    lowered = site.text.lower()
    commands = any(map(lowered.__contains__, _COMMANDS.gate))
    chained = "&&" in lowered or ";" in lowered or "|" in lowered
    if not (commands or chained):
        return
    found = _command_spans(site, lowered, commands=commands, chained=chained)
    judged = first_directive(site.text, found, itemgetter(0, 1))
    if judged is not None:
        (start, end, what), example = judged
        what += " (written as an example)" if example else ""
        yield ScanHit(rule="S014", severity=L if example else H, start=start, end=end, message=what)


def _command_spans(
    site: TextSite, lowered: str, *, commands: bool, chained: bool
) -> Iterator[tuple[int, int, str]]:
    """(start, end, what) in the original text of each command, then of each probe."""
    light = site.view("light")
    for match in _COMMANDS.finditer(light.text, lowered) if commands else ():
        yield (*light.source_span(*match.span()), _COMMAND)
    for match in _PROBES.finditer(light.text) if chained else ():
        yield (*light.source_span(*match.span()), _PROBE)


_COMMAND = "shell command that runs downloaded code, opens a shell, sends data or wipes files"
_PROBE = "shell probe chained before the command (environment, identity, host)"
