"""`scan`: poisoning detection over every string a model reads, at any depth.

Every string of each declaration as written is checked by where it sits (`_walk`): name,
title, description, and inside the schemas descriptions, titles, enum values, defaults,
examples and property names. Text hidden in tag characters, variation selectors,
right-to-left overrides, base64, hex, URL-encoding, escapes, entities, ROT13 or reversed
is decoded and checked again; findings on it say where it was hidden and show it decoded.
The same text engine screens tool results (`scan_result`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import lru_cache
from typing import Any

from callgate._errors import UserError
from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, Location, Severity
from callgate.lint._load import CatalogSource, load_catalog
from callgate.lint._pins import Lockfile, check_pins, pin_findings
from callgate.lint._registry import RULES, selection
from callgate.lint._report import Report, finish
from callgate.lint._scan_actions import check_actions
from callgate.lint._scan_directives import check_directives
from callgate.lint._scan_encoded import check_encoded, readings
from callgate.lint._scan_files import (
    check_commands,
    check_secret_literals,
    check_sensitive_files,
    own_purpose,
)
from callgate.lint._scan_links import check_beacons, check_links
from callgate.lint._scan_markup import check_length, check_markup, check_tags
from callgate.lint._scan_overlap import check_overlap
from callgate.lint._scan_shadow import NameIndex, check_names, name_key, parameters
from callgate.lint._scan_site import ScanHit, TextCheck, TextSite
from callgate.lint._scan_suppress import check_self_suppression
from callgate.lint._scan_unicode import check_hidden_unicode, check_mixed_script
from callgate.lint._text import is_hidden
from callgate.lint._unreadable import unreadable_findings
from callgate.lint._walk import iter_strings, unreadable
from callgate.lint._words import name_tokens

__all__ = ["scan", "scan_result", "scan_text"]

_CHECKS: tuple[TextCheck, ...] = (
    check_tags,
    check_directives,
    check_sensitive_files,
    check_secret_literals,
    check_commands,
    check_links,
    check_beacons,
    check_hidden_unicode,
    check_mixed_script,
    check_encoded,
    check_markup,
    check_length,
)
# Decoded text is read for what it says; its own encoding was already reported.
_DECODED_CHECKS: tuple[TextCheck, ...] = (
    check_tags,
    check_directives,
    check_sensitive_files,
    check_secret_literals,
    check_commands,
    check_links,
    check_beacons,
    check_mixed_script,
)
# A tool result is long, linked and free-form by nature: length and link placement are
# not evidence there.
_RESULT_CHECKS = tuple(c for c in _CHECKS if c not in (check_length,))
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
    parameter_names = frozenset(name_key(p) for e in readable for p in parameters(e))
    findings = list(unreadable_findings(catalog.entries, catalog.problems, rule="S017"))
    # An unreadable declaration is still scanned as far as it can be read: a host may
    # send its text to a model all the same.
    for entry in catalog.entries:
        sites = list(_sites(entry))
        for site in sites:
            hits = _hits(site.text, site.field, _CHECKS) if site.decoded_from is None else ()
            if hits:  # most sites have none: nothing to judge for this tool
                findings.extend(_finding(entry, site, hit) for hit in _as_seen(entry, site, hits))
        for site, hit in check_actions(entry, sites, index, parameter_names):
            findings.append(_finding(entry, site, hit))
        findings.extend(check_self_suppression(entry))
    findings.extend(check_names(readable))
    findings.extend(check_overlap(readable))
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
    """Every text check on one string, and on what it hides once decoded; hits on hidden
    text span the encoded part and carry the decoded text."""
    return list(_hits(text, field, _CHECKS))


def scan_result(content: Any, *, tool: str = "") -> tuple[Finding, ...]:
    """Screen a tool result before a model reads it: injection, secrecy, exfiltration and
    override directives in nine languages, pseudo-system markup, hidden and encoded text,
    dangerous commands and suspicious links.

    `content` is the result text, or its JSON value (`structuredContent`): every key and
    string is read, and each finding's pointer says where. `tool` names the tool that
    returned it, for the findings' locations. A part that cannot be read (not JSON, nested
    deeper than 256 levels, beyond 100,000 values) is a high S017 finding: what the screen
    did not read it cannot clear. Cost grows with the text's length, about 1 ms of CPU per
    1,000 characters on a loaded machine (`benchmarks/scan_benchmark.py`).
    """
    findings = [
        Finding(
            rule="S017",
            severity=Severity.HIGH,
            message=f"cannot be read: {reason}",
            location=Location(tool=tool, pointer=pointer),
            hint="Return plain JSON or text; the part was not screened.",
        )
        for pointer, reason in unreadable(content)
    ]
    for pointer, text in _result_strings(content):
        for hit in _hits(text, "result", _RESULT_CHECKS):
            location = Location(tool=tool, pointer=pointer)
            findings.append(_make(location, text, hit))
    return tuple(sorted(findings, key=lambda f: (-f.severity, f.location.pointer, f.rule)))


def _result_strings(content: Any) -> Iterator[tuple[str, str]]:
    if isinstance(content, str):
        yield "", content
        return
    for site in iter_strings({"default": content}):
        yield site.pointer.removeprefix("/default"), site.text


def _sites(entry: ToolEntry) -> Iterator[TextSite]:
    for found in iter_strings(entry.raw):
        yield found
        for reading in readings(found.text):
            yield TextSite(
                text=reading.text,
                field=found.field,
                pointer=found.pointer,
                decoded_from=reading.encoding,
            )


def _as_seen(entry: ToolEntry, site: TextSite, hits: Iterable[ScanHit]) -> Iterator[ScanHit]:
    """The site's hits, as seen for this tool: a secret a tool or the parameter described
    is named after (`ssh_authorized_keys_add`, `secret_key`) is what it works on, not what
    it steals."""
    named = (entry.name, _property(site.pointer))
    for hit in hits:
        if hit.rule == "S004" and hit.target and any(own_purpose(n, hit, site.text) for n in named):
            hit = replace(
                hit, severity=Severity.LOW, message=f"{hit.message}, which the tool is named for"
            )
        elif (
            hit.rule in ("S002", "S005")
            and hit.severity >= Severity.HIGH
            and site.field == "description"
            and _field_for(named[1], site.text[hit.start : hit.end])
        ):
            hit = replace(
                hit, severity=Severity.MEDIUM, message=f"{hit.message}, in the field named for it"
            )
        yield hit


# What a parameter may be named for and still be asked to carry: `system_prompt` of a tool
# that calls a model, `api_key` of a client. Medium, not low: a field so named can be an
# exfiltration channel too.
_CARRIED = frozenset({"prompt", "instruction", "instructions", "key", "token", "password"})


def _field_for(prop: str, span: str) -> bool:
    words = set(name_tokens(prop)) & _CARRIED
    return bool(words) and any(w in span.lower() for w in words)


# Catalogs repeat their strings (parameter names, stock descriptions): each distinct string
# is read and checked once per process, whatever the number of tools that carry it.
@lru_cache(maxsize=1 << 16)
def _hits(text: str, field: str, checks: tuple[TextCheck, ...]) -> tuple[ScanHit, ...]:
    site = TextSite(text=text, field=field, pointer="")
    found = [hit for check in checks for hit in check(site)]
    for reading in readings(text):
        decoded = TextSite(
            text=reading.text, field=field, pointer="", decoded_from=reading.encoding
        )
        for check in _DECODED_CHECKS:
            for hit in check(decoded):
                found.append(
                    replace(
                        hit,
                        start=reading.start,
                        end=reading.end,
                        message=f"{hit.message} (hidden as {reading.encoding})",
                        decoded=hit.decoded or reading.text,
                    )
                )
    return tuple(found)


def _property(pointer: str) -> str:
    """The name of the property a pointer describes (`.../properties/secret_key/description`)."""
    if "/properties/" not in pointer:
        return ""
    return pointer.rpartition("/properties/")[2].split("/", 1)[0]


def _finding(entry: ToolEntry, site: TextSite, hit: ScanHit) -> Finding:
    return _make(entry.location(site.pointer), site.text, hit)


def _make(location: Location, text: str, hit: ScanHit) -> Finding:
    return Finding(
        rule=hit.rule,
        severity=hit.severity,
        message=hit.message,
        location=location,
        hint=hit.hint or RULES[hit.rule].fix,
        evidence=_visible(text[hit.start : hit.end]),
        decoded=hit.decoded,
    )


def _visible(text: str) -> str:
    """The span as written, invisible characters spelled out, cut to a readable length."""
    shown = "".join(f"<U+{ord(c):04X}>" if is_hidden(c) else c for c in text)
    return shown if len(shown) <= _EVIDENCE else shown[: _EVIDENCE - 3] + "..."
