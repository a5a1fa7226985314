"""Text hidden in an encoding, decoded so that it is shown and scanned again.

Base64 and hex blobs, URL-encoding, `\\u` and `\\x` escapes, HTML entities, ROT13 and
reversed text, and (from `_scan_unicode`) tag characters, variation selectors and
right-to-left overrides. ROT13 and reversal have no marker: a text is read that way when
it is gibberish as written and ordinary words once turned (the common words of nine
languages, or, for Chinese and Japanese, the words of the directive lexicon). Each
reading keeps the span of the original it came from; a reading is decoded once more, so
base64 of URL-encoded text is found too.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import codecs
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote_plus

from callgate.lint._concepts import cjk_words
from callgate.lint._finding import LintRule, Severity
from callgate.lint._scan_site import ScanHit, TextSite
from callgate.lint._scan_unicode import hidden_messages

__all__ = ["RULES", "Reading", "check_encoded", "readings"]

RULES = (
    LintRule(
        id="S010",
        name="encoded-blob",
        kind="scan",
        severity=Severity.MEDIUM,
        summary="Text hidden in base64, hex, URL-encoding, `\\u` escapes, HTML entities, "
        "ROT13 or reversed (shown decoded, and scanned again: an instruction inside raises "
        "the finding it deserves).",
        why="Models decode such text on sight; encoding hides an instruction from reviewers "
        "and keyword filters, not from the model.",
        fix="Write the text in plain words, or remove it.",
    ),
)


@dataclass(frozen=True, slots=True)
class Reading:
    """What a span of a text says once decoded."""

    encoding: str
    text: str
    start: int
    end: int


_SHOWN = frozenset({"tag characters", "variation selectors", "right-to-left override"})
"""Readings that `S008` (hidden Unicode) reports itself; the others are `S010`'s."""


@lru_cache(maxsize=1 << 15)
def readings(text: str) -> tuple[Reading, ...]:
    """Every decoding of `text`, and of each decoding once more."""
    first = list(_decode(text))
    found = list(first)
    seen = {text, *(r.text for r in first)}
    for reading in first:
        for inner in _decode(reading.text):
            if inner.text not in seen:
                seen.add(inner.text)
                encoding = f"{inner.encoding} inside {reading.encoding}"
                found.append(Reading(encoding, inner.text, reading.start, reading.end))
    return tuple(found)


def check_encoded(site: TextSite) -> Iterator[ScanHit]:
    """S010: the first encoded span, with what it says."""
    for reading in readings(site.text):
        if reading.encoding in _SHOWN:
            continue
        yield ScanHit(
            rule="S010",
            severity=Severity.MEDIUM,
            start=reading.start,
            end=reading.end,
            message=f"{reading.encoding} text decodes to readable text",
            decoded=reading.text,
        )
        return


def _decode(text: str) -> Iterator[Reading]:
    whole = len(text)
    for encoding, message in hidden_messages(text):
        yield Reading(encoding, message, 0, whole)
    for start, end, encoding, decoded in _blobs(text):
        yield Reading(encoding, decoded, start, end)
    for encoding, marker, decode in _ESCAPES:
        unescaped = decode(text) if marker in text else None
        if unescaped is not None:
            yield Reading(encoding, unescaped, 0, whole)
    yield from _turned(text)


# --- base64 and hex ----------------------------------------------------------------------------

_BASE64 = re.compile(r"(?<![\w+/-])[A-Za-z0-9+/_-]{16,}={0,2}(?![\w+/=-])")
_HEX = re.compile(r"(?<![0-9A-Za-z])(?:0x)?(?P<hex>(?:[0-9a-fA-F]{2}){8,})(?![0-9A-Za-z])")
# What each blob must hold, found fast (a pattern that opens with a character class is
# scanned by the engine without trying every position)
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/_-]{16}")
_HEX_RUN = re.compile(r"[0-9a-fA-F]{16}")


