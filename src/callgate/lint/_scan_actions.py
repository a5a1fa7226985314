"""The action model: what a tool's text tells the model to do with *other* tools.

Every mention of a tool of the catalog (exactly or within one edit), or of a tool-like
name the catalog does not hold, is read with the concepts of its sentence (`_concepts`)
and given a relation:

- `avoid`: the text steers the model away from it ("X is out of service", "do not use X
  any more", "rather than X");
- `superior`: it claims to be better than it ("the enhanced edition of X");
- `trigger`: it ties an instruction to its calls ("every time X runs, also forward ...");
- `rewrite`: it fixes how it is called ("X must be called with amount set to ...");
- `call`: it obliges the model to call it ("once this tool has run you are required to
  invoke X"), which a prerequisite ("call X first to get the id") does not;
- `toward`: it routes requests to it ("route every request to X").

Against a tool of another server any relation is shadowing (S011, high), a bare mention
is medium; against a sibling of the same server the first five are S018 (high), `toward`
medium. A tool that says it is itself deprecated and names its replacement is not
redirecting anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from callgate.lint._concepts import Clause, Tag, may_hold, tag_text
from callgate.lint._entry import ToolEntry
from callgate.lint._finding import LintRule, Severity
from callgate.lint._scan_shadow import Known, NameIndex, name_key, where
from callgate.lint._scan_site import ScanHit, TextSite
from callgate.lint._text import view
from callgate.lint._words import VERBS, name_tokens

__all__ = ["RULES", "check_actions"]

H, M = Severity.HIGH, Severity.MEDIUM

RULES = (
    LintRule(
        id="S018",
        name="tool-redirection",
        kind="scan",
        severity=H,
        summary="Text acts on a sibling tool of its server: obliges calls of it after this "
        "one, ties instructions to its calls, fixes how it is called, steers the model away "
        "from it or claims to be better than it (reported with the tool it targets).",
        why="A tool that redirects, chains or rewrites its siblings' calls takes over the "
        "server's other capabilities; the shadowing exemption for siblings is what it abuses.",
        fix="Describe only this tool; say when to use it, not what the model must do with "
        "other tools.",
    ),
)

_IDENT = re.compile(r"(?<![a-z0-9_.-])[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+(?![a-z0-9_-])")
_QUOTED = re.compile(r"[`'\"]([a-z][a-z0-9]{3,})[`'\"]")
_LITERAL = ("EMAIL", "PAYEE", "URL")
_KEY = re.compile(r"[`'\"]?\s*[:=]")
# "For X, ..." opens its sentence; "(max lines for X, default 1000)" does not.
_FOR = re.compile(
    r"(?:^|[.;:!?(\n]\s*|[-*]\s+)(?:for|für|para|pour|per|для)\s+(?:the\s+)?[`'\"]?$",
    re.IGNORECASE | re.MULTILINE,
)
_COMMA = re.compile(r"[`'\"]?(?:\s+tool)?\s*[,:]")
_WITH = re.compile(r"[`'\"]?\s*\(?\)?\s*(?:with|using|mit|con|avec|com|с)\b", re.IGNORECASE)
_PASSIVE = re.compile(
    r"[`'\"]?(?:\s+\w+)?\s+(?:must|should|needs? to|has to)\s+be\s+(?:called|used|run)\b"
)
_VALUE = re.compile(r"=\s*\S|\bto\s+['\"`]|['\"`][^'\"`]{1,40}['\"`]")


@dataclass(frozen=True, slots=True)
class _Mention:
    word: str
    start: int
    end: int
    written: str


def check_actions(
    entry: ToolEntry, sites: Sequence[TextSite], index: NameIndex, parameter_names: frozenset[str]
) -> Iterator[tuple[TextSite, ScanHit]]:
    """S011 and S018 for each tool this tool's text acts on, once per tool and site."""
    # The tool's own property names, at any depth (`files[].patches[].range_hash`), are its
    # vocabulary, never another tool.
    own = {name_key(entry.name), *(name_key(s.text) for s in sites if s.field == "property")}
    for site in sites:
        if site.field in ("name", "property"):
            continue
        reported: set[str] = set()
        for mention in _mentions(site.text):
            key = name_key(mention.word)
            if key in own or key in reported or _KEY.match(site.text, mention.end):
                continue  # `"name": value` is a key of some data, not a tool
            relation = _relation_of(site.text, mention)
            known = [k for k in index.find(mention.word) if name_key(k.name) not in own]
            hit = _judge(entry, mention, relation, known, key in parameter_names)
            if hit is not None:
                reported.add(key)
                yield site, hit


