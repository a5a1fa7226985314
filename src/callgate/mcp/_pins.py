"""Pins of upstream tools, and the quarantine of tools that changed or look poisoned.

A tool is pinned by the fingerprint of the callgate `Tool` the gateway offers for it
(`Tool.fingerprint`: public name, description, schemas, annotations normalised to the
spec's defaults, effect, version), the same fingerprint every receipt of a call to it
records. On first sight a tool is scanned; a clean one is pinned at once (trust on first
use), one with a high finding waits for a person. Later sightings compare fingerprints:
the same one is the same tool; any other is quarantined until approved, except

- a change of callgate's own settings alone (a prefix, an effect override): the pinned
  declaration rebuilt under today's settings has the fingerprint seen now, so the upstream
  did not change and the tool is pinned again at once (`settings`);
- a change of annotations alone that only makes the gate more careful (a tool that stops
  claiming to be read-only), pinned again at once (`narrowed-annotations`).

Each pin is one row of `store.pins` (source `mcp:SERVER`, the upstream name): the approved
fingerprint and contract and, while a sighting differs, the observed contract, the reasons,
the diff, the findings and who decided, so `callgate pins show` in another process can show
it all. Rows are written against the version read: a process that judged a tool from a
stale row judges it again rather than overwrite a decision made meanwhile.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from callgate._errors import UserError
from callgate.contract import Tool
from callgate.lint import (
    Finding,
    LoadedCatalog,
    Lockfile,
    PinnedTool,
    Severity,
    check_pins,
    entry_from_tool,
    pin_catalog,
)
from callgate.mcp._declaration import widened
from callgate.store import Pin, Store, StoreConflict

__all__ = ["PinBook", "Quarantined", "Sighting", "Verdict", "pin_source"]

_ATTEMPTS = 5
"""Judgements of one sighting at most, when other processes keep writing its pin."""


def pin_source(server: str) -> str:
    return f"mcp:{server}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Verdict:
    allowed: bool
    reasons: tuple[str, ...] = ()
    """Why the tool is held back (empty when allowed)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Quarantined:
    """A tool (or a prompt, resource or template) held back, and why."""

    name: str
    """The public name it would have (a resource's or template's: its upstream URI)."""
    server: str
    tool: str
    """Its pin's name: the upstream tool name, or a resource's, template's or prompt's
    key (`resource:URI`, `template:TEMPLATE`, `prompt:NAME`)."""
    reasons: tuple[str, ...]
    fingerprint: str | None = None
    """The contract a person could approve (None when approving would not help)."""
    offered: Tool | None = None
    """The tool it would be, with no executor: what a refusal's receipt names."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Sighting:
    """One upstream tool as its server lists it now."""

    server: str
    tool: str
    """The upstream name."""
    declaration: Mapping[str, Any]
    """The normalised MCP declaration (`callgate.mcp.declaration`)."""
    offered: Tool
    """The `Tool` the gateway offers for it under today's settings."""
    rebuilt: Callable[[Mapping[str, Any]], str | None]
    """The fingerprint another declaration of this tool gets under today's settings (None
    when it makes no tool)."""
    findings: tuple[Finding, ...] = ()


