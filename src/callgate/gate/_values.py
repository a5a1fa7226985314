"""Values that say where an action goes — hosts, e-mail addresses, account, card and phone
numbers — found in text and written in one normal form, so that two spellings of one
destination compare equal and two destinations never do.

What folds together is what reaches the same place: letter case (`WWW.Evil.COM`),
compatibility forms that IDNA maps the same way (full-width letters, `＠`, the ideographic
full stop), invisible characters inside a value, a leading `www.`, a trailing dot, the
user, port and path of a URL, spaces inside an account number. What does not fold is what
reaches another place: a look-alike letter from another script (`pаypal.com` with a
Cyrillic `а` is `xn--pypal-4ve.com`), `ß` against `ss` (IDNA 2008, as browsers resolve it),
one more label (`evil.acme.com` is not `acme.com`).
"""

from __future__ import annotations

import functools
import ipaddress
import re
import unicodedata
from collections.abc import Callable
from urllib.parse import unquote, urlsplit

import idna

from callgate._visible import visible

__all__ = ["MAX_HOST_CHARS", "destinations", "plain"]

MAX_HOST_CHARS = 253
"""A longer name is no host (DNS allows 253 characters); the URL around it may be longer."""

_FILE_SUFFIXES = frozenset({
    "txt", "rst", "pyi", "js", "ts", "tsx", "jsx", "json", "yaml", "yml", "toml",
    "ini", "cfg", "conf", "csv", "tsv", "xml", "html", "htm", "css", "pdf", "doc", "docx",
    "xls", "xlsx", "ppt", "pptx", "odt", "png", "jpg", "jpeg", "gif", "svg", "webp", "bmp",
    "ico", "gz", "tar", "tgz", "bz2", "xz", "whl", "lock", "log", "bat", "ps1",
    "exe", "dll", "dylib", "bin", "sql", "db", "sqlite", "env", "pem", "key", "crt", "c",
    "h", "cpp", "hpp", "go", "java", "kt", "rb", "php", "swift", "mp3", "mp4", "wav", "avi",
})  # fmt: skip
"""Last labels that make `notes.txt` a file name, not a host (unless written as a URL or
after `www.`). None is a top-level domain: `evil.sh`, `.md`, `.rs`, `.so`, `.py`, `.zip` and
`.mov` are, so `run.sh` is read as a host (a hold of a file name is the price of never
letting a host through as one)."""