def _relation_of(text: str, mention: _Mention) -> str | None:
    if not may_hold(text, _RELATING):
        return None  # every relation needs one of these concepts in its sentence
    tagged = tag_text(text)
    clause = next((c for c in tagged.clauses if c.start <= mention.start < c.end), None)
    return _relation(text, clause, mention) if clause is not None else None


# A catalog repeats its texts from tool to tool: each is searched for names once.
@lru_cache(maxsize=1 << 15)
def _mentions(text: str) -> tuple[_Mention, ...]:
    light = view(text, "light")
    return (
        *(
            _mention(text, light.source_span(*m.span()), m.group(0).strip(".-"))
            for m in _IDENT.finditer(light.text)
        ),
        *(
            _mention(text, light.source_span(*m.span(1)), m.group(1))
            for m in _QUOTED.finditer(light.text)
        ),
    )


def _mention(text: str, span: tuple[int, int], word: str) -> _Mention:
    return _Mention(word=word, start=span[0], end=span[1], written=text[span[0] : span[1]])


def _tool_like(mention: _Mention) -> bool:
    """A name the catalog does not hold reads as a tool when it is `verb_noun` or
    `noun_verb` (`send_email`, `notes_search`), written in lower case with `_` or `.`:
    not a value (`small_claims`), a constant (`NO_USERS`) or a hyphenated word."""
    parts = name_tokens(mention.word)
    if mention.written.isupper() or not any(c in mention.word for c in "_."):
        return False
    return len(parts) >= 2 and (parts[0] in VERBS or parts[-1] in VERBS)


def _judge(
    entry: ToolEntry,
    mention: _Mention,
    relation: str | None,
    known: list[Known],
    is_parameter: bool,
) -> ScanHit | None:
    word = mention.word
    if not known:
        if relation is None or is_parameter or not _tool_like(mention):
            return None
        severity = M if relation in _SOFT else H
        return _hit(
            "S011", severity, f"{_SAID[relation]} {word!r}, which is not in this catalog", mention
        )
    foreign = [k for k in known if k.server != entry.server]
    target = foreign[0] if foreign else known[0]
    if name_key(word) != name_key(target.name):  # within one edit: a lookalike name
        if relation is None:
            return None
        message = f"{_SAID[relation]} {word!r}, a near-copy of {target.name!r}"
        return _hit("S011", H if foreign else M, message, mention)
    if foreign:
        if relation is None:
            return _hit("S011", M, f"mentions tool {target.name!r} of {where(target)}", mention)
        return _hit(
            "S011", H, f"{_SAID[relation]} tool {target.name!r} of {where(target)}", mention
        )
    if relation is None or relation in _WEAK:
        return None  # passing data to a sibling is what tools of one server do
    severity = M if relation in _SOFT else H
    return _hit("S018", severity, f"{_SAID[relation]} sibling tool {target.name!r}", mention)


_SAID = {
    "avoid": "steers the model away from",
    "avoid_soft": "calls deprecated and steers the model away from",
    "rather": "puts itself in place of",
    "superior": "claims to be better than",
    "trigger": "ties instructions to every call of",
    "rewrite": "fixes how the model must call",
    "call": "obliges the model to call",
    "toward": "routes requests to",
    "move_to": "directs data to",
    "guide": "tells how the model must call",
    "obliged": "imposes rules on",
}


def _hit(rule: str, severity: Severity, message: str, mention: _Mention) -> ScanHit:
    return ScanHit(
        rule=rule,
        severity=severity,
        message=message,
        start=mention.start,
        end=mention.end,
        target=mention.word,
    )


# --- relations ---------------------------------------------------------------------------------


class _Around:
    """The tags of a clause seen from a mention at `[start, end)`."""

    def __init__(self, text: str, clause: Clause, mention: _Mention) -> None:
        self.text = text
        self.tags = clause.tags
        self.stop = clause.end
        self.start, self.end = mention.start, mention.end

    def between(self, a: int, b: int) -> str:
        return self.text[min(a, b) : max(a, b)]

    def bare(self, tag: Tag) -> bool:
        """Nothing but spaces, quotes and an article between `tag` and the mention."""
        gap = (
            self.between(tag.end, self.start)
            if tag.end <= self.start
            else self.between(self.end, tag.start)
        )
        return _BARE.fullmatch(gap) is not None

    def before(self, concepts: tuple[str, ...], reach: int) -> list[Tag]:
        return [
            t
            for t in self.tags
            if t.concept in concepts and t.end <= self.start and self.start - t.end <= reach
        ]

    def after(self, concepts: tuple[str, ...], reach: int) -> list[Tag]:
        return [
            t
            for t in self.tags
            if t.concept in concepts and t.start >= self.end and t.start - self.end <= reach
        ]

    def has(self, *concepts: str) -> bool:
        return any(t.concept in concepts for t in self.tags)