class PinBook:
    """Pins and reviews of upstream tools in one store (synchronous: call from a thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def assess(self, seen: Sighting) -> Verdict:
        """Pin or quarantine one tool as seen now."""
        source = pin_source(seen.server)
        for _ in range(_ATTEMPTS):
            pin = self.store.pins.get(source, seen.tool)
            new, verdict = _judge(pin, seen)
            if new is None or (pin is not None and _unchanged(pin, new)):
                return verdict
            try:
                self.store.pins.save(new, expected_version=pin.version if pin else None)
            except StoreConflict:  # another process wrote it meanwhile: judge again
                continue
            return verdict
        return Verdict(
            allowed=False,
            reasons=("its pin kept changing while it was checked; it is checked again soon",),
        )

    def pinned(self, server: str, tool: str, fingerprint: str) -> bool:
        """Whether `fingerprint` is the approved contract of the tool."""
        pin = self.store.pins.get(pin_source(server), tool)
        return pin is not None and not pin.held and pin.fingerprint == fingerprint

    def approve(self, server: str, tool: str, *, by: str, fingerprint: str | None = None) -> Pin:
        """Pin the observed contract of a quarantined tool; `fingerprint`, when given, must
        be (the start of) the one shown to the person: the tool may have changed since."""
        pin = self._require(server, tool)
        observed = pin.observed_fingerprint
        if not pin.held or observed is None:
            raise UserError(f"{server}/{tool} is not waiting for approval")
        if fingerprint is not None and not observed.startswith(fingerprint.lower()):
            raise UserError(
                f"{server}/{tool} changed again since: its fingerprint is now "
                f"{observed[:16]}; look at it again with `callgate pins show`"
            )
        approved = dataclasses.replace(
            _cleared(pin),
            fingerprint=observed,
            pinned=pin.observed,
            pinned_by=by,
            pinned_at=time.time(),
            decided_by=by,
        )
        return self._decide(pin, approved)

    def reject(self, server: str, tool: str, *, by: str) -> Pin:
        """Keep the observed contract quarantined for good (until it changes again)."""
        pin = self._require(server, tool)
        if not pin.held:
            raise UserError(f"{server}/{tool} is pinned; nothing waits for a decision")
        others = [r for r in pin.reasons if not r.startswith("rejected by ")]
        rejected = dataclasses.replace(
            pin, state="rejected", decided_by=by, reasons=(f"rejected by {by}", *others)
        )
        return self._decide(pin, rejected)

    def review(self, server: str, tool: str) -> Pin | None:
        return self.store.pins.get(pin_source(server), tool)

    def reviews(self) -> list[Pin]:
        """Every upstream tool seen, by server and name."""
        return [p for p in self.store.pins.list() if p.source.startswith("mcp:")]

    def _require(self, server: str, tool: str) -> Pin:
        pin = self.review(server, tool)
        if pin is None:
            raise UserError(f"no pin of {server}/{tool} (see `callgate pins list`)")
        return pin

    def _decide(self, read: Pin, decided: Pin) -> Pin:
        try:
            return self.store.pins.save(decided, expected_version=read.version)
        except StoreConflict:
            raise UserError(
                f"{read.source.removeprefix('mcp:')}/{read.tool_name} was seen again while "
                "you decided; look at it again with `callgate pins show`"
            ) from None


def _judge(pin: Pin | None, seen: Sighting) -> tuple[Pin | None, Verdict]:
    """The row to write (None: nothing changes) and the verdict, for one sighting."""
    current = _contract(seen)
    fingerprint = seen.offered.fingerprint
    high = tuple(f for f in seen.findings if f.severity >= Severity.HIGH and not f.suppressed)
    if pin is not None and pin.fingerprint == fingerprint:
        return (_cleared(pin) if pin.held else None), Verdict(allowed=True)
    if pin is not None and pin.state == "rejected" and pin.observed_fingerprint == fingerprint:
        return None, Verdict(allowed=False, reasons=pin.reasons)
    if pin is not None and pin.fingerprint is not None and _settings_only(pin, seen):
        return _pinned(pin, seen, current, by="settings"), Verdict(allowed=True)
    if pin is None or pin.fingerprint is None:
        if high:
            reasons = tuple(_finding_reason(f) for f in high)
            return _held(pin, seen, "new", current, reasons, (), high), _no(reasons)
        return _pinned(pin, seen, current, by="first-sight"), Verdict(allowed=True)
    return _changed(pin, seen, current, high)


def _changed(
    pin: Pin, seen: Sighting, current: dict[str, Any], high: tuple[Finding, ...]
) -> tuple[Pin, Verdict]:
    old = _recorded(pin)
    reasons = [_finding_reason(f) for f in high]
    details: tuple[str, ...] = ()
    if old is not None:
        new = _lint_pin(current)
        key = new.key  # the prefix may have moved too: compare under today's name
        change = check_pins(
            Lockfile(pins={key: dataclasses.replace(old, key=key)}), _catalog(seen)
        ).changed[0]
        details = change.details
        flips = widened(pin.pinned.get("declaration") or {}, seen.declaration)
        if not flips and not high and _only_narrowed(old, new):
            return _pinned(pin, seen, current, by="narrowed-annotations"), Verdict(allowed=True)
        reasons.insert(0, f"changed since it was pinned: {', '.join(change.parts)}")
        reasons[1:1] = [f"annotations widen its permissions ({f})" for f in flips]
    else:
        reasons.insert(0, "changed since it was pinned (the pinned contract is not on record)")
    kept = tuple(reasons)
    return _held(pin, seen, "changed", current, kept, details, high), _no(kept)


def _unchanged(old: Pin, new: Pin) -> bool:
    """Nothing but the bookkeeping would change: no write (a held tool is seen again at
    every listing and recheck)."""
    return dataclasses.replace(old, updated_at=0.0, version=0) == dataclasses.replace(
        new, updated_at=0.0, version=0
    )


def _no(reasons: tuple[str, ...]) -> Verdict:
    return Verdict(allowed=False, reasons=reasons)


def _settings_only(pin: Pin, seen: Sighting) -> bool:
    """The upstream sends what was pinned; only callgate's settings for it moved."""
    declaration = pin.pinned.get("declaration") if isinstance(pin.pinned, Mapping) else None
    if not isinstance(declaration, Mapping) or _canonical(declaration) != _canonical(
        seen.declaration
    ):
        return False
    return seen.rebuilt(declaration) == seen.offered.fingerprint


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _catalog(seen: Sighting) -> LoadedCatalog:
    entry = entry_from_tool(seen.offered, group=seen.server)
    return LoadedCatalog(source=pin_source(seen.server), entries=(entry,))


