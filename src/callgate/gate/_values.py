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

import contextlib
import functools
import ipaddress
import re
import unicodedata
from collections.abc import Callable
from urllib.parse import unquote, urlsplit

import idna

__all__ = ["MAX_VALUE_CHARS", "destinations", "plain"]

MAX_VALUE_CHARS = 300
"""Longer candidates are no host, address or number (a host has at most 253 characters)."""

_FILE_SUFFIXES = frozenset({
    "txt", "md", "rst", "py", "pyi", "js", "ts", "tsx", "jsx", "json", "yaml", "yml", "toml",
    "ini", "cfg", "conf", "csv", "tsv", "xml", "html", "htm", "css", "pdf", "doc", "docx",
    "xls", "xlsx", "ppt", "pptx", "odt", "png", "jpg", "jpeg", "gif", "svg", "webp", "bmp",
    "ico", "zip", "gz", "tar", "tgz", "bz2", "xz", "whl", "lock", "log", "sh", "bat", "ps1",
    "exe", "dll", "so", "dylib", "bin", "sql", "db", "sqlite", "env", "pem", "key", "crt", "c",
    "h", "cpp", "hpp", "rs", "go", "java", "kt", "rb", "php", "swift", "mp3", "mp4", "wav",
    "mov", "avi",
})  # fmt: skip
"""Last labels that make `notes.txt` a file name, not a host (unless written as a URL or
after `www.`)."""

_URL = re.compile(
    r"\b[a-z][a-z0-9+.-]{0,15}://(?:[^\s<>\"'`(){}\[\]|\\^@/]*@)?(?:\[[0-9a-f:.]{2,45}\])?"
    r"[^\s<>\"'`(){}\[\]|\\^]*",
    re.IGNORECASE,
)
"""A URL; an IPv6 address in brackets is its host (brackets elsewhere end it, as in Markdown)."""
_EMAIL = re.compile(r"[\w.+-]{1,64}@(?:[\w-]{1,63}\.)+[\w-]{2,63}")
_HOST = re.compile(r"(?<![\w@.-])(?:[\w-]{1,63}\.)+(?:[^\W\d_]{2,63}|xn--[\w-]{1,59})(?![\w@-])")
_IBAN = re.compile(
    r"(?<![\w])(?:[a-z]{2}\d{2}[a-z0-9]{11,30}"
    r"|[A-Z]{2}\d{2}(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?)(?![\w])",
    re.IGNORECASE,
)
_NUMBER = re.compile(
    r"(?<![\w+])(?:\+\d[\d ().-]{6,20}\d|\d{4}(?:[ -]\d{4}){2,4}|\d{9,34})(?![\w])"
)
_IBAN_DIGITS = 8
"""An account number has at least this many digits (`ab12cdefghijklmno` is a word)."""
_DOTS = str.maketrans({"\u3002": ".", "\uff61": ".", "\uff0e": "."})
"""Full stops IDNA reads as dots (NFKC maps only the full-width one)."""

Found = tuple[str | None, str]
"""A normalized value (None: not one after all), and the text to leave in its place."""


def destinations(text: str) -> set[str]:
    """Every host, e-mail address, account, card or phone number in `text`, normalized:
    `host:acme.com`, `email:bo@acme.com`, `account:DE89370400440532013000`,
    `number:4915112345678`."""
    text = plain(text)
    found: set[str] = set()
    for pattern, kind in (
        (_URL, _url),
        (_EMAIL, _email),
        (_HOST, _host),
        (_IBAN, _account),
        (_NUMBER, _number),
    ):
        text = _take(text, pattern, kind, found)
    return found


def plain(text: str) -> str:
    """`text` in compatibility form (NFKC) without invisible characters (format
    characters: zero-width, bidi controls, tags), with IDNA's full stops as dots."""
    return unicodedata.normalize("NFKC", text.translate(_invisible())).translate(_DOTS)


def _take(
    text: str, pattern: re.Pattern[str], kind: Callable[[str], Found], found: set[str]
) -> str:
    """Adds what `pattern` finds in `text` (normalized by `kind`) to `found`; returns the
    text with each match replaced by what `kind` leaves of it, so that a later pattern does
    not read a value twice (the domain of an e-mail address is no host of its own)."""
    pieces, last = [], 0
    for match in pattern.finditer(text):
        key, rest = kind(match.group()) if len(match.group()) <= MAX_VALUE_CHARS else (None, " ")
        if key is not None:
            found.add(key)
        pieces += [text[last : match.start()], rest]
        last = match.end()
    if not pieces:
        return text
    return "".join([*pieces, text[last:]])


def _url(value: str) -> Found:
    """The URL's host; its path, query and fragment (decoded) stay to be read on, since
    `https://acme.com/invite?to=mallory@evil.test` names two places."""
    try:
        parts = urlsplit(value)
        hostname = parts.hostname
    except ValueError:
        return None, " "
    rest = " " + unquote(" ".join((parts.path, parts.query, parts.fragment))) + " "
    host = _domain(unquote(hostname)) if hostname else None
    return (None if host is None else f"host:{host}"), rest


def _email(value: str) -> Found:
    local, _, domain = value.rpartition("@")
    host = _domain(domain)
    return (None if host is None else f"email:{local.casefold()}@{host}"), " "


def _host(value: str) -> Found:
    lowered = value.lower()
    if lowered.rpartition(".")[2] in _FILE_SUFFIXES and not lowered.startswith("www."):
        return None, " "
    host = _domain(value)
    return (None if host is None else f"host:{host}"), " "


def _account(value: str) -> Found:
    compact = value.replace(" ", "").upper()
    if sum(c.isdigit() for c in compact) < _IBAN_DIGITS:
        return None, value  # a word: the number pattern may still read its digits
    return f"account:{compact}", " "


def _number(value: str) -> Found:
    return f"number:{''.join(c for c in value if c.isdigit())}", " "


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
    with contextlib.suppress(idna.IDNAError, UnicodeError, ValueError):
        name = idna.encode(name, uts46=True).decode("ascii")
    return name.removeprefix("www.") or None


@functools.cache
def _invisible() -> dict[int, None]:
    """Format characters (category Cf) of every plane, to be deleted."""
    return {
        code: None
        for plane in (range(0x80, 0x20000), range(0xE0000, 0xE1000))
        for code in plane
        if unicodedata.category(chr(code)) == "Cf"
    }