_LABEL = r"[\w\u200c\u200d-]{1,253}"
"""A label; joiners stay for IDNA to judge (`_joiners`), and so does a label longer than
DNS allows (63 characters): refused, it keeps its own spelling, so it is still a value."""
_AUTHORITY_END = r"\s/?#<>\"'`(){}\[\]|^"
_URL = re.compile(
    rf"\b[a-z][a-z0-9+.-]{{0,15}}://(?:\[[0-9a-f:.]{{2,45}}\])?[^{_AUTHORITY_END}]*"
    r"(?:[/?#][^\s<>\"'`(){}\[\]|\\^]*)?",
    re.IGNORECASE,
)
"""A URL. Its authority ends where `urlsplit` ends it (`/?#`, and the brackets and quotes
that end a URL in prose and Markdown), so `https://acme.com\\@evil.com/` keeps `evil.com`;
an IPv6 address in brackets is its host."""
_LOCAL = r"(?:\"[^\"\s@]{1,62}\"|[\w!#$%&*+/=?^{|}~-][\w!#$%&'*+/=?^`{|}~.-]{0,63})"
"""An e-mail local part: RFC 5322 atext, or quoted (a quote or backtick does not start it,
since prose quotes addresses)."""
_EMAIL = re.compile(rf"{_LOCAL}@(?:{_LABEL}\.)+{_LABEL}")
_HOST = re.compile(
    rf"(?<![\w\u200c\u200d-])(?<![\w\u200c\u200d-]\.)(?:{_LABEL}\.)+"
    rf"(?:[^\W\d_]{{2,63}}|xn--[\w-]{{1,59}})(?![\w@-])"
)
"""A host name; after `@`, `*.` or a lone `.` too (`*.evil.com`, `x@evil.com` that no
address pattern read), never inside a longer dotted name (a match starting at every label
would read a long chain of labels once per label; the joiners a label may hold count as
inside it)."""
_OCTET = r"(?:0x[0-9a-f]{1,8}|\d{1,10})"
_IPV4 = re.compile(rf"(?<![\w.]){_OCTET}(?:\.{_OCTET}){{3}}(?![\w]|\.\w)", re.IGNORECASE)
"""A dotted IPv4 address, in the octal and hexadecimal spellings `inet_aton` reads too."""
_IPV6 = re.compile(
    r"(?<![\w.])(?:[0-9a-f]{0,4}:){2,7}(?:[0-9a-f]{1,4}|\d{1,3}(?:\.\d{1,3}){3})?(?![\w:])",
    re.IGNORECASE,
)
_IBAN = re.compile(
    r"(?<![\w])(?:[a-z]{2}\d{2}[a-z0-9]{11,30}"
    r"|[A-Z]{2}\d{2}(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?)(?![\w])",
    re.IGNORECASE,
)
_NUMBER = re.compile(
    r"(?<![\w+.,])(?:\+\d[\d ().-]{6,20}\d"
    r"|(?:\(\d{2,6}\) ?|\d{2,6}[ -])(?:\d{2,6}[ -]){0,6}\d{2,6}"
    r"|\d{8,34})(?![\w]|[.,:]\d)"
)
"""A phone, card or account number: `+` and digits, groups of 2–6 digits (`(212) 555-0199`,
`3782 822463 10005`), or a run of 8 digits or more."""
_MIN_DIGITS = 8
"""A number has at least this many digits: an account number (a UK one has 8), a card, a
phone number with its area code; a postal code (`160-0023`) or a local number without one
is not a place on its own."""
_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}-\d{1,2}-\d{4}")
_IBAN_DIGITS = 8
"""An account number has at least this many digits (`ab12cdefghijklmno` is a word)."""
_DOTS = str.maketrans({"\u3002": ".", "\uff61": ".", "\uff0e": "."})
"""Full stops IDNA reads as dots (NFKC maps only the full-width one)."""
_JOINERS = re.compile(r"[\u200c\u200d]+")
_LETTER = re.compile(r"[^\W\d_]")

Found = tuple[str | None, str]
"""A normalized value (None: not one after all), and the text to leave in its place."""


def destinations(text: str) -> set[str]:
    """Every host, e-mail address, account, card or phone number in `text`, normalized:
    `host:acme.com`, `email:bo@acme.com`, `account:DE89370400440532013000`,
    `number:4915112345678`."""
    text = plain(text)
    found: set[str] = set()
    for pattern, kind, needs in (
        (_URL, _url, "://"),
        (_EMAIL, _email, "@"),
        (_HOST, _host, "."),
        (_IPV6, _ip, ":"),
        (_IPV4, _ipv4, "."),
        (_IBAN, _account, ""),
        (_NUMBER, _number, ""),
    ):
        if needs in text:  # a pattern that cannot match is not run over the whole text
            text = _take(text, pattern, kind, found)
    return found


def plain(text: str) -> str:
    """`text` in compatibility form (NFKC) without invisible characters (format
    characters: zero-width, bidi controls, tags), with IDNA's full stops as dots. The
    joiners ZWJ and ZWNJ stay between two letters: IDNA 2008 keeps them in some scripts, so
    there they may make another name (`_domain` lets IDNA decide)."""
    text = _JOINERS.sub(_joiners, text)
    return unicodedata.normalize("NFKC", text.translate(_invisible())).translate(_DOTS)


def _joiners(match: re.Match[str]) -> str:
    text, start, end = match.string, match.start(), match.end()
    between = (
        start > 0
        and end < len(text)
        and bool(_LETTER.match(text[start - 1]))
        and bool(_LETTER.match(text[end]))
    )
    return match.group() if between else ""


def _take(
    text: str, pattern: re.Pattern[str], kind: Callable[[str], Found], found: set[str]
) -> str:
    """Adds what `pattern` finds in `text` (normalized by `kind`) to `found`; returns the
    text with each match replaced by what `kind` leaves of it, so that a later pattern does
    not read a value twice (the domain of an e-mail address is no host of its own)."""
    pieces, last = [], 0
    for match in pattern.finditer(text):
        key, rest = kind(match.group())
        if key is not None:
            found.add(key)
        pieces += [text[last : match.start()], rest]
        last = match.end()
    if not pieces:
        return text
    return "".join([*pieces, text[last:]])