def _contract(seen: Sighting) -> dict[str, Any]:
    """The JSON a pin keeps of a contract: lint's pin of the offered `Tool` (fingerprint,
    a hash per part, the contract) and the upstream's own declaration."""
    lint = next(iter(pin_catalog(_catalog(seen)).pins.values()))
    plain: dict[str, Any] = json.loads(
        json.dumps(
            {
                "key": lint.key,
                "fingerprint": lint.fingerprint,
                "parts": dict(lint.parts),
                "contract": dict(lint.contract),
                "declaration": dict(seen.declaration),
            },
            default=str,
        )
    )
    return plain


def _lint_pin(data: Mapping[str, Any]) -> PinnedTool:
    return PinnedTool(
        key=str(data["key"]),
        fingerprint=str(data["fingerprint"]),
        parts=dict(data.get("parts", {})),
        contract=dict(data.get("contract", {})),
    )


def _recorded(pin: Pin) -> PinnedTool | None:
    """The approved contract, when the row holds the one its fingerprint names."""
    data = pin.pinned
    if not isinstance(data, Mapping) or data.get("fingerprint") != pin.fingerprint:
        return None
    try:
        return _lint_pin(data)
    except (KeyError, TypeError, ValueError):
        return None


def _only_narrowed(old: PinnedTool, new: PinnedTool) -> bool:
    """Only hints moved (no text, no title, no schema): nothing a model reads changed."""
    moved = {k for k in set(old.parts) | set(new.parts) if old.parts.get(k) != new.parts.get(k)}
    if not moved <= {"annotations", "effect"}:
        return False
    title = (old.contract.get("annotations") or {}).get("title")
    return title == (new.contract.get("annotations") or {}).get("title")


def _cleared(pin: Pin) -> Pin:
    """The row back in state `pinned`, with nothing observed and nothing to review."""
    return dataclasses.replace(
        pin,
        state="pinned",
        observed=None,
        observed_fingerprint=None,
        reasons=(),
        details=(),
        findings=(),
    )


def _pinned(pin: Pin | None, seen: Sighting, current: dict[str, Any], *, by: str) -> Pin:
    now = time.time()
    base = pin or Pin(source=pin_source(seen.server), tool_name=seen.tool, fingerprint=None)
    return dataclasses.replace(
        _cleared(base),
        fingerprint=seen.offered.fingerprint,
        pinned=current,
        tool_version=seen.offered.version,
        pinned_by=by,
        pinned_at=now,
        decided_by=by,
    )


def _held(
    pin: Pin | None,
    seen: Sighting,
    state: Any,
    current: dict[str, Any],
    reasons: tuple[str, ...],
    details: tuple[str, ...],
    findings: Iterable[Finding],
) -> Pin:
    base = pin or Pin(source=pin_source(seen.server), tool_name=seen.tool, fingerprint=None)
    return dataclasses.replace(
        base,
        state=state,
        observed=current,
        observed_fingerprint=seen.offered.fingerprint,
        reasons=reasons,
        details=details,
        findings=tuple(_finding_json(f) for f in findings),
        decided_by=None,
    )


def _finding_json(finding: Finding) -> dict[str, Any]:
    return {
        "rule": finding.rule,
        "severity": finding.severity.label,
        "message": finding.message,
        "evidence": finding.evidence,
        "where": finding.location.pointer,
    }


def _finding_reason(finding: Finding) -> str:
    return f"scan {finding.rule} ({finding.severity.label}): {finding.message}"[:300]
