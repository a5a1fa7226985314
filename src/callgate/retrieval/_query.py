"""Reading a query: the intents it contains, and tool names it mentions outright.

A user often asks for several things in one message ("convert 5 km to miles, then book a
table for two"). Scored as one bag of words, the intent with the rarest words wins every
top slot and the others fall out of the top k. Each sentence or clause is therefore also
ranked on its own, and the rankings are fused (see `_index.py`).
"""

from __future__ import annotations

import re

__all__ = ["identifiers", "joined", "segments"]

_SENTENCE_END = re.compile(r"(?<=[.?!;:])\s+|(?<=[。？！；])\s*|\n+")
_TIME_WORDS = (
    r"to|\d+|few|couple|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"time|times|second|minute|hour|day|days|week|weeks|weekend|month|months|year|years|"
    r"quarter|season|semester|term|morning|afternoon|evening|night|tonight|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"january|february|march|april|may|june|july|august|september|october|november|december|"
    r"spring|summer|autumn|fall|winter"
)
# Each alternative starts where a run of spaces does, never inside it: tried from every
# space of a long run, a match would cost the square of its length.
_CLAUSE_JOIN = re.compile(
    r"(?<!\s),?\s+\b(?:and then|then|also|after that|afterwards|finally|additionally|lastly|"
    r"in addition(?: to that)?|besides|"
    r"а также|а потом|потом|затем|после этого|также|ещё|еще)\b,?\s*"
    # "next" joins ("book a flight, next a hotel") but not in "next Friday", "next to the
    # station" or "the next train".
    r"|(?<!\s)(?<!\bthe)(?<!\ba)(?<!\bthis)(?<!\bmy)(?<!\byour)(?<!\bour)(?<!\btheir)"
    rf",?\s+\bnext\b(?!\s+(?:{_TIME_WORDS})\b),?\s*"
    # Ordinal openers ("First, ... Second, ...") enumerate requests only where a sentence
    # starts, and with their comma: "sort by price first, then ..." and "the first,
    # second and third results" are no boundary.
    r"|(?:^|(?<=[.?!;:。？！；\n]))[\s\"'(]{0,8}"
    r"(?:(?:first|second|third|fourth|fifth|sixth|next)(?:ly)?|во-первых|во-вторых|в-третьих)"
    r",\s*"
    # Chinese has no spaces to mark word boundaries: its chaining words stand alone.
    r"|(?<!\s)[，,]?\s*(?:然后|接着|之后|随后|并且|同时|另外)[，,]?\s*",
    re.IGNORECASE,
)
_IDENTIFIER = re.compile(r"[A-Za-z_][\w.\-]*\w")
_MAX_SEGMENTS = 8


def segments(text: str) -> list[str]:
    """The sentences and joined clauses of `text`, in order; one item for a simple query."""
    parts: list[str] = []
    for sentence in _SENTENCE_END.split(text):
        parts += _CLAUSE_JOIN.split(sentence)
    found = [p.strip() for p in parts if p and p.strip()]
    return found[:_MAX_SEGMENTS]


def clauses(text: str) -> list[str]:
    """The parts of `text` between chaining words (`then`, `also`, ...), in order."""
    found = [p.strip() for p in _CLAUSE_JOIN.split(text) if p and p.strip()]
    return found[:_MAX_SEGMENTS]


def joined(text: str) -> bool:
    """True when `text` chains requests with a joining word (`then`, `also`, `потом`, ...).

    Such a query almost surely asks for several tools; one that is only split into
    sentences often describes one task in several sentences.
    """
    return _CLAUSE_JOIN.search(text) is not None


def identifiers(text: str) -> list[str]:
    """Identifier-like words of `text` (`get_weather`, `math.hypot`, `getUser`), lower-cased.

    Plain words are left out: a tool called `search` is not meant by every query that says
    "search".
    """
    out = []
    for word in _IDENTIFIER.findall(text):
        word = word.rstrip(".-")
        if any(c in word for c in "_.-") or (
            not word.islower() and not word.isupper() and not word.istitle()
        ):
            out.append(word.lower())
    return list(dict.fromkeys(out))