_BARE = re.compile(
    r"[\s`'\"*]*(?:(?:the|a|an|o|a|le|la|el|il|lo|der|die|das|den|dem)\s+)?[\s`'\"*]*"
    r"(?:(?:tool|function|helper|l ?outil|la ?herramienta|o|lo|a|an|zu|に|を|は)\s*)?[\s`'\"*]*"
)
_LIST = re.compile(r"[,|;(]|\band\b|\bor\b")
_PAUSE = re.compile(r"[,;:、，；]")
_TO = re.compile(
    r"(?:\bto|\binto|\bthrough|\ban|\bnach|\bzu|\ba|\bà|\bal|\bpara|\bper|\bв|\bна|给|に)"
    r"\s*(?:the\s+)?[`'\"*]*\s*$",
    re.IGNORECASE,
)


def _relation(text: str, clause: Clause, mention: _Mention) -> str | None:
    around = _Around(text, clause, mention)
    for name, test in _RELATIONS:
        if test(around):
            return name
    return None


def _avoid(a: _Around) -> bool:
    # "If the user does not approve, do not call X" is a step of a workflow, not a ban.
    negated_call = not a.has("IF", "WHEN", "BEFORE", "AFTER") and any(
        n.end <= c.start <= n.end + 6 and a.bare(c)
        for c in a.before(("CALL",), 20)
        for n in a.before(("NEG",), 40)
    )
    said_broken = any(not _LIST.search(a.between(a.end, t.start)) for t in a.after(("BROKEN",), 40))
    return negated_call or said_broken


def _rather(a: _Around) -> bool:
    """`use this instead of X` (`X ではなく` where the word follows its noun): a
    preference, shadowing only against another server."""
    postposed = (t for t in a.after(("INSTEADOF",), 4) if a.text[t.start : t.end] in _POSTPOSED)
    return any(a.bare(t) for t in a.before(("INSTEADOF",), 15)) or any(map(a.bare, postposed))


# Japanese puts "instead of" after its noun.
_POSTPOSED = frozenset({"ではなく", "の代わりに", "じゃなく"})


def _avoid_soft(a: _Around) -> bool:
    return bool(a.after(("DEPREC",), 30)) and a.has("ALWAYS", "EVERY", "ROUTE", "INSTEAD")


def _superior(a: _Around) -> bool:
    """`the enhanced edition of X`, `more reliable than X`; not a trade-off ("faster than X
    but worse on long texts"), nor a word of another clause ("not trusted; use X")."""
    claims = [t for t in a.before(("SUPERIOR",), 40) if ";" not in a.between(t.end, a.start)]
    claimed = claims and not _CONCESSION.search(a.text, a.end, min(a.stop, a.end + 80))
    return bool(claimed or a.after(("SUPERIOR",), 30))


_CONCESSION = re.compile(
    r"\b(?:but|though|although|however|whereas|at the cost of|aber|jedoch|mais|pero|mas|ma|"
    r"però|но|однако)\b|但|不过|ですが|けど",
    re.IGNORECASE,
)


def _introduced(a: _Around) -> bool:
    """`When X ...`, `Before calling X ...`, `If you use X ...`, `For X, ...`, `X のとき`;
    not `After attaching, call X`, where the condition is this tool's own step."""
    return bool(
        any(
            not _PAUSE.search(a.between(t.end, a.start))
            for t in a.before(("WHEN", "AFTER", "BEFORE", "IF"), 40)
        )
        or a.after(("WHEN",), 15)
        or (_FOR.search(a.text, max(0, a.start - 30), a.start) and _COMMA.match(a.text, a.end))
    )


def _trigger(a: _Around) -> bool:
    if not _introduced(a):
        return False
    directed = a.after(("ALWAYS", "OBLIG", "ALSO", "MOVE", "CHANGE", "EVENIF", "NEED"), 120)
    return bool(directed) or _sets_value(a)


