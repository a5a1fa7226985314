"""Pins of upstream tools, and the quarantine of tools that changed or look poisoned.

On first sight a tool is scanned; a clean one is pinned at once (trust on first use), one
with a high finding waits for a person. Later sightings compare the full fingerprint of
the normalised declaration with the pin: the same fingerprint is the same tool; any other
is quarantined until approved, except a change of annotations alone that only makes the
gate more careful (a tool that stops claiming to be read-only), which is pinned again at
once. The approved fingerprint lives in `store.pins` (source `mcp:SERVER`); the review
(pinned and observed contracts, reasons, findings, who decided) beside it, so that
`callgate pins show` in another process can show the diff.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from callgate._errors import UserError
from callgate.lint import (
    Finding,
    LoadedCatalog,
    Lockfile,
    PinnedTool,
    Severity,
    ToolEntry,
    check_pins,
    pin_catalog,
)
from callgate.mcp._declaration import widened
from callgate.store import Pin as StoredPin
from callgate.store import Store, StoreConflict

__all__ = ["PinBook", "PinReview", "PinState", "Verdict", "pin_source"]

PinState = Literal["pinned", "new", "changed", "rejected"]
_REVIEW_STATUS = "pin-review"
_REVIEW_FORMAT = 1


def pin_source(server: str) -> str:
    return f"mcp:{server}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Verdict:
    allowed: bool
    reasons: tuple[str, ...] = ()
    """Why the tool is held back (empty when allowed)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class PinReview:
    """What is known about one upstream tool's pin."""

    server: str
    tool: str
    """The upstream name."""
    state: PinState
    pinned: Mapping[str, Any] | None = None
    """The approved contract (lint `PinnedTool` form: fingerprint, parts, contract)."""
    observed: Mapping[str, Any] | None = None
    """The contract seen last while it differed from the pin."""
    reasons: tuple[str, ...] = ()
    details: tuple[str, ...] = ()
    """Readable lines of the change: text added, schema changes, annotation flips."""
    findings: tuple[Mapping[str, Any], ...] = ()
    decided_by: str | None = None
    updated_at: float = 0.0
    version: int = field(default=0, compare=False)

    @property
    def quarantined(self) -> bool:
        return self.state != "pinned"

    def to_json(self) -> dict[str, Any]:
        return {
            "server": self.server,
            "tool": self.tool,
            "state": self.state,
            "pinned": self.pinned,
            "observed": self.observed,
            "reasons": list(self.reasons),
            "details": list(self.details),
            "findings": list(self.findings),
            "decided_by": self.decided_by,
            "updated_at": self.updated_at,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], version: int) -> PinReview:
        return cls(
            server=str(data["server"]),
            tool=str(data["tool"]),
            state=data["state"],
            pinned=data.get("pinned"),
            observed=data.get("observed"),
            reasons=tuple(data.get("reasons", ())),
            details=tuple(data.get("details", ())),
            findings=tuple(data.get("findings", ())),
            decided_by=data.get("decided_by"),
            updated_at=float(data.get("updated_at", 0.0)),
            version=version,
        )


