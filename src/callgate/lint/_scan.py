"""`scan`: poisoning detection over every string a model reads, at any depth.

Every string of each declaration as written is checked: name, title, description, and
inside the schemas descriptions, titles, enum values, defaults, examples and property
names. Text hidden in tag characters, variation selectors, right-to-left overrides,
base64 or hex is decoded and checked again; findings on it say where it was hidden.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from functools import lru_cache

from callgate._errors import UserError
from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding
from callgate.lint._load import CatalogSource, load_catalog
from callgate.lint._pins import Lockfile, check_pins, pin_findings
from callgate.lint._registry import RULES, selection
from callgate.lint._report import Report, finish
from callgate.lint._scan_encoded import check_encoded, decode_blobs
from callgate.lint._scan_files import check_commands, check_secret_literals, check_sensitive_files
from callgate.lint._scan_links import check_links
from callgate.lint._scan_markup import check_length, check_markup, check_tags
from callgate.lint._scan_phrases import check_phrases
from callgate.lint._scan_shadow import NameIndex, check_names, check_shadowing
from callgate.lint._scan_site import ScanHit, TextCheck, TextSite
from callgate.lint._scan_suppress import check_self_suppression
from callgate.lint._scan_unicode import check_hidden_unicode, check_mixed_script, hidden_messages
from callgate.lint._text import is_hidden
from callgate.lint._unreadable import unreadable_findings
from callgate.lint._walk import iter_strings

__all__ = ["scan", "scan_text"]

_CHECKS: tuple[TextCheck, ...] = (
    check_tags,
    check_phrases,
    check_sensitive_files,
    check_secret_literals,
    check_commands,
    check_links,
    check_hidden_unicode,
    check_mixed_script,
    check_encoded,
    check_markup,
    check_length,
)
# Decoded text is read for what it says; its own encoding was already reported.
_DECODED_CHECKS: tuple[TextCheck, ...] = (
    check_tags,
    check_phrases,
    check_sensitive_files,
    check_secret_literals,
    check_commands,
    check_links,
    check_mixed_script,
)
_EVIDENCE = 160


def scan(
    source: CatalogSource,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    pins: Lockfile | str | os.PathLike[str] | None = None,
    trust_inline: bool = False,
) -> Report:
    """Scan every tool of `source` for poisoning; with `pins`, also report tools that are
    new, removed or changed since the lockfile was written.

    Inline suppressions apply to tools from the developer's own code; for declarations
    read from files they apply only with `trust_inline=True`, because a poisoned server
    could ship its own.
    """
    enabled = selection(select, ignore)
    catalog = load_catalog(source)
    readable = [e for e in catalog.entries if e.readable]
    index = NameIndex(readable)
    findings = list(unreadable_findings(catalog.entries, catalog.problems, rule="S017"))
    # An unreadable declaration is still scanned as far as it can be read: a host may
    # send its text to a model all the same.
    for entry in catalog.entries:
        sites = list(_sites(entry))
        for site in sites:
            hits = _hits(site.text, site.field, decoded=site.decoded_from is not None)
            findings.extend(_finding(entry, site, hit) for hit in hits)
        for site, start, end, severity, message in check_shadowing(entry, sites, index):
            findings.append(
                _finding(
                    entry,
                    site,
                    ScanHit(rule="S011", severity=severity, message=message, start=start, end=end),
                )
            )
        findings.extend(check_self_suppression(entry))
    findings.extend(check_names(readable))
    if pins is not None:
        if not isinstance(pins, Lockfile | str | os.PathLike):
            raise UserError(f"pins must be a Lockfile or a path, got {type(pins).__name__}")
        lockfile = pins if isinstance(pins, Lockfile) else Lockfile.load(pins)
        findings.extend(pin_findings(check_pins(lockfile, catalog), catalog, lockfile))
    return finish(
        "scan",
        catalog.source,
        catalog.entries,
        findings,
        enabled=enabled,
        why={r.id: r.why for r in RULES.values()},
        honour=lambda e: trust_inline or e.trusted,
    )


def scan_text(text: str, *, field: str = "description") -> list[ScanHit]:
    """The text checks alone, on one string (for hosts screening single descriptions)."""
    site = TextSite(text=text, field=field, pointer="", tool="")
    return [hit for check in _CHECKS for hit in check(site)]


def _sites(entry: ToolEntry) -> Iterator[TextSite]:
    for found in iter_strings(entry.raw):
        for decoded_from, text in _readings(found.text):
            yield TextSite(
                text=text,
                field=found.field,
                pointer=found.pointer,
                tool=entry.name,
                decoded_from=decoded_from,
            )


# Catalogs repeat their strings (parameter names, stock descriptions): each distinct string
# is read and checked once per process, whatever the number of tools that carry it.
@lru_cache(maxsize=1 << 16)
def _readings(text: str) -> tuple[tuple[str | None, str], ...]:
    """The text as written, then what it hides: tag characters, selectors, base64, hex."""
    hidden = [(kind, message) for kind, message in hidden_messages(text)]
    encoded = [(encoding, decoded) for _, _, encoding, decoded in decode_blobs(text)]
    return ((None, text), *hidden, *encoded)


@lru_cache(maxsize=1 << 16)
def _hits(text: str, field: str, *, decoded: bool) -> tuple[ScanHit, ...]:
    site = TextSite(text=text, field=field, pointer="", tool="")
    return tuple(hit for check in (_DECODED_CHECKS if decoded else _CHECKS) for hit in check(site))


def _finding(entry: ToolEntry, site: TextSite, hit: ScanHit) -> Finding:
    span = site.text[hit.start : hit.end]
    message = hit.message
    decoded = hit.decoded
    if site.decoded_from:
        message = f"{message} (hidden as {site.decoded_from})"
        decoded = decoded or site.text
    return Finding(
        rule=hit.rule,
        severity=hit.severity,
        message=message,
        location=entry.location(site.pointer),
        hint=hit.hint or RULES[hit.rule].fix,
        evidence=_visible(span),
        decoded=decoded,
    )


def _visible(text: str) -> str:
    """The span as written, invisible characters spelled out, cut to a readable length."""
    shown = "".join(f"<U+{ord(c):04X}>" if is_hidden(c) else c for c in text)
    return shown if len(shown) <= _EVIDENCE else shown[: _EVIDENCE - 3] + "..."
