"""untrusted: what a tool labelled `untrusted_output` returns reaches the model as data.

The step sits between dedupe and retry, so it sees each result once, as the tool gave it,
and a duplicate replays the result as it was shown the first time. For every other tool it
hands the call straight down: no await of its own, nothing scanned.

- **Spotlighting.** The tool's text is wrapped between two marker lines that carry the
  run's *boundary* (16 random hex digits), after one line saying it is data, not
  instructions (the words are in `_outcome.spotlighted`). Every spelling of the boundary
  inside the text — any case, full-width and other compatibility forms, split by invisible
  characters or combining marks — is replaced first, so the text cannot close the block or
  open one of its own. `structured` stays the tool's value.
- **The boundary is per run and kept in the store** with the run's labels (first writer
  wins), so every process serving the run and every resume shows the same markers; a gate
  without a store keeps it in memory. A derived boundary (a secret and the run id) would
  need the same secret configured in every process to be stable; the store already is
  what the processes share.
- **Detection.** The text is scanned by the `detector` (the scan engine's public function,
  given by the host: the gate sits below `callgate.lint` in the layers and cannot import
  it). Findings travel on the result (`ToolResult.findings`, `"S002 high at 120-161"`),
  in its receipt and in the loop's events; a high one marks the run (`SUSPECTED`), and with
  `hold=True` every later call that acts (irreversible or a public sink) is held with rule
  `suspected-injection`, whatever the policy says.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import re
import secrets
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Literal, Protocol, get_args

from callgate.contract import Route, Tool, ToolResult
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Handler, Outcome, Step, settled
from callgate.gate._log import GateLog
from callgate.gate._rule_of_two import action_words, acts
from callgate.store import AsyncStore, StoreError

__all__ = [
    "BOUNDARY",
    "SUSPECTED",
    "SUSPECTED_INJECTION",
    "UNTRUSTED",
    "Detector",
    "DetectorHit",
    "ProvenanceMode",
    "Untrusted",
    "UntrustedResults",
    "escape_boundary",
    "suspected_hold",
    "suspicion",
    "tool_text",
]

UNTRUSTED = "untrusted_output"
BOUNDARY = "spotlight:boundary"
"""The store's row (among the run's labels) that holds the run's boundary."""
SUSPECTED = "suspected_injection"
"""The store's row (among the run's labels) naming the first result with a high finding."""
SUSPECTED_INJECTION = "suspected-injection"
"""The rule id of an acting call held because a flagged result entered its run."""

_LEVELS = ("info", "low", "medium", "high", "critical")
_HIGH = 3
_MAX_FINDINGS = 16
_INLINE_CHARS = 2_000
"""Longer texts are scanned in a worker thread, so the event loop is not held for it."""
_SHAPE = re.compile(r"[0-9a-f]{16}")
_REMOVED = "(marker removed)"
_KNOWN_RUNS = 4_096
_DONE = frozenset({Route.COMPLETED, Route.VERIFIED})


class DetectorHit(Protocol):
    """One finding of a detector; `callgate.lint.ScanHit` is one."""

    @property
    def rule(self) -> str: ...
    @property
    def severity(self) -> int:
        """0 info, 1 low, 2 medium, 3 high, 4 critical (`callgate.lint.Severity`)."""
        ...

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


Detector = Callable[[str], Iterable[DetectorHit]]
"""Finds what in a text tries to instruct the model: `callgate.lint.scan_text`."""
ProvenanceMode = Literal["off", "values", "request", "strict"]