def _blobs(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, encoding, decoded text) for each blob that decodes to readable text."""
    found: list[tuple[int, int, str, str]] = []
    if len(text) < 16 or _BASE64_RUN.search(text) is None:
        return found  # every blob, hex or base64, is a run of at least 16 such characters
    for match in _HEX.finditer(text) if _HEX_RUN.search(text) else ():
        decoded = _readable(binascii.unhexlify(match.group("hex")))
        if decoded is not None:
            found.append((match.start(), match.end(), "hex", decoded))
    starts = [s for s, _, _, _ in found]  # in order, and the hex blobs do not overlap
    ends = [e for _, e, _, _ in found]
    for match in _BASE64.finditer(text):
        before = bisect.bisect_right(starts, match.start()) - 1
        if (before >= 0 and match.start() < ends[before]) or not _mixed(match.group(0)):
            continue
        decoded = _from_base64(match.group(0))
        if decoded is not None:
            found.append((match.start(), match.end(), "base64", decoded))
    return sorted(found)


def _mixed(blob: str) -> bool:
    # Identifiers and words are long runs of letters too; real base64 of text mixes
    # cases and digits all through.
    return (
        any(c.isupper() for c in blob)
        and any(c.islower() for c in blob)
        and (any(c.isdigit() for c in blob) or blob.endswith("="))
    )


def _from_base64(blob: str) -> str | None:
    padded = blob.rstrip("=") + "=" * (-len(blob.rstrip("=")) % 4)
    for decode in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            raw = decode(padded)
        except (binascii.Error, ValueError):
            continue
        text = _readable(raw)
        if text is not None:
            return text
    return None


def _readable(raw: bytes | str) -> str | None:
    """Decoded text that is mostly printable, mostly letters, with at least two words."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
    text = raw
    if len(text) < 8:
        return None
    printable = sum(c.isprintable() or c in "\n\t" for c in text)
    letters = sum(c.isalpha() for c in text)
    if printable < 0.95 * len(text) or letters < 0.5 * len(text):
        return None
    return text if len(text.split()) >= 2 or _CJK.search(text) else None


# --- escapes -------------------------------------------------------------------------------------

_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_BACKSLASH = re.compile(r"\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|\\x[0-9a-fA-F]{2}")
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});")


def _url(text: str) -> str | None:
    if len(_PERCENT.findall(text)) < 3:
        return None
    try:
        return _readable(unquote_plus(text, errors="strict"))
    except UnicodeDecodeError:
        return None


def _backslash(text: str) -> str | None:
    if len(_BACKSLASH.findall(text)) < 3:
        return None
    return _readable(_BACKSLASH.sub(_unescape, text))


def _unescape(match: re.Match[str]) -> str:
    code = int(match.group(0)[2:], 16)
    return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else ""


def _entities(text: str) -> str | None:
    if len(_ENTITY.findall(text)) < 3:
        return None
    decoded = html.unescape(text)
    return _readable(decoded) if decoded != text else None


_ESCAPES = (
    ("URL-encoded", "%", _url),
    ("escaped", "\\", _backslash),
    ("HTML entities", "&", _entities),
)

# --- ROT13 and reversed text --------------------------------------------------------------------