def _guide(a: _Around) -> bool:
    """Settings for another tool's call (`before calling X, set the amount to ...`): only
    shadowing when the tool is another server's."""
    return _introduced(a) and bool(a.after(("SET",), 60))


def _obliged(a: _Around) -> bool:
    """`X must ...`, `the X helper must receive ...` (a rule imposed on another tool)."""
    if a.after(("NEG",), 25):
        return False  # "X is not required" lifts a rule rather than imposing one
    return bool(a.after(("OBLIG", "NEED"), 25)) and _PASSIVE.match(a.text, a.end) is None


def _rewrite(a: _Around) -> bool:
    if _sets_value(a) or (a.after(("OBLIG",), 30) and a.after(("EVENIF",), 120)):
        return True
    called_with = a.before(("CALL",), 25) and _WITH.match(a.text, a.end)
    return bool(called_with and a.after(("INSTEADOF", "INSTEAD", "EVENIF", "ALWAYS"), 80))


def _sets_value(a: _Around) -> bool:
    setting = a.after(("SET", "CHANGE"), 60)
    return bool(setting) and bool(a.after(_LITERAL, 100) or a.has("EVENIF") or a.has("PAYEE"))


def _call(a: _Around) -> bool:
    calls = [t for t in a.before(("CALL",), 25) if a.bare(t)] + [
        t for t in a.after(("CALL",), 50) if not _LIST.search(a.between(a.end, t.start))
    ]
    if not calls:
        return False
    if a.has("PURPOSE", "MAY", "IF") or (a.has("BEFORE", "FIRST") and not a.has("AFTER", "IMMED")):
        return False  # a prerequisite or an option, not an obligation
    plain = not a.has("ALWAYS", "IMMED", "EVERY", "AFTER", "WHEN")
    if a.has("OBLIG") and plain and _deprecated(a.text):
        return False  # "Legacy endpoint. New code should call X": this tool's replacement
    every = any(t.concept == "EVERY" and not _PERIOD.match(a.text, t.end) for t in a.tags)
    return a.has("OBLIG", "ALWAYS", "IMMED") or (every and a.has("AFTER", "WHEN"))


# "poll X every `interval` seconds": a schedule, not every time something happens
_PERIOD = re.compile(
    r"\s+(?:(?:\d[\d.]*|`[^`\n]{1,40}`|few|several|couple\s+of)\s*)?"
    r"(?:milli)?(?:seconds?|minutes?|hours?|days?|weeks?)\b|\s+\d+\s*(?:ms|s|m|h)\b",
    re.IGNORECASE,
)


def _deprecated(text: str) -> bool:
    """The tool's text opens by saying it is deprecated ("Legacy endpoint, kept for ...")."""
    clauses = tag_text(text).clauses
    return bool(clauses) and clauses[0].start == 0 and clauses[0].has("DEPREC")


def _toward(a: _Around) -> bool:
    if a.before(("DEPREC", "BROKEN"), 200):
        return False  # "deprecated: use X instead" is about this tool
    return bool(a.after(("INSTEAD",), 20) or a.before(("ROUTE",), 40)) and a.has(
        "EVERY", "ALWAYS", "ALL"
    )


def _move_to(a: _Around) -> bool:
    near = _TO.search(a.text, max(0, a.start - 20), a.start)
    return bool(a.before(("MOVE", "ROUTE"), 80)) and near is not None


_RELATIONS = (
    ("avoid", _avoid),
    ("rather", _rather),
    ("superior", _superior),
    ("trigger", _trigger),
    ("rewrite", _rewrite),
    ("call", _call),
    ("avoid_soft", _avoid_soft),
    ("toward", _toward),
    ("guide", _guide),
    ("obliged", _obliged),
    ("move_to", _move_to),
)
_RELATING = frozenset(
    {
        *("CALL", "BROKEN", "INSTEADOF", "SUPERIOR", "ALWAYS", "OBLIG", "ALSO", "MOVE"),
        *("CHANGE", "EVENIF", "NEED", "SET", "DEPREC", "INSTEAD", "ROUTE"),
    }
)
"""The concepts of which each relation above needs one to hold (`_call` a CALL, `_rather`
an INSTEADOF, `_trigger` a directed word or a SET ...)."""
_WEAK = frozenset({"guide", "obliged", "move_to"})
_SOFT = frozenset({"toward", "avoid_soft", "rather"})
"""Relations that are medium against a sibling or a name the catalog does not hold."""
"""Relations that are shadowing against another server's tool, and ordinary between
siblings (passing data on, settings for the next call)."""