@dataclass(frozen=True, kw_only=True, slots=True)
class UntrustedResults:
    """How the gate treats the text of tools labelled `untrusted_output` (open-world tools
    included). Spotlighting is always on; detection needs a `detector`:

        from callgate.lint import scan_text
        Gate(tools, policy=..., untrusted=UntrustedResults(detector=scan_text, ignore={"S012"}))
    """

    detector: Detector | None = None
    ignore: Collection[str] = frozenset()
    """Rule ids not reported (`S012`: a long text is no evidence in a tool result)."""
    hold: bool = True
    """Hold every acting call of a run once a result with a high finding entered it (rule
    `suspected-injection`; only an approval of the exact call lifts it)."""
    provenance: ProvenanceMode = "off"
    """What an acting call (irreversible, or a public sink) may carry
    (`callgate.gate._provenance`); each mode holds what the one before it holds, and more:
    `"values"`: once untrusted content entered its run, no host, e-mail address, account,
    card or phone number that no trusted source gave — the user's request
    (`Context.attributes["request"]`), `trusted_values`, a call a person approved, the
    result of a tool not labelled `untrusted_output` — else it is held (rule
    `untrusted-value`); `"request"`: the same for every acting call, untrusted content or
    not, with only the request, `trusted_values` and approvals vouching (tool results never
    do, whatever their labels); `"strict"`: `"request"`, and
    once untrusted content entered the run every acting call is held (rule
    `untrusted-action`), two legs of the Rule of Two being enough. `"off"`: none of these."""
    trusted_values: Collection[str] = ()
    """Texts the host vouches for, read for hosts, addresses and numbers as the request is:
    its own domains, mailboxes and accounts (`["acme.com", "billing@acme.com"]`; one bare
    text is refused, not read letter by letter); `*.acme.dev` vouches for every subdomain of
    acme.dev. A gate adds its catalog's `trusted_values` (the coding toolset's hosts)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "ignore", frozenset(self.ignore))
        if isinstance(self.trusted_values, str):  # else read letter by letter
            raise ValueError(
                f"trusted_values is a collection of texts: [{self.trusted_values!r}], "
                f"not {self.trusted_values!r}"
            )
        object.__setattr__(self, "trusted_values", tuple(self.trusted_values))
        odd = [v for v in self.trusted_values if not isinstance(v, str)]
        if odd:
            raise ValueError(f"trusted_values holds texts, not {type(odd[0]).__name__} {odd[0]!r}")
        if self.provenance not in get_args(ProvenanceMode):
            modes = ", ".join(repr(m) for m in get_args(ProvenanceMode))
            raise ValueError(f"provenance must be one of {modes}, not {self.provenance!r}")


class Untrusted:
    """Spotlights and scans the results of `untrusted_output` tools."""

    def __init__(
        self,
        next: Handler,
        *,
        settings: UntrustedResults,
        store: AsyncStore | None,
        threads: Executor,
        log: GateLog,
    ) -> None:
        self.next = next
        self.settings = settings
        self.boundaries = Boundaries(store, log)
        self.threads = threads
        self.log = log

    def __call__(self, attempt: Attempt) -> Step:
        if UNTRUSTED not in attempt.entry.tool.labels:
            return self.next(attempt)  # as it is: no frame of this step's own
        return self._screened(attempt)

    async def _screened(self, attempt: Attempt) -> Outcome:
        outcome = await settled(self.next(attempt))
        result = outcome.result
        if not tool_text(result):
            return outcome
        findings = await self._scan(result.content, attempt)
        boundary = await self.boundaries.of(attempt.context.run_id)
        flagged = sorted({f.split(" at ")[0] for f in findings})
        content = _outcome.spotlighted(
            escape_boundary(result.content, boundary),
            tool=attempt.tool.name,
            boundary=boundary,
            flagged=flagged,
        )
        shown = dataclasses.replace(result, content=content, findings=findings)
        return dataclasses.replace(outcome, result=shown)

    async def _scan(self, text: str, attempt: Attempt) -> tuple[str, ...]:
        detector = self.settings.detector
        if detector is None:
            return ()
        try:
            if len(text) <= _INLINE_CHARS:
                hits = list(detector(text))
            else:
                loop = asyncio.get_running_loop()
                hits = await loop.run_in_executor(self.threads, _hits, detector, text)
            return _findings(hits, self.settings.ignore)
        except Exception:
            # What cannot be scanned cannot be cleared: the run is marked as if it were flagged.
            self.log.exception("scan of %s (call %s) failed", attempt.tool.name, attempt.call.id)
            return ("scan-failed high",)


def _hits(detector: Detector, text: str) -> list[DetectorHit]:
    return list(detector(text))


def _findings(hits: Sequence[DetectorHit], ignore: Collection[str]) -> tuple[str, ...]:
    kept = sorted(
        (h for h in hits if h.rule not in ignore), key=lambda h: (-int(h.severity), h.start)
    )
    shown = [
        f"{h.rule} {_LEVELS[min(max(int(h.severity), 0), 4)]} at {h.start}-{h.end}"
        for h in kept[:_MAX_FINDINGS]
    ]
    if len(kept) > _MAX_FINDINGS:
        shown.append(f"+{len(kept) - _MAX_FINDINGS} more")
    return tuple(shown)


def tool_text(result: ToolResult) -> bool:
    """True when the model-facing text of `result` came from the tool (its output, or the
    message of its own error) rather than from the gate."""
    return result.route in _DONE or (result.is_error and result.reason in _outcome.TOOL_TEXT)


def suspicion(findings: Sequence[str]) -> str | None:
    """The first finding of high severity or above, if any."""
    for finding in findings:
        parts = finding.split(" ")
        if len(parts) > 1 and parts[1] in ("high", "critical"):
            return finding
    return None


def suspected_hold(tool: Tool, seen: Mapping[str, str], labels: Collection[str] = ()) -> str | None:
    """Why calling `tool` now must wait for a person: it acts (by its labels or the call's
    own, `labels`), and a result with a high finding entered the run. None when not."""
    source = seen.get(SUSPECTED)
    if source is None or not acts(tool, labels):
        return None
    return _outcome.suspected_injection(tool.name, source, action_words(tool))


# -- the boundary -------------------------------------------------------------------------------


class Boundaries:
    """The boundary of each run: in the store (every process of the run agrees), or in this
    gate's memory when it has no store. A call without a run gets one of its own."""

    def __init__(self, store: AsyncStore | None, log: GateLog) -> None:
        self.store = store
        self.log = log
        self._known: dict[str, str] = {}

    async def of(self, run_id: str | None) -> str:
        if run_id is None:
            return secrets.token_hex(8)
        known = self._known.get(run_id)
        if known is not None:
            return known
        if self.store is None:
            return self._remember(run_id, secrets.token_hex(8))
        try:
            boundary = await self._shared(self.store, run_id)
        except StoreError as exc:
            # Still unforgeable, only not the run's own; the record step will fail the same
            # way and withhold this result.
            self.log.error("boundary of run %s unreadable: %s", run_id, exc)
            return secrets.token_hex(8)
        return self._remember(run_id, boundary) if boundary is not None else secrets.token_hex(8)

    async def _shared(self, store: AsyncStore, run_id: str) -> str | None:
        labels = store.store.labels
        seen = await store.run(labels.of, run_id)
        if BOUNDARY not in seen:
            await store.run(labels.add, run_id, {BOUNDARY: secrets.token_hex(8)})
            seen = await store.run(labels.of, run_id)
        boundary = seen.get(BOUNDARY, "")
        return boundary if _SHAPE.fullmatch(boundary) else None  # a row nobody here wrote

    def _remember(self, run_id: str, boundary: str) -> str:
        if len(self._known) >= _KNOWN_RUNS:
            self._known.pop(next(iter(self._known)))
        self._known[run_id] = boundary
        return boundary