# The commonest words of the nine languages (Chinese and Japanese go by the lexicon).
_COMMON = frozenset(
    [
        "the",
        "and",
        "to",
        "of",
        "a",
        "in",
        "is",
        "you",
        "that",
        "it",
        "for",
        "on",
        "with",
        "as",
        "this",
        "be",
        "are",
        "not",
        "all",
        "or",
        "from",
        "by",
        "your",
        "do",
        "at",
        "if",
        "any",
        "each",
        "every",
        "no",
        "never",
        "user",
        "tool",
        "call",
        "send",
        "when",
        "before",
        "after",
        "must",
        "always",
        "please",
        "an",
        "was",
        "were",
        "will",
        "can",
        "has",
        "have",
        "what",
        "which",
        "who",
        "them",
        "they",
        "their",
        "so",
        "but",
        "into",
        "about",
        "only",
        "der",
        "die",
        "das",
        "und",
        "ist",
        "nicht",
        "zu",
        "den",
        "mit",
        "sie",
        "ein",
        "eine",
        "du",
        "dich",
        "dem",
        "alle",
        "auf",
        "von",
        "nie",
        "immer",
        "ich",
        "es",
        "wir",
        "ihr",
        "sind",
        "war",
        "wird",
        "werden",
        "bei",
        "aus",
        "auch",
        "nach",
        "wie",
        "oder",
        "aber",
        "dass",
        "dieses",
        "diese",
        "el",
        "la",
        "de",
        "que",
        "y",
        "en",
        "los",
        "las",
        "por",
        "un",
        "una",
        "para",
        "no",
        "del",
        "al",
        "se",
        "lo",
        "le",
        "su",
        "tu",
        "es",
        "todo",
        "todas",
        "nunca",
        "con",
        "como",
        "mas",
        "pero",
        "sus",
        "este",
        "esta",
        "todos",
        "sin",
        "sobre",
        "le",
        "les",
        "et",
        "est",
        "pas",
        "des",
        "une",
        "pour",
        "il",
        "ne",
        "vous",
        "tu",
        "ce",
        "au",
        "sur",
        "qui",
        "dans",
        "tout",
        "jamais",
        "toutes",
        "tous",
        "avec",
        "mais",
        "plus",
        "son",
        "ses",
        "cette",
        "sont",
        "o",
        "os",
        "e",
        "do",
        "da",
        "em",
        "um",
        "uma",
        "para",
        "com",
        "nao",
        "se",
        "por",
        "voce",
        "nunca",
        "todos",
        "as",
        "dos",
        "das",
        "mais",
        "seu",
        "sua",
        "il",
        "di",
        "che",
        "non",
        "per",
        "una",
        "con",
        "gli",
        "lo",
        "del",
        "della",
        "sei",
        "tutte",
        "mai",
        "sempre",
        "le",
        "della",
        "sono",
        "alla",
        "questo",
        "и",
        "в",
        "не",
        "на",
        "что",
        "с",
        "по",
        "это",
        "все",
        "как",
        "а",
        "к",
        "у",
        "же",
        "от",
        "ты",
        "вы",
        "его",
        "никогда",
        "всегда",
        "для",
        "из",
        "или",
        "но",
        "мы",
    ]
)
_WORDS = re.compile(r"[^\W\d_]{2,}")
_CJK = re.compile("[\u3040-\u30ff\u3400-\u9fff]")


def _common(text: str) -> tuple[int, int]:
    """How many of the text's words are common words, and how many words it has."""
    words = _WORDS.findall(text.casefold())
    return sum(map(_COMMON.__contains__, words)), len(words)


_SEGMENT = re.compile(r"[^.!?;:\n]+")


def _rot13(text: str) -> str:
    return codecs.encode(text, "rot13")


def _reverse(text: str) -> str:
    return text[::-1]


# In ASCII text a word turned is the turned word, in place: the common words turned tell
# how many words of a segment read as common once it is turned, without turning it.
_TURNS = (
    ("ROT13", _rot13, frozenset(map(_rot13, _COMMON))),
    ("reversed", _reverse, frozenset(map(_reverse, _COMMON))),
)


_SHORTEST = 14


def _turned(text: str) -> Iterator[Reading]:
    """ROT13 or reversed sentences: gibberish as written, ordinary words once turned."""
    if not text.isascii() and _CJK.search(text):
        yield from _turned_cjk(text)
        return
    for segment in _SEGMENT.finditer(text):
        part = segment.group(0)
        if len(part) < _SHORTEST and part.isascii():
            continue  # five words of two letters, apart, are fourteen characters at least
        words = _WORDS.findall(part.casefold())
        common, count = sum(map(_COMMON.__contains__, words)), len(words)
        if count < 5 or common > 0.15 * count:
            continue  # too short to judge, or already readable
        for encoding, turn, turned_common in _TURNS:
            if part.isascii():
                found = sum(map(turned_common.__contains__, words))
            else:
                found, _ = _common(turn(part))
            if found >= 2 and found >= 0.25 * count and found >= common + 2:
                yield Reading(encoding, turn(part).strip(), *segment.span())


def _turned_cjk(text: str) -> Iterator[Reading]:
    forward, backward = cjk_words(text), cjk_words(text[::-1])
    if backward >= 2 and backward > 2 * forward:
        yield Reading("reversed", text[::-1], 0, len(text))