def _url(value: str) -> Found:
    """The URL's host; its path, query and fragment (decoded) stay to be read on, since
    `https://acme.com/invite?to=mallory@evil.test` names two places, and so does an
    authority with `@` or `\\` in it (`urlsplit` and a browser disagree on its host)."""
    try:
        parts = urlsplit(value)
        hostname = parts.hostname
    except ValueError:
        return None, " "
    query = re.sub(r"[&=;]", " ", parts.query)
    rest = " " + unquote(" ".join((parts.path, query, parts.fragment))) + " "
    if "@" in parts.netloc or "\\" in parts.netloc:
        rest += re.sub(r"[@\\:]", " ", unquote(parts.netloc)) + " "
    host = _domain(unquote(hostname)) if hostname else None
    return (None if host is None else f"host:{host}"), rest


def _email(value: str) -> Found:
    """The address with its local part lower-cased and made visible (a quoted local part
    may hold a NUL or a lone surrogate: escaped, the value is stored, shown and compared
    in one spelling; a backslash is doubled so that no escape spells another address)."""
    local, _, domain = value.rpartition("@")
    host = _domain(domain)
    local = visible(local.lower().replace("\\", "\\\\"))
    return (None if host is None else f"email:{local}@{host}"), " "


def _host(value: str) -> Found:
    lowered = value.lower()
    if lowered.rpartition(".")[2] in _FILE_SUFFIXES and not lowered.startswith("www."):
        return None, " "
    host = _domain(value)
    return (None if host is None else f"host:{host}"), " "


def _ip(value: str) -> Found:
    try:
        return f"host:{ipaddress.ip_address(value)}", " "
    except ValueError:
        return None, value  # not an address: its digits may still be a number


def _ipv4(value: str) -> Found:
    address = _dotted(value)
    return (None, value) if address is None else (f"host:{address}", " ")


def _dotted(value: str) -> str | None:
    """`203.0.113.5`, and `0xcb.0.0x71.5` or `0313.0.0161.5` as `inet_aton` reads them."""
    try:
        octets = [
            int(part, 16 if part.startswith("0x") else 8 if part.startswith("0") else 10)
            for part in value.lower().split(".")
        ]
        return str(ipaddress.IPv4Address(bytes(octets)))
    except ValueError:
        return None


def _account(value: str) -> Found:
    compact = value.replace(" ", "").upper()
    if sum(c.isdigit() for c in compact) < _IBAN_DIGITS:
        return None, value  # a word: the number pattern may still read its digits
    return f"account:{compact}", " "


def _number(value: str) -> Found:
    digits = "".join(c for c in value if c.isdigit())
    if len(digits) < _MIN_DIGITS or _DATE.search(value):
        return None, " "
    return f"number:{digits}", " "


def _domain(name: str) -> str | None:
    """A host name as IDNA 2008 writes it (lower case, A-labels), without a trailing dot or
    a leading `www.`; an IP address in its standard form. A name IDNA refuses keeps its own
    spelling, lower-cased: it equals nothing but itself."""
    name = plain(name).strip().rstrip(".").lower()
    if not name:
        return None
    try:
        return str(ipaddress.ip_address(name.strip("[]")))
    except ValueError:
        pass
    if _IPV4.fullmatch(name):
        return _dotted(name)
    try:
        name = idna.encode(name, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError, ValueError):
        name = ".".join(_ascii_label(label) for label in name.split("."))
    name = name.removeprefix("www.")
    return name if 0 < len(name) <= MAX_HOST_CHARS else None


def _ascii_label(label: str) -> str:
    """A label of a name IDNA refuses, in ASCII that cannot pass for another: as IDNA
    writes it where it can, else as Punycode (`pay\u200dpal` is `xn--paypal-…`, never
    `paypal`). An ASCII label (`login_x`, `ab--c`) shows as itself."""
    if label.isascii():
        return label
    try:
        return idna.encode(label, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError, ValueError):
        return "xn--" + label.encode("punycode").decode("ascii")


@functools.cache
def _invisible() -> dict[int, None]:
    """Format characters (category Cf) of every plane but the joiners, to be deleted."""
    return {
        code: None
        for plane in (range(0x80, 0x20000), range(0xE0000, 0xE1000))
        for code in plane
        if unicodedata.category(chr(code)) == "Cf" and code not in (0x200C, 0x200D)
    }
