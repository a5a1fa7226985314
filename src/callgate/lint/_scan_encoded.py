"""Base64 and hex blobs that decode to readable text, shown decoded."""

from __future__ import annotations

import base64
import binascii
import bisect
import re
from collections.abc import Iterator

from callgate.lint._finding import LintRule, Severity
from callgate.lint._scan_site import ScanHit, TextSite

__all__ = ["RULES", "check_encoded", "decode_blobs"]

RULES = (
    LintRule(
        id="S010",
        name="encoded-blob",
        kind="scan",
        severity=Severity.MEDIUM,
        summary="A base64 or hex blob that decodes to readable text (shown decoded, and "
        "scanned again: an instruction inside raises the finding it deserves).",
        why="Models decode base64 and hex on sight; encoding hides an instruction from "
        "reviewers and keyword filters, not from the model.",
        fix="Write the text in plain words, or remove it.",
    ),
)

_BASE64 = re.compile(r"(?<![\w+/-])[A-Za-z0-9+/_-]{16,}={0,2}(?![\w+/=-])")
_HEX = re.compile(r"(?<![0-9A-Za-z])(?:0x)?(?P<hex>(?:[0-9a-fA-F]{2}){8,})(?![0-9A-Za-z])")


def decode_blobs(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, encoding, decoded text) for each blob that decodes to readable text."""
    found: list[tuple[int, int, str, str]] = []
    for match in _HEX.finditer(text):
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


def check_encoded(site: TextSite) -> Iterator[ScanHit]:
    for start, end, encoding, decoded in decode_blobs(site.text):
        yield ScanHit(
            rule="S010",
            severity=Severity.MEDIUM,
            start=start,
            end=end,
            message=f"{encoding} blob decodes to text",
            decoded=decoded,
        )
        return


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


def _readable(raw: bytes) -> str | None:
    """Decoded bytes that are mostly printable UTF-8 with at least two words."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 8:
        return None
    printable = sum(c.isprintable() or c in "\n\t" for c in text)
    letters = sum(c.isalpha() for c in text)
    if printable < 0.95 * len(text) or letters < 0.5 * len(text):
        return None
    return text if len(text.split()) >= 2 else None
