"""Links a model should not follow: shorteners, collectors, raw addresses, lookalike hosts."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from callgate.lint._concepts import URL, may_link, tag_text
from callgate.lint._finding import LintRule, Severity
from callgate.lint._scan_site import ScanHit, TextSite

__all__ = ["RULES", "check_beacons", "check_links"]

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
_USE = ("MOVE", "READ", "CALL", "ROUTE", "OBEY")
_NO_LINK_FIELDS = frozenset({"name", "property", "title", "enum", "const"})


def check_links(site: TextSite) -> Iterator[ScanHit]:
    """S007: one hit per site, for its worst link."""
    worst: ScanHit | None = None
    for match in URL.finditer(site.text) if may_link(site.text) else ():
        graded = _grade(match.group(0), site.field)
        if graded is None:
            continue
        severity, reason = graded
        told = severity >= M and _told_to_use(site.text, match.start(), match.end())
        if told and not _internal(match.group(0)):
            severity, reason = H, reason + ", and the text tells the model to use it"
        if worst is None or severity > worst.severity:
            worst = ScanHit(
                rule="S007",
                severity=severity,
                start=match.start(),
                end=match.end(),
                message=reason,
                target=(urlsplit(match.group(0)).hostname or "").lower() or None,
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
        spelled = "" if str(address) == host.strip("[]") else f" (spells {address})"
        return M, f"raw IP address {host!r}{spelled} instead of a named host"
    if "xn--" in host:
        return M, f"punycode host {host!r} (may imitate another name)"
    if host.endswith(_ODD_TLDS):
        return L, f"host {host!r} in a top-level domain favoured by phishing"
    if field in _NO_LINK_FIELDS:
        return L, f"link in a {field}, where no link belongs"
    return None


def _internal(url: str) -> bool:
    """A private address written plainly (`http://10.10.1.10:3128`, a proxy example): it
    reaches only the host's own network, so it is no place to send data to. Link-local
    addresses (cloud metadata) and addresses spelled as numbers are not internal here."""
    host = (urlsplit(url).hostname or "").lower()
    address = _address(host)
    return (
        address is not None
        and any(address in network for network in _INTERNAL if network.version == address.version)
        and str(address) == host.strip("[]")
    )


_INTERNAL = tuple(
    ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
)
"""The private ranges of RFC 1918 and 4193; documentation ranges are not among them, as the
test addresses of an example stand for public ones."""


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The IP address a host spells, also as one decimal, hex or octal number
    (`3105457305`, `0xb9c76e99`), which browsers and HTTP clients accept."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    try:
        number = int(host, 0) if host[:2] in ("0x", "0o") else int(host)
    except ValueError:
        return None
    try:
        return ipaddress.IPv4Address(number)
    except ValueError:
        return None


def _told_to_use(text: str, start: int, end: int) -> bool:
    clause = next((c for c in tag_text(text).clauses if c.start <= start < c.end), None)
    return clause is not None and any(t.concept in _USE and t.end <= start for t in clause.tags)


# A Markdown image the model is to render: its URL carries data when it holds a
# placeholder or the text around it speaks of the conversation.
_IMAGE = re.compile(r"!\[[^\]\n]{0,200}\]\(\s*<?(?P<url>https?://[^)\s>]+)")
_PLACEHOLDER = re.compile(r"[{<$%][\w .-]{1,40}[}>]?|=[A-Z][A-Z_]{3,}\b")


def check_beacons(site: TextSite) -> Iterator[ScanHit]:
    """S005: an image whose URL is to carry what the conversation holds."""
    if "![" not in site.text:
        return  # what every image's markup opens with, tested without the pattern
    for match in _IMAGE.finditer(site.text):
        url = match.group("url")
        query = url.partition("?")[2]
        talks = any(
            c.has("CONVO", "CHATDATA", "SECRET", "RESULT") for c in tag_text(site.text).clauses
        )
        if query and (_PLACEHOLDER.search(query) or talks):
            yield ScanHit(
                rule="S005",
                severity=H,
                start=match.start(),
                end=match.end(),
                message="asks to render an image whose URL carries the conversation",
                target=(urlsplit(url).hostname or "").lower(),
            )
            return
