"""Pins: a lockfile of tool fingerprints, and what changed since it was written.

A pin holds the fingerprint of the whole contract (`Tool.fingerprint` when the declaration
makes a `Tool`), a hash of each part, and the contract itself, so a change can be shown:
which part moved, the schema changes, and any poisoning the new text brings. The gateway
quarantines the tools in `PinReport.quarantine`.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from callgate._errors import UserError
from callgate.lint._diff import compare_schemas
from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, LintRule, Location, Severity
from callgate.lint._load import CatalogSource, LoadedCatalog, load_catalog, read_json
from callgate.lint._walk import unreadable
from callgate.schema import content_hash

__all__ = [
    "RULES",
    "Lockfile",
    "PinChange",
    "PinReport",
    "PinnedTool",
    "check_pins",
    "pin_catalog",
    "pin_findings",
    "pin_key",
]

LOCK_VERSION = 1
_MATCH_BUDGET = 4_000_000
"""Word pairs the description matcher may compare (2,000 x 2,000 words)."""

RULES = (
    LintRule(
        id="X001",
        name="pin-new",
        kind="pin",
        severity=Severity.MEDIUM,
        summary="A tool that the lockfile does not pin.",
        why="An unreviewed tool reached the catalog.",
        fix="Review it, then run `callgate pin` again.",
    ),
    LintRule(
        id="X002",
        name="pin-removed",
        kind="pin",
        severity=Severity.LOW,
        summary="A pinned tool is gone.",
        why="Callers and prompts that rely on it will fail.",
        fix="Confirm the removal, then run `callgate pin` again.",
    ),
    LintRule(
        id="X003",
        name="pin-changed",
        kind="pin",
        severity=Severity.HIGH,
        summary="A pinned tool changed (rug pull): fingerprint differs; the finding says "
        "which parts and how.",
        why="A server can change a tool after it was approved; the model reads the new text "
        "at once.",
        fix="Review the change; re-pin only if it is intended.",
    ),
)


@dataclass(frozen=True, kw_only=True, slots=True)
class PinnedTool:
    """The pinned state of one tool."""

    key: str
    """`server/name`, or `name` when the source has no servers."""
    fingerprint: str
    parts: Mapping[str, str]
    """sha256 per contract part (`description`, `input_schema`, ...)."""
    contract: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True, slots=True)
class Lockfile:
    """Pins by key, written as JSON with sorted keys."""

    pins: Mapping[str, PinnedTool]
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": LOCK_VERSION,
            "generator": "callgate",
            "source": self.source,
            "tools": {
                k: {
                    "fingerprint": p.fingerprint,
                    "parts": dict(p.parts),
                    "contract": dict(p.contract),
                }
                for k, p in sorted(self.pins.items())
            },
        }

    @classmethod
    def from_dict(cls, data: Any) -> Lockfile:
        """The lockfile `data` holds; `UserError` naming what is wrong when it is not one."""
        if not isinstance(data, Mapping) or data.get("version") != LOCK_VERSION:
            raise UserError(f"not a callgate lockfile (version {LOCK_VERSION})")
        tools = data.get("tools")
        if not isinstance(tools, Mapping):
            raise UserError("not a callgate lockfile: 'tools' must be an object")
        problems = unreadable(tools, "/tools")
        if problems:
            pointer, reason = problems[0]
            raise UserError(f"lockfile cannot be read at {pointer}: {reason}")
        return cls(
            pins={key: _pin(key, value) for key, value in tools.items()},
            source=str(data.get("source", "")),
        )

    def dump(self, path: str | os.PathLike[str]) -> None:
        try:
            with open(path, "w", encoding="utf-8") as out:
                json.dump(self.to_dict(), out, indent=2, sort_keys=True, ensure_ascii=False)
                out.write("\n")
        except OSError as exc:
            raise UserError(f"cannot write lockfile {os.fspath(path)!r}: {exc}") from exc

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Lockfile:
        """The lockfile at `path` (what `callgate pin` writes); a `UserError` naming the
        file when it cannot be read as JSON (`read_json`'s bounds) or is not a lockfile."""
        where = os.fspath(path)
        try:
            data = read_json(path)
        except UserError as exc:
            raise UserError(f"cannot read lockfile: {exc}") from exc
        try:
            return cls.from_dict(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise UserError(
                f"{where}: not a callgate lockfile ({type(exc).__name__}: {exc})"
            ) from exc
        except UserError as exc:
            raise UserError(f"{where}: {exc}") from exc


def _pin(key: str, value: Any) -> PinnedTool:
    if not isinstance(value, Mapping) or not isinstance(value.get("fingerprint"), str):
        raise UserError(f"lockfile entry {key!r} has no 'fingerprint'")
    parts, contract = value.get("parts", {}), value.get("contract", {})
    if not isinstance(parts, Mapping) or not all(isinstance(v, str) for v in parts.values()):
        raise UserError(f"lockfile entry {key!r}: 'parts' must map parts to hashes")
    if not isinstance(contract, Mapping):
        raise UserError(f"lockfile entry {key!r}: 'contract' must be an object")
    return PinnedTool(
        key=key, fingerprint=value["fingerprint"], parts=dict(parts), contract=dict(contract)
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class PinChange:
    """A pinned tool whose fingerprint changed."""

    key: str
    old_fingerprint: str
    new_fingerprint: str
    parts: tuple[str, ...]
    """Contract parts that differ (`description`, `input_schema`, `annotations`, ...)."""
    details: tuple[str, ...]
    """Readable lines: text added, schema changes."""


@dataclass(frozen=True, kw_only=True, slots=True)
class PinReport:
    new: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[PinChange, ...]
    unreadable: tuple[str, ...] = ()
    """Keys (or `#pointer` positions) of declarations that cannot be read, pinned or not."""

    @property
    def ok(self) -> bool:
        return not (self.new or self.removed or self.changed or self.unreadable)

    @property
    def quarantine(self) -> frozenset[str]:
        """Keys of tools to hold back until a human re-pins them: changed, new and
        unreadable ones."""
        return frozenset(c.key for c in self.changed) | frozenset(self.new) | set(self.unreadable)


def pin_key(entry: ToolEntry) -> str:
    return f"{entry.group}/{entry.name}" if entry.group else entry.name


def contract_of(entry: ToolEntry) -> tuple[str, dict[str, Any]]:
    """(fingerprint, contract); the `Tool`'s own when the declaration makes one."""
    if entry.tool is not None:
        return entry.tool.fingerprint, entry.tool.contract()
    contract = {
        "name": entry.name,
        "description": entry.description,
        "input_schema": entry.input_schema,
        "output_schema": entry.declaration.output_schema,
        "annotations": entry.declaration.annotations.to_mcp(),
        "effect": None,
        "version": entry.version,
    }
    return content_hash(contract), contract


def pin_catalog(source: CatalogSource) -> Lockfile:
    """A lockfile pinning every tool of `source`; `UserError` when a declaration cannot be
    read (a lockfile never leaves a tool out without saying so)."""
    catalog = load_catalog(source)
    unread = _unreadable(catalog)
    if unread:
        shown = "; ".join(f"{key} ({reason})" for key, reason in list(unread.items())[:5])
        more = f" and {len(unread) - 5} more" if len(unread) > 5 else ""
        raise UserError(
            f"cannot pin {catalog.source}: {len(unread)} declarations cannot be read: {shown}{more}"
        )
    return Lockfile(pins=_pins(catalog), source=catalog.source)


def _pins(catalog: LoadedCatalog) -> dict[str, PinnedTool]:
    pins: dict[str, PinnedTool] = {}
    for entry in catalog.entries:
        if not entry.readable:
            continue
        fingerprint, contract = contract_of(entry)
        parts = {k: content_hash(v) for k, v in contract.items()}
        pins[pin_key(entry)] = PinnedTool(
            key=pin_key(entry),
            fingerprint=fingerprint,
            parts=parts,
            contract=json.loads(json.dumps(contract, default=str)),
        )
    return pins


def _unreadable(catalog: LoadedCatalog) -> dict[str, str]:
    """Key (or `#pointer`) -> the first reason, for each declaration that cannot be read."""
    found = {pin_key(e): e.unreadable[0][1] for e in catalog.entries if not e.readable}
    for problem in catalog.problems:
        found.setdefault(f"#{problem.location.source_pointer or ''}", problem.message)
    return found


def check_pins(lockfile: Lockfile, source: CatalogSource) -> PinReport:
    """New, removed, changed and unreadable tools of `source` against `lockfile`."""
    catalog = load_catalog(source)
    current = _pins(catalog)
    unread = _unreadable(catalog)
    changed = tuple(
        _change(lockfile.pins[k], current[k])
        for k in sorted(current)
        if k in lockfile.pins and lockfile.pins[k].fingerprint != current[k].fingerprint
    )
    return PinReport(
        new=tuple(sorted(k for k in current if k not in lockfile.pins)),
        removed=tuple(sorted(k for k in lockfile.pins if k not in current and k not in unread)),
        changed=changed,
        unreadable=tuple(sorted(unread)),
    )


def _change(old: PinnedTool, new: PinnedTool) -> PinChange:
    parts = tuple(
        sorted(k for k in set(old.parts) | set(new.parts) if old.parts.get(k) != new.parts.get(k))
    )
    return PinChange(
        key=old.key,
        old_fingerprint=old.fingerprint,
        new_fingerprint=new.fingerprint,
        parts=parts,
        details=tuple(_details(old.contract, new.contract, parts)),
    )


def _details(
    old: Mapping[str, Any], new: Mapping[str, Any], parts: tuple[str, ...]
) -> Iterator[str]:
    if "description" in parts:
        added = _added_text(str(old.get("description") or ""), str(new.get("description") or ""))
        yield f"description: added {added!r}" if added else "description: text removed"
    for part in ("input_schema", "output_schema"):
        a, b = old.get(part), new.get(part)
        if part in parts and isinstance(a, Mapping) and isinstance(b, Mapping):
            for change in compare_schemas(a, b, tool=str(new.get("name", ""))):
                yield f"{part}{change.pointer}: {change.message} ({change.kind})"
        elif part in parts:
            yield f"{part}: {'added' if a is None else 'removed' if b is None else 'changed'}"
    for part in parts:
        if part not in ("description", "input_schema", "output_schema"):
            yield f"{part}: {old.get(part)!r} -> {new.get(part)!r}"


def _added_text(old: str, new: str) -> str:
    """The words `new` adds to `old`; runs split by one or two kept words are joined, so
    an inserted sentence reads as one."""
    before, after = old.split(), new.split()
    # Trim what both share at the ends; the matcher is quadratic on what is left, so a
    # long rewrite is shown whole rather than matched word by word.
    head = 0
    while head < min(len(before), len(after)) and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < min(len(before), len(after)) - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    middle_old, middle_new = before[head : len(before) - tail], after[head : len(after) - tail]
    if len(middle_old) * len(middle_new) > _MATCH_BUDGET:
        opcodes = [("replace", 0, 0, head, len(after) - tail)]
    else:
        matcher = difflib.SequenceMatcher(a=middle_old, b=middle_new, autojunk=False)
        opcodes = [
            (op, i1, i2, j1 + head, j2 + head) for op, i1, i2, j1, j2 in matcher.get_opcodes()
        ]
    runs: list[list[int]] = []
    for op, _, _, j1, j2 in opcodes:
        if op not in ("insert", "replace"):
            continue
        if runs and runs[-1][1] >= j1 - 2:  # at most two kept words since the last run
            runs[-1][1] = j2
        else:
            runs.append([j1, j2])
    text = " … ".join(" ".join(after[a:b]) for a, b in runs)
    return text if len(text) <= 300 else text[:297] + "..."


def pin_findings(
    report: PinReport, catalog: LoadedCatalog, lockfile: Lockfile
) -> Iterator[Finding]:
    """The pin report as findings (X001-X003), located at the tools they concern."""
    entries = {pin_key(e): e for e in catalog.entries}
    for key in report.new:
        yield Finding(
            rule="X001",
            severity=Severity.MEDIUM,
            location=entries[key].location(),
            message=f"{key!r} is not pinned",
            hint=RULES[0].fix,
        )
    for key in report.removed:
        name = key.rsplit("/", 1)[-1]
        group = key.rsplit("/", 1)[0] if "/" in key else None
        yield Finding(
            rule="X002",
            severity=Severity.LOW,
            location=Location(tool=name, group=group, source=lockfile.source),
            message=f"pinned tool {key!r} is gone",
            hint=RULES[1].fix,
        )
    for key in report.unreadable:
        entry = entries.get(key)
        pinned = key in lockfile.pins
        yield Finding(
            rule="X003" if pinned else "X001",
            severity=Severity.HIGH if pinned else Severity.MEDIUM,
            location=entry.location() if entry else Location(tool=key, source=catalog.source),
            message=f"{key!r} {'changed since it was pinned' if pinned else 'is not pinned'}: "
            "its declaration cannot be read",
            hint=RULES[2 if pinned else 0].fix,
        )
    for change in report.changed:
        yield Finding(
            rule="X003",
            severity=Severity.HIGH,
            location=entries[change.key].location(),
            message=f"{change.key!r} changed since it was pinned: {', '.join(change.parts)}",
            evidence="; ".join(change.details)[:600] or None,
            hint=RULES[2].fix,
        )