# -- escaping -----------------------------------------------------------------------------------


def escape_boundary(text: str, boundary: str) -> str:
    """`text` with every spelling of `boundary` replaced by "(marker removed)": any case,
    compatibility forms (full-width, mathematical, superscript digits), and with invisible
    characters or combining marks in between. `boundary` is lower-case hex."""
    table = _fold_table()
    if boundary not in text.translate(table):
        return text  # the common case: one pass in C
    while True:
        spans = _occurrences(text, boundary, table)
        if not spans:
            return text
        pieces, last = [], 0
        for start, end in spans:
            pieces += [text[last:start], _REMOVED]
            last = end
        text = "".join([*pieces, text[last:]])


def _occurrences(
    text: str, boundary: str, table: Mapping[int, str | None]
) -> list[tuple[int, int]]:
    """Spans of `text` whose folded form is `boundary`, merged where they overlap."""
    folded: list[str] = []
    where: list[int] = []
    for i, char in enumerate(text):
        mapped = table.get(ord(char), char)
        for piece in mapped or ():  # "⑩" folds to two digits, a mark to none
            folded.append(piece)
            where.append(i)
    flat = "".join(folded)
    spans: list[tuple[int, int]] = []
    at = flat.find(boundary)
    while at != -1:
        start, end = where[at], where[at + len(boundary) - 1] + 1
        if spans and start < spans[-1][1]:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
        at = flat.find(boundary, at + 1)
    return spans


@functools.cache
def _fold_table() -> dict[int, str | None]:
    """Upper-case hex letters and every character whose compatibility form is made of hex
    digits (`Ａ`, `𝟙`, `²`, `⑩`) map to those digits; format characters (zero-width, bidi,
    tags) and combining marks are dropped. Built once, over the planes where such
    characters live."""
    table: dict[int, str | None] = {ord(c): c.lower() for c in "ABCDEF"}
    planes = (range(0x80, 0x20000), range(0xE0000, 0xE1000))
    for code in (c for plane in planes for c in plane):
        char = chr(code)
        if unicodedata.category(char) in ("Cf", "Mn", "Me"):
            table[code] = None
        elif unicodedata.decomposition(char):  # only these have another compatibility form
            folded = unicodedata.normalize("NFKC", char).lower()
            if folded and all(c in "0123456789abcdef" for c in folded):
                table[code] = folded
    return table