class PinBook:
    """Pins and reviews of upstream tools in one store (synchronous: call from a thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def assess(self, entry: ToolEntry, findings: Iterable[Finding]) -> Verdict:
        """Pin or quarantine one tool as seen now (`entry.group` is its server). A
        declaration that cannot be read is held, never pinned: there is no contract to pin."""
        if entry.unreadable:
            reasons = tuple(f"cannot be used: {reason}" for _, reason in entry.unreadable)
            return Verdict(allowed=False, reasons=reasons)
        server, tool = _names(entry)
        current = _pin_of(entry)
        high = [f for f in findings if f.severity >= Severity.HIGH and not f.suppressed]
        pin = self.store.pins.get(pin_source(server), tool)
        review = self.review(server, tool)
        if pin is not None and pin.fingerprint == current.fingerprint:
            if review is None or review.state != "pinned":
                self._save(review, _pinned(server, tool, current, review, by=pin.pinned_by))
            return Verdict(allowed=True)
        if review is not None and review.state == "rejected" and _same(review.observed, current):
            return Verdict(allowed=False, reasons=review.reasons)
        if pin is None:
            return self._first_sight(server, tool, current, high, review)
        return self._changed(server, tool, pin, current, high, review, entry)

    def pinned(self, server: str, tool: str, fingerprint: str) -> bool:
        """Whether `fingerprint` is the approved contract of the tool."""
        pin = self.store.pins.get(pin_source(server), tool)
        return pin is not None and pin.fingerprint == fingerprint

    def approve(
        self, server: str, tool: str, *, by: str, fingerprint: str | None = None
    ) -> PinnedTool:
        """Pin the observed contract of a quarantined tool; `fingerprint`, when given, must
        be the one shown to the person (the tool may have changed again since)."""
        review = self._require(server, tool)
        if review.state == "pinned" or review.observed is None:
            raise UserError(f"{server}/{tool} is not waiting for approval")
        observed = _lint_pin(review.observed)
        if fingerprint is not None and not observed.fingerprint.startswith(fingerprint):
            raise UserError(
                f"{server}/{tool} changed again since: its fingerprint is now "
                f"{observed.fingerprint[:16]}; look at it again with `callgate pins show`"
            )
        self.store.pins.upsert(
            StoredPin(
                source=pin_source(server),
                tool_name=tool,
                fingerprint=observed.fingerprint,
                pinned_by=by,
            )
        )
        self._save(review, _pinned(server, tool, observed, review, by=by))
        return observed

    def reject(self, server: str, tool: str, *, by: str) -> PinReview:
        """Keep the observed contract quarantined for good (until it changes again)."""
        review = self._require(server, tool)
        if review.state == "pinned":
            raise UserError(f"{server}/{tool} is pinned; nothing waits for a decision")
        rejected = PinReview(
            **{**_fields(review), "state": "rejected", "decided_by": by, "updated_at": time.time()},
            reasons=(f"rejected by {by}", *[r for r in review.reasons if "rejected" not in r]),
        )
        self._save(review, rejected)
        return rejected

    def review(self, server: str, tool: str) -> PinReview | None:
        record = self.store.runs.load(_review_id(server, tool))
        if record is None or record.status != _REVIEW_STATUS:
            return None
        return PinReview.from_json(record.state, record.version)

    def reviews(self, *, limit: int = 10_000) -> list[PinReview]:
        records = self.store.runs.list(status=_REVIEW_STATUS, limit=limit)
        found = [PinReview.from_json(r.state, r.version) for r in records]
        return sorted(found, key=lambda r: (r.server, r.tool))

    def _first_sight(
        self,
        server: str,
        tool: str,
        current: PinnedTool,
        high: list[Finding],
        review: PinReview | None,
    ) -> Verdict:
        if high:
            reasons = tuple(_finding_reason(f) for f in high)
            self._save(review, _held(server, tool, "new", current, None, reasons, (), high))
            return Verdict(allowed=False, reasons=reasons)
        self.store.pins.upsert(
            StoredPin(
                source=pin_source(server),
                tool_name=tool,
                fingerprint=current.fingerprint,
                pinned_by="first-sight",
            )
        )
        self._save(review, _pinned(server, tool, current, review, by="first-sight"))
        return Verdict(allowed=True)

    def _changed(
        self,
        server: str,
        tool: str,
        pin: StoredPin,
        current: PinnedTool,
        high: list[Finding],
        review: PinReview | None,
        entry: ToolEntry,
    ) -> Verdict:
        known = review.pinned if review is not None else None
        old = (
            _lint_pin(known)
            if known is not None and _same_fingerprint(known, pin.fingerprint)
            else None
        )
        reasons: list[str] = [_finding_reason(f) for f in high]
        details: tuple[str, ...] = ()
        if old is not None and old.fingerprint != current.fingerprint:
            change = check_pins(Lockfile(pins={old.key: old}), _catalog(entry)).changed[0]
            details = change.details
            flips = widened(old.contract, current.contract)
            if not flips and not high and _only_narrowed(old, current):
                self.store.pins.upsert(
                    StoredPin(
                        source=pin_source(server),
                        tool_name=tool,
                        fingerprint=current.fingerprint,
                        pinned_by="narrowed-annotations",
                    )
                )
                self._save(review, _pinned(server, tool, current, review, by="narrowed"))
                return Verdict(allowed=True)
            reasons.insert(0, f"changed since it was pinned: {', '.join(change.parts)}")
            reasons[1:1] = [f"annotations widen its permissions ({f})" for f in flips]
        else:
            reasons.insert(0, "changed since it was pinned (the pinned contract is not on record)")
        pinned = review.pinned if review is not None else None
        kept = tuple(reasons)
        self._save(review, _held(server, tool, "changed", current, pinned, kept, details, high))
        return Verdict(allowed=False, reasons=kept)

    def _require(self, server: str, tool: str) -> PinReview:
        review = self.review(server, tool)
        if review is None:
            raise UserError(f"no pin of {server}/{tool} (see `callgate pins list`)")
        return review

    def _save(self, old: PinReview | None, new: PinReview) -> None:
        if old is not None and old.to_json() | {"updated_at": 0} == new.to_json() | {
            "updated_at": 0
        }:
            return
        run_id = _review_id(new.server, new.tool)
        expected = old.version if old is not None else None
        try:
            self.store.runs.save(
                run_id,
                new.to_json(),
                expected_version=expected,
                status=_REVIEW_STATUS,
                state_format=_REVIEW_FORMAT,
            )
        except StoreConflict:
            # Another process saved the same review in between: its view is as fresh as ours.
            record = self.store.runs.load(run_id)
            if record is None:
                raise
            self.store.runs.save(
                run_id,
                new.to_json(),
                expected_version=record.version,
                status=_REVIEW_STATUS,
                state_format=_REVIEW_FORMAT,
            )


def _review_id(server: str, tool: str) -> str:
    return f"callgate-pin/{server}/{tool}"


def _names(entry: ToolEntry) -> tuple[str, str]:
    if entry.group is None:
        raise UserError(f"tool {entry.name!r} has no server")
    return entry.group, entry.name


def _catalog(entry: ToolEntry) -> LoadedCatalog:
    return LoadedCatalog(source=pin_source(entry.group or ""), entries=(entry,))


def _pin_of(entry: ToolEntry) -> PinnedTool:
    return next(iter(pin_catalog(_catalog(entry)).pins.values()))


def _lint_pin(data: Mapping[str, Any]) -> PinnedTool:
    return PinnedTool(
        key=str(data["key"]),
        fingerprint=str(data["fingerprint"]),
        parts=dict(data.get("parts", {})),
        contract=dict(data.get("contract", {})),
    )


def _plain_pin(pin: PinnedTool) -> dict[str, Any]:
    plain: dict[str, Any] = json.loads(
        json.dumps(
            {
                "key": pin.key,
                "fingerprint": pin.fingerprint,
                "parts": dict(pin.parts),
                "contract": dict(pin.contract),
            },
            default=str,
        )
    )
    return plain


def _same(data: Mapping[str, Any] | None, pin: PinnedTool) -> bool:
    return _same_fingerprint(data, pin.fingerprint)


def _same_fingerprint(data: Mapping[str, Any] | None, fingerprint: str) -> bool:
    return data is not None and data.get("fingerprint") == fingerprint


def _only_narrowed(old: PinnedTool, new: PinnedTool) -> bool:
    """Only hints moved (no text, no title, no schema): nothing a model reads changed."""
    moved = {k for k in set(old.parts) | set(new.parts) if old.parts.get(k) != new.parts.get(k)}
    if not moved <= {"annotations", "effect"}:
        return False
    title = (old.contract.get("annotations") or {}).get("title")
    return title == (new.contract.get("annotations") or {}).get("title")


def _pinned(
    server: str, tool: str, pin: PinnedTool, review: PinReview | None, *, by: str | None
) -> PinReview:
    return PinReview(
        server=server,
        tool=tool,
        state="pinned",
        pinned=_plain_pin(pin),
        decided_by=by,
        updated_at=time.time(),
        version=review.version if review is not None else 0,
    )


def _held(
    server: str,
    tool: str,
    state: PinState,
    observed: PinnedTool,
    pinned: Mapping[str, Any] | None,
    reasons: tuple[str, ...],
    details: tuple[str, ...],
    findings: list[Finding],
) -> PinReview:
    return PinReview(
        server=server,
        tool=tool,
        state=state,
        pinned=pinned,
        observed=_plain_pin(observed),
        reasons=reasons,
        details=details,
        findings=tuple(
            {
                "rule": f.rule,
                "severity": f.severity.label,
                "message": f.message,
                "evidence": f.evidence,
                "where": f.location.pointer,
            }
            for f in findings
        ),
        updated_at=time.time(),
    )


def _finding_reason(finding: Finding) -> str:
    return f"scan {finding.rule} ({finding.severity.label}): {finding.message}"[:300]


def _fields(review: PinReview) -> dict[str, Any]:
    return {
        "server": review.server,
        "tool": review.tool,
        "pinned": review.pinned,
        "observed": review.observed,
        "details": review.details,
        "findings": review.findings,
        "version": review.version,
    }
