"""Hidden Unicode (decoded where it carries a message) and lookalike letters in words."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from callgate.lint._confusables import mixed_script
from callgate.lint._finding import LintRule, Severity
from callgate.lint._scan_site import ScanHit, TextSite
from callgate.lint._text import is_hidden

__all__ = ["RULES", "check_hidden_unicode", "check_mixed_script", "hidden_messages"]

H, M, L = Severity.HIGH, Severity.MEDIUM, Severity.LOW

RULES = (
    LintRule(
        id="S008",
        name="hidden-unicode",
        kind="scan",
        severity=H,
        summary="Invisible characters: Unicode tag characters (decoded and shown), variation "
        "selectors carrying bytes, bidi overrides, zero-width and other format or "
        "control characters.",
        why="The model reads characters a reviewer cannot see; tag characters and variation "
        "selectors can spell out a whole hidden instruction.",
        fix="Remove the invisible characters; declarations need none.",
    ),
    LintRule(
        id="S009",
        name="homoglyph",
        kind="scan",
        severity=H,
        summary="Lookalike letters from another script inside a name or word (`sеnd_email` "
        "with a Cyrillic `е`).",
        why="A lookalike name impersonates a trusted tool; lookalike letters inside words "
        "dodge keyword filters.",
        fix="Use one script per word; tool and parameter names in plain ASCII.",
    ),
)

_BIDI_OVERRIDES = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_BIDI_MARKS = frozenset("\u200e\u200f\u061c")
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e")
_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _kind(char: str) -> str:
    code = ord(char)
    if 0xE0000 <= code <= 0xE007F:
        return "tag characters"
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return "variation selectors"
    if char in _BIDI_OVERRIDES:
        return "bidi overrides"
    if char in _BIDI_MARKS:
        return "bidi marks"
    if char in _ZERO_WIDTH:
        return "zero-width characters"
    if char == "\u00ad":
        return "soft hyphens"
    category = unicodedata.category(char)
    return {
        "Cc": "control characters",
        "Co": "private-use characters",
        "Cn": "unassigned code points",
    }.get(category, "format characters")


_SEVERITY = {
    "tag characters": H,
    "bidi overrides": H,
    "variation selectors": M,
    "zero-width characters": M,
    "soft hyphens": M,
    "control characters": M,
    "format characters": M,
    "bidi marks": L,
    "private-use characters": L,
    "unassigned code points": L,
}


def check_hidden_unicode(site: TextSite) -> Iterator[ScanHit]:
    """S008: one hit per site naming every kind found, at the first hidden character."""
    text = site.text
    if text.isascii() and not _ASCII_CONTROL.search(text):
        return
    kinds: dict[str, int] = {}
    for index, char in enumerate(text):
        if not is_hidden(char) or _benign(text, index):
            continue
        kinds.setdefault(_kind(char), index)
    if not kinds:
        return
    severity = max(_SEVERITY[k] for k in kinds)
    if len(kinds) >= 3:
        severity = H
    messages = hidden_messages(text)
    if any(kind == "variation selectors" for kind, _ in messages):
        severity = H
    first = min(kinds.values())
    decoded = "; ".join(f"{kind}: {message!r}" for kind, message in messages) or None
    yield ScanHit(
        rule="S008",
        severity=severity,
        start=first,
        end=first + 1,
        message="hidden " + ", ".join(sorted(kinds)),
        decoded=decoded,
    )


def _benign(text: str, index: int) -> bool:
    """A zero-width joiner or emoji variation selector next to a pictograph is emoji
    spelling; a byte-order mark at the very start is an encoding artefact."""
    char = text[index]
    if char == "\ufeff" and index == 0:
        return True
    if char in "\u200d\ufe0e\ufe0f":
        before = text[index - 1] if index else ""
        return bool(before) and unicodedata.category(before) == "So"
    return False


def hidden_messages(text: str) -> list[tuple[str, str]]:
    """Text carried by invisible characters: tag characters, variation-selector bytes, and
    the visible order of right-to-left overridden runs."""
    out: list[tuple[str, str]] = []
    if text.isascii():
        return out
    tags = "".join(chr(ord(c) - 0xE0000) for c in text if 0xE0020 <= ord(c) <= 0xE007E)
    if tags.strip():
        out.append(("tag characters", tags))
    data = bytes(b for b in map(_selector_byte, text) if b is not None)
    if len(data) >= 4:
        decoded = data.decode("utf-8", errors="replace")
        if sum(ch.isprintable() for ch in decoded) >= 0.8 * len(decoded):
            out.append(("variation selectors", decoded))
    for run in re.finditer("\u202e([^\u202c\u2069]*)", text):
        if run.group(1).strip():
            out.append(("right-to-left override", run.group(1)[::-1]))
    return out


def _selector_byte(char: str) -> int | None:
    code = ord(char)
    if 0xFE00 <= code <= 0xFE0F:
        return code - 0xFE00
    if 0xE0100 <= code <= 0xE01EF:
        return code - 0xE0100 + 16
    return None


def check_mixed_script(site: TextSite) -> Iterator[ScanHit]:
    """S009 in prose: a word that mixes Latin with Cyrillic or Greek lookalikes."""
    if site.field in ("name", "property") or site.text.isascii():
        return  # names are judged against the whole catalog (see _scan_shadow)
    for match in _WORD.finditer(site.text):
        if mixed_script(match.group(0)):
            yield ScanHit(
                rule="S009",
                severity=M,
                start=match.start(),
                end=match.end(),
                message=f"word {match.group(0)!r} mixes scripts with lookalike letters",
            )
            return
