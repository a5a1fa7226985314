"""A pattern of many alternatives, each tried only on texts that hold what it needs.

One pattern of a dozen alternatives is tried at every position of a text: a long text that
holds the word one alternative needs pays for all the others. Here each alternative (or
run of alternatives) comes with substrings one of which every match of it holds, and is
searched only where one occurs; the leftmost match wins, and at the same place the one
written first, which is what the whole alternation finds. Text that is not ASCII is read
by the whole pattern, since case-blind matching there has exceptions (`ſ` matches `s`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

__all__ = ["Alternatives"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Alternatives:
    whole: re.Pattern[str]
    """Every alternative in one pattern, in the order written."""
    parts: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...]
    """(what each match holds, in lower case; the alternatives) in the order written."""
    gate: tuple[str, ...]
    """Substrings of which a text holds one, in lower case, before anything is searched."""

    @classmethod
    def of(
        cls, parts: Sequence[tuple[tuple[str, ...], str]], flags: int, gate: Sequence[str]
    ) -> Alternatives:
        whole = re.compile("|".join(f"(?:{pattern})" for _, pattern in parts), flags)
        compiled = tuple((needs, re.compile(pattern, flags)) for needs, pattern in parts)
        return cls(whole=whole, parts=compiled, gate=tuple(gate))

    def search(self, text: str, gated: str | None = None, pos: int = 0) -> re.Match[str] | None:
        """The first match in `text` from `pos` on, when `gated` (`text` lowered unless
        given: another reading of the same text) holds one of the gate's substrings."""
        lowered = text.lower()
        if not any(map((lowered if gated is None else gated).__contains__, self.gate)):
            return None
        if not text.isascii():
            return self.whole.search(text, pos)
        best: re.Match[str] | None = None
        for needs, pattern in self.parts:
            if any(map(lowered.__contains__, needs)):
                found = pattern.search(text, pos)
                if found is not None and (best is None or found.start() < best.start()):
                    best = found
        return best

    def finditer(self, text: str, gated: str | None = None) -> Iterator[re.Match[str]]:
        """The matches `whole.finditer` finds, when `gated` holds one of the gate's
        substrings: each alternative's next match is kept, and searched again only once a
        match chosen before it has passed its start (one pass over the text per alternative,
        however many matches there are)."""
        lowered = text.lower()
        if not any(map((lowered if gated is None else gated).__contains__, self.gate)):
            return iter(())
        if not text.isascii():
            return self.whole.finditer(text)
        parts = [pattern for needs, pattern in self.parts if any(map(lowered.__contains__, needs))]
        return _merged(text, parts)


def _merged(text: str, parts: list[re.Pattern[str]]) -> Iterator[re.Match[str]]:
    """The leftmost match of any of `parts` (the first written, at one place), then the next
    from its end, as one alternation finds them."""
    ahead = [pattern.search(text) for pattern in parts]
    pos = 0
    while True:
        best: re.Match[str] | None = None
        for i, found in enumerate(ahead):
            if found is not None and found.start() < pos:
                found = ahead[i] = parts[i].search(text, pos)
            if found is not None and (best is None or found.start() < best.start()):
                best = found
        if best is None:
            return
        yield best
        pos = best.end() if best.end() > best.start() else best.end() + 1
