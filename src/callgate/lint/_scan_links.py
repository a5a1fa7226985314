"""Links a model should not follow: shorteners, collectors, raw addresses, lookalike hosts."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from callgate.lint._finding import LintRule, Severity
from callgate.lint._phrases import compile_phrase
from callgate.lint._scan_site import ScanHit, TextSite, sentence_around
from callgate.lint._text import view

__all__ = ["RULES", "check_links"]

H, M, L = Severity.HIGH, Severity.MEDIUM, Severity.LOW

RULES = (
    LintRule(
        id="S007",
        name="suspicious-link",
        kind="scan",
        severity=M,
        summary="A URL shortener, a request collector or tunnel, a raw IP address, a "
        "punycode host or a script URL; or a link in a name, title or enum value.",
        why="The model cannot see where a hidden link leads; collectors and tunnels receive "
        "whatever the model is told to send there.",
        fix="Link to the documented, named host of the service, or remove the link.",
    ),
)

_URL = re.compile(
    r"\b(?:https?|ftp|wss?)://[^\s<>\"'`)\]]+|\b(?:javascript|data):[^\s<>\"']+", re.IGNORECASE
)
_SHORTENERS = frozenset(
    {
        "bit.ly",
        "tinyurl.com",
        "t.co",
        "goo.gl",
        "is.gd",
        "ow.ly",
        "buff.ly",
        "rebrand.ly",
        "cutt.ly",
        "shorturl.at",
        "tiny.cc",
        "rb.gy",
        "t.ly",
        "s.id",
        "v.gd",
        "bl.ink",
        "qr.ae",
        "lnkd.in",
        "shorte.st",
        "adf.ly",
        "bit.do",
        "tr.im",
        "clck.ru",
        "vk.cc",
        "u.to",
        "surl.li",
    }
)
_COLLECTORS = (
    "webhook.site",
    "ngrok.io",
    "ngrok-free.app",
    "ngrok.app",
    "requestbin",
    "pipedream.net",
    "interact.sh",
    "oast.",
    "burpcollaborator",
    "hookbin.com",
    "beeceptor.com",
    "requestcatcher.com",
    "transfer.sh",
    "pastebin.com",
    "paste.ee",
    "hastebin",
    "trycloudflare.com",
    "serveo.net",
    "localtunnel.me",
    "loca.lt",
    "canarytokens",
)
_ODD_TLDS = (".zip", ".mov", ".tk", ".ml", ".ga", ".cf", ".gq", ".top", ".click", ".country")
_SEND = compile_phrase(
    "send*|post*|upload*|forward*|report*|fetch*|download*|run|execute|"
    "follow*|mirror*|exfiltrat*|leak*|submit*|pass*|deliver*|transmit*|"
    "visit|open|go to|load"
)
_NO_LINK_FIELDS = frozenset({"name", "property", "title", "enum", "const"})


def check_links(site: TextSite) -> Iterator[ScanHit]:
    """S007: one hit per site, for its worst link."""
    worst: ScanHit | None = None
    for match in _URL.finditer(site.text):
        graded = _grade(match.group(0), site.field)
        if graded is None:
            continue
        severity, reason = graded
        if severity >= M and _told_to_use(site.text, match.start(), match.end()):
            severity, reason = H, reason + ", and the text tells the model to use it"
        if worst is None or severity > worst.severity:
            worst = ScanHit(
                rule="S007", severity=severity, start=match.start(), end=match.end(), message=reason
            )
    if worst is not None:
        yield worst


def _grade(url: str, field: str) -> tuple[Severity, str] | None:
    lowered = url.lower()
    if lowered.startswith(("javascript:", "data:text/html")):
        return H, "script URL"
    if lowered.startswith("data:"):
        return None
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    if any(c in host for c in _COLLECTORS):
        return H, f"request collector or tunnel host {host!r}"
    if host in _SHORTENERS:
        return M, f"URL shortener {host!r} hides the destination"
    address = _address(host)
    if address is not None:
        if address.is_loopback:
            return None
        return M, f"raw IP address {host!r} instead of a named host"
    if "xn--" in host:
        return M, f"punycode host {host!r} (may imitate another name)"
    if host.endswith(_ODD_TLDS):
        return L, f"host {host!r} in a top-level domain favoured by phishing"
    if field in _NO_LINK_FIELDS:
        return L, f"link in a {field}, where no link belongs"
    return None


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def _told_to_use(text: str, start: int, end: int) -> bool:
    begin, _ = sentence_around(text, start, end)
    return bool(_SEND.pattern.search(view(text[begin:start], "latin").text))
