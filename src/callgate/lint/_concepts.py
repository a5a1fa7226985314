"""Where the concepts of `_lexicon` occur in a text: tags, clauses and quoted spans.

The text is read through the normalised views of `_text` (so `1gn0re`, `іgnоrе` and
`ｉｇｎｏｒｅ` are one word): the `latin` view for the Latin-script languages, Chinese and
Japanese, the `cyrillic` view for Russian. Each word is looked up once per process (exact
form, then its prefixes), a German compound also by its tail (`Systemanweisungen`), and
runs of single letters (`i g n o r e`, `I_G_N_O_R_E`) are joined and segmented by the
lexicon. Hyphens inside words are read both ways (`ig-nore`, `read-only`). Every tag keeps
its span in the original text, so findings quote what was written.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from operator import itemgetter
from typing import NamedTuple, TypeVar

from callgate.lint._lexicon import LEXICON
from callgate.lint._text import View, ViewKind, view

__all__ = [
    "URL",
    "Clause",
    "Tag",
    "Tagged",
    "cjk_words",
    "concepts_in",
    "first_directive",
    "may_hold",
    "may_link",
    "tag_text",
]

_T = TypeVar("_T")


class Tag(NamedTuple):
    """One concept at `[start, end)` of the original text. A named tuple, not a dataclass:
    a text yields dozens per thousand characters, each built, hashed and compared in sets,
    and a tuple does that in C."""

    concept: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Clause:
    """A sentence of the text and the tags inside it, in order."""

    start: int
    end: int
    tags: tuple[Tag, ...]

    def has(self, *concepts: str) -> bool:
        return any(t.concept in concepts for t in self.tags)

    def of(self, *concepts: str) -> list[Tag]:
        return [t for t in self.tags if t.concept in concepts]


@dataclass(frozen=True, slots=True)
class Tagged:
    text: str
    clauses: tuple[Clause, ...]
    _by_end: tuple[Tag, ...] = field(init=False, compare=False, repr=False)
    """The example marks (MENTION, NOTIFY), each once, by end."""
    _ends: tuple[int, ...] = field(init=False, compare=False, repr=False)
    _starts: tuple[int, ...] = field(init=False, compare=False, repr=False)
    """Their ends and starts, sorted: `example` is asked once per match of a rule, and a
    text may hold many."""

    def __post_init__(self) -> None:
        marks = {t for c in self.clauses for t in c.tags if t.concept in ("MENTION", "NOTIFY")}
        by_end = tuple(sorted(marks, key=lambda t: t.end))
        object.__setattr__(self, "_by_end", by_end)
        object.__setattr__(self, "_ends", tuple(t.end for t in by_end))
        object.__setattr__(self, "_starts", tuple(sorted(t.start for t in marks)))

    @property
    def quotes(self) -> tuple[tuple[int, int], ...]:
        """Spans inside quotation marks (the marks excluded), found once a rule asks."""
        return _quotes(self.text)

    def quoted(self, start: int, end: int) -> bool:
        return self.quote_of(start, end) >= 0

    def quote_of(self, start: int, end: int) -> int:
        """The index of the quotation holding `[start, end)`, or -1 (quotations come in
        order and never overlap: the last one starting by `start` is the only candidate)."""
        quotes = self.quotes
        i = bisect.bisect_right(quotes, (start, len(self.text) + 1)) - 1
        return i if i >= 0 and end <= quotes[i][1] else -1

    def listed(self, start: int) -> bool:
        """What starts at `start` ends a list of quoted examples that an example marker
        opens (`phrases such as "ignore all previous instructions" or requests to reveal
        the system prompt`): one more item of the list, unquoted, joined by "or"/"and", in
        a text that marks it as an example once more elsewhere."""
        lo = bisect.bisect_left(self._ends, start - _LIST_REACH)
        hi = bisect.bisect_right(self._ends, start)
        opened = [
            t for t in self._by_end[lo:hi] if _EXAMPLE_MARK.fullmatch(self.text, t.start, t.end)
        ]
        if not opened or len(self._by_end) < 2:
            return False
        gap_start = opened[-1].end
        quotes = self.quotes
        first = bisect.bisect_left(quotes, (gap_start, gap_start))
        last = bisect.bisect_right(quotes, (start, start))
        inside = [(a, b) for a, b in quotes[first:last] if b <= start]
        if not inside:
            return False
        at = gap_start
        for a, b in inside:
            if _LIST_GAP.fullmatch(self.text, at, a) is None:
                return False
            at = b
        return _LIST_LAST.fullmatch(self.text, at, start) is not None

    def example(self, start: int, end: int) -> bool:
        """`[start, end)` is written as an example: right after an example marker (`e.g.`,
        `such as`, `like`) in a text that frames it once more elsewhere (`detects`, `risky
        pattern`, `notifies`): a security tool naming what it looks for."""
        before = bisect.bisect_right(self._ends, start)
        near = bisect.bisect_left(self._ends, start - _EXAMPLE_GAP_MAX)
        introducing = [
            t
            for t in self._by_end[near:before]
            if t.concept == "MENTION" and _EXAMPLE_GAP.fullmatch(self.text, t.end, start)
        ]
        # Another mark outside the span: every mark ending by `start` or starting at `end`
        # or later, less the introducing ones (which all end by `start`).
        after = len(self._starts) - bisect.bisect_left(self._starts, end)
        return bool(introducing) and before + after > len(introducing)


# --- the compiled lexicon -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Multi:
    concept: str
    rest: tuple[tuple[str, bool, int], ...]
    """(word, is prefix, words allowed before it) for each word after the first."""
    needs: frozenset[str]
    """The words of `rest` written out whole: a text without one of them cannot match."""


@dataclass(slots=True)
class _Table:
    exact: dict[str, set[str]]
    prefix: dict[str, set[str]]
    multi: dict[tuple[str, bool], list[_Multi]]
    longest: int = 0
    heads: frozenset[str] = frozenset()
    """The first `_MIN_STEM` letters of every prefix entry, one word or several: a word
    that begins otherwise has no prefix to look up."""


_MIN_STEM = 3
_COMPOUND_TAILS = frozenset({"INSTR", "CONFIG", "LIMITS", "CONVO", "SECRET", "SINK", "PROMPT"})


def _words(entry: str, kind: ViewKind) -> list[tuple[str, bool, int]]:
    out: list[tuple[str, bool, int]] = []
    gap = 0
    for part in entry.split():
        if part.startswith("~"):
            gap = int(part[1:])
            continue
        prefix = part.endswith("*")
        pieces = view(part.rstrip("*"), kind).text.split()
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            out.append((piece, prefix and last, gap if i == 0 else 0))
        gap = 0
    return out


def _compile(kind: ViewKind, languages: Iterable[str]) -> _Table:
    table = _Table(exact=defaultdict(set), prefix=defaultdict(set), multi=defaultdict(list))
    for concept, by_language in LEXICON.items():
        for language in languages:
            for entry in filter(
                None, (e.strip() for e in by_language.get(language, "").split("|"))
            ):
                words = _words(entry, kind)
                if not words:
                    continue
                (first, prefix, _), rest = words[0], words[1:]
                table.longest = max(table.longest, len(first))
                if rest:
                    needs = frozenset(w for w, is_prefix, _ in rest if not is_prefix)
                    table.multi[(first, prefix)].append(_Multi(concept, tuple(rest), needs))
                elif prefix and len(first) >= _MIN_STEM:
                    table.prefix[first].add(concept)
                else:
                    table.exact[first].add(concept)
    table.heads = _heads(table)
    return table


def _heads(table: _Table) -> frozenset[str]:
    stems = [*table.prefix, *(word for word, prefix in table.multi if prefix)]
    return frozenset(stem[:_MIN_STEM] for stem in stems if len(stem) >= _MIN_STEM)


def _only(table: _Table, concepts: frozenset[str]) -> _Table:
    """The one-word entries of `table` that tag one of `concepts`, tagging only those."""

    def kept(entries: dict[str, set[str]]) -> dict[str, set[str]]:
        return {word: found & concepts for word, found in entries.items() if found & concepts}

    only = _Table(exact=kept(table.exact), prefix=kept(table.prefix), multi={})
    only.longest, only.heads = table.longest, _heads(only)
    return only


_LATIN = _compile("latin", ("en", "de", "es", "fr", "pt", "it"))
_TAILS = _only(_LATIN, _COMPOUND_TAILS)
_RUSSIAN = _compile("cyrillic", ("ru",))
_CJK_WORDS: dict[str, set[str]] = defaultdict(set)
for _concept, _by_language in LEXICON.items():
    for _word in _by_language.get("cjk", "").split("|"):
        if _word:
            _CJK_WORDS[view(_word, "latin").text.replace(" ", "")].add(_concept)
_HAS_CJK = re.compile("[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_HAS_CYRILLIC = re.compile("[\u0400-\u04ff]")
_HAS_LATIN = re.compile("[A-Za-z\u00c0-\u024f]")


@lru_cache(maxsize=1 << 16)
def _lookup(word: str, russian: bool) -> tuple[frozenset[str], tuple[_Multi, ...]]:
    """Concepts of one word alone, and the multi-word entries it may begin."""
    table = _RUSSIAN if russian else _LATIN
    found = _stems(word, table)
    multi = list(table.multi.get((word, False), ()))
    if word[:_MIN_STEM] in table.heads:
        for length in range(min(len(word), table.longest), _MIN_STEM - 1, -1):
            multi += table.multi.get((word[:length], True), ())
    if not russian and len(word) >= 9:
        found |= _compound_tail(word)
    return frozenset(found), tuple(multi)


def _stems(word: str, table: _Table) -> set[str]:
    found = set(table.exact.get(word, ()))
    if word[:_MIN_STEM] in table.heads:
        for length in range(min(len(word), table.longest), _MIN_STEM - 1, -1):
            found |= table.prefix.get(word[:length], set())
    return found


def _compound_tail(word: str) -> set[str]:
    """A German compound read by its last part (`Systemanweisungen`: instructions)."""
    for cut in range(3, len(word) - 4):
        tail = _stems(word[cut:], _TAILS)
        if tail:
            return tail | _stems(word[:cut], _LATIN)
    return set()


@lru_cache(maxsize=1)
def _cjk() -> re.Pattern[str]:
    """The lexicon's Chinese and Japanese words, longest first, compiled when first needed:
    its few hundred alternatives take longer to compile than a scan of a catalog without
    Chinese or Japanese spends on them."""
    return re.compile("|".join(map(re.escape, sorted(_CJK_WORDS, key=len, reverse=True))))


def cjk_words(text: str) -> int:
    """How many Chinese or Japanese words of the lexicon `text` holds."""
    return len(_cjk().findall(text))


def _matches(word: str, stem: str, prefix: bool) -> bool:
    return word.startswith(stem) if prefix else word == stem


# --- tagging ----------------------------------------------------------------------------------

_LONGEST_WORD = 64
_Token = tuple[str, int, int]
"""(word, start, end) in a view's text."""
_Known = dict[str, tuple[frozenset[str], tuple["_Multi", ...]]]


_WORD = re.compile(r"[^ ]+")
# Three one-letter words in a row. A view holds letters, digits and spaces only; the run
# is looked for after a space (a literal the engine finds fast) and at the start.
_SPELLED = re.compile(r" [^ ](?: +[^ ]){2}(?![^ ])")
_SPELLED_FIRST = re.compile(r"[^ ](?: +[^ ]){2}(?![^ ])")


def _tokens(text: str) -> list[_Token]:
    return [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]


def _tag_view(v: View, original: str, russian: bool) -> Iterator[Tag]:
    matches = list(_WORD.finditer(v.text))
    words = list(map(re.Match.group, matches))
    known = _known(set(words), russian)
    if not russian and not v.text.isascii() and _HAS_CJK.search(v.text) is not None:
        for i in [i for i, word in enumerate(words) if _HAS_CJK.search(word)]:
            yield from _tag_cjk(words[i], matches[i].start(), v, original)
        known = {w: found for w, found in known.items() if not _HAS_CJK.search(w)}
    if known:
        yield from _tag_known(words, matches, known, v, original, russian)
    if _SPELLED.search(v.text) or _SPELLED_FIRST.match(v.text):
        yield from _tag_spelled(_tokens(v.text), v, russian)


def _tag_known(
    words: list[str],
    matches: list[re.Match[str]],
    known: _Known,
    v: View,
    original: str,
    russian: bool,
) -> Iterator[Tag]:
    """The tags of the words in `known`, visited alone (most words of a text are not)."""
    skip = _foreign_tokens(matches, v, original, russian)
    underscored = "_" in original  # a constant or an identifier needs one
    moved = v.origin  # None: the view's spans are the original's
    for i in compress(range(len(words)), map(known.__contains__, words)):
        if i in skip:
            continue
        single, multi = known[words[i]]
        start, end = span = matches[i].span()
        if moved is not None:
            span = v.source_span(start, end)
        if single and underscored and _constant(original, *span):
            single = single - _VERBS
        for concept in single:
            yield Tag(concept, *span)
        for entry in multi:
            last = _follow(words, i, entry)
            if last is not None:
                yield Tag(entry.concept, *v.source_span(start, matches[last].end()))


def _known(words: set[str], russian: bool) -> dict[str, tuple[frozenset[str], tuple[_Multi, ...]]]:
    """Each distinct word of a text that can start a tag, with the multi-word entries whose
    words the text all holds: a text repeats its words, and is read once per word."""
    out: _Known = {}
    blank = _BLANK[russian]
    for word in words - blank:
        if len(word) > _LONGEST_WORD:
            continue  # no word of the lexicon, nor a compound of them, is that long
        read = _of_word(word, russian)
        if read is None:
            if len(blank) < _MAX_BLANK:
                blank.add(word)
            continue
        single, multi, needed, free = read
        if multi:
            multi = (
                free if needed.isdisjoint(words) else tuple(e for e in multi if e.needs <= words)
            )
        if single or multi:
            out[word] = (single, multi)
    return out


@lru_cache(maxsize=1 << 16)
def _of_word(
    word: str, russian: bool
) -> tuple[frozenset[str], tuple[_Multi, ...], frozenset[str], tuple[_Multi, ...]] | None:
    """What `word` tags alone and the multi-word entries it begins (None: nothing), the
    words those entries need, and those entries that need none: a text holding none of the
    words keeps just these, with one set operation."""
    single, multi = _lookup(word, russian)
    if not (single or multi):
        return None
    needed = frozenset().union(*(e.needs for e in multi))
    return single, multi, needed, tuple(e for e in multi if not e.needs)


# Most words of a text tag nothing, and the same ones recur from text to text: they are
# set aside once, by a set difference, instead of being looked up each time.
_BLANK: tuple[set[str], set[str]] = (set(), set())
_MAX_BLANK = 1 << 17


def _tag_hyphenated(text: str) -> Iterator[Tag]:
    """Words split by hyphens, read joined: `ig-nore`, `in-struc-tions`."""
    for match in _HYPHENATED.finditer(text):
        for concept in _joined(match.group(0)):
            yield Tag(concept, *match.span())


@lru_cache(maxsize=1 << 14)
def _joined(word: str) -> frozenset[str]:
    return _lookup(view(word.replace("-", ""), "latin").text, False)[0]


_VERBS = frozenset({"MOVE", "READ", "CALL", "SET", "CHANGE", "ROUTE"})


def _constant(original: str, start: int, end: int) -> bool:
    """A part of a constant or an identifier (`POST_AUTH_SESSION`, `insert_blank_slide`):
    a name, not a verb."""
    written = original[start:end]
    around = original[start - 1 : start] + original[end : end + 1]
    return len(written) > 1 and "_" in around


def _foreign_tokens(
    matches: list[re.Match[str]], v: View, original: str, russian: bool
) -> set[int]:
    """Words written wholly in the other script: a Russian word seen through the Latin
    view (`по` reads `no`) says nothing in English, and the reverse."""
    if original.isascii() or not _HAS_CYRILLIC.search(original):
        return set()
    other = _HAS_LATIN if russian else _HAS_CYRILLIC
    own = _HAS_CYRILLIC if russian else _HAS_LATIN
    out = set()
    for i, match in enumerate(matches):
        begin, stop = v.source_span(*match.span())
        written = original[begin:stop]
        if other.search(written) and not own.search(written):
            out.add(i)
    return out


def _follow(words: list[str], i: int, entry: _Multi) -> int | None:
    """Index of the last word of `entry` starting at word `i`, or None."""
    at = i
    for stem, prefix, gap in entry.rest:
        for step in range(1, gap + 2):
            if at + step < len(words) and _matches(words[at + step], stem, prefix):
                at += step
                break
        else:
            return None
    return at


def _tag_cjk(word: str, start: int, v: View, original: str) -> Iterator[Tag]:
    for match in _cjk().finditer(word):
        for concept in _CJK_WORDS[match.group(0)]:
            yield Tag(concept, *v.source_span(start + match.start(), start + match.end()))
    if _HAS_LATIN.search(word):  # an identifier or English word glued to CJK text
        for m in re.finditer(r"[a-z0-9]{3,}", word):
            span = v.source_span(start + m.start(), start + m.end())
            single = _lookup(m.group(0), False)[0]
            if _constant(original, *span):
                single = single - _VERBS
            for concept in single:
                yield Tag(concept, *span)


def _tag_spelled(tokens: list[_Token], v: View, russian: bool) -> Iterator[Tag]:
    """Words spelled out letter by letter (`i g n o r e`), joined and segmented."""
    run: list[_Token] = []
    for token in [*tokens, ("", 0, 0)]:
        if len(token[0]) == 1:
            run.append(token)
            continue
        if len(run) >= 3:
            yield from _segment(run, v, russian)
        run = []


def _segment(run: list[_Token], v: View, russian: bool) -> Iterator[Tag]:
    letters = "".join(t[0] for t in run)
    table = _RUSSIAN if russian else _LATIN
    at = 0
    while at < len(letters) - 1:
        for length in range(min(len(letters) - at, 16), 1, -1):
            piece = letters[at : at + length]
            concepts = table.exact.get(piece, set()) | (
                table.prefix.get(piece, set()) if length >= _MIN_STEM else set()
            )
            if concepts:
                span = v.source_span(run[at][1], run[at + length - 1][2])
                yield from (Tag(c, *span) for c in concepts)
                at += length
                break
        else:
            at += 1


# Starts only at a word's start, and never backtracks into a run of letters: the same
# matches as `[^\W\d_]+(?:-[^\W\d_]+)+`, without retrying at every letter.
_HYPHENATED = re.compile(r"(?<![^\W\d_])[^\W\d_]++(?:-[^\W\d_]++)+")


URL = re.compile(
    r"\b(?:https?|ftp|wss?)://[^\s<>\"'`)\]\u3000-\u30ff\u4e00-\u9fff\uff00-\uff0f\uff1a-\uff20]+"
    r"|\b(?:javascript|data):[^\s<>\"'\u3000-\u30ff\u4e00-\u9fff\uff00-\uff0f\uff1a-\uff20]+",
    re.IGNORECASE,
)
"""Links as written in prose; the link check and the directive rules read the same ones. A
link ends at CJK letters and CJK or full-width punctuation (`（https://example.jp/）に`), as at
a space."""


def may_link(text: str) -> bool:
    """Whether `text` holds what every `URL` match holds: `://`, or the `t:`/`a:` that ends
    `javascript:`/`data:` (a plain substring test, far cheaper than the pattern)."""
    return "://" in text or "t:" in text or "a:" in text or "T:" in text or "A:" in text


_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("URL", URL),
    ("EMAIL", re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    (
        "ENVSECRET",
        re.compile(
            r"\$\{?[A-Z][A-Z0-9_]*\}?|%[A-Z][A-Z0-9_]*%|\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*"
            r"(?:TOKEN|SECRET|KEY|PASSWORD|PASSWD|PAT|CREDENTIALS?)\b"
        ),
    ),
    (
        "PAYEE",
        re.compile(
            r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b|\b0x[0-9a-fA-F]{40}\b"
            r"|\bbc1[a-z0-9]{25,60}\b|(?i:account|konto|cuenta|compte|conta|conto|сч[её]т|"
            r"口座|账户|账号)\D{0,12}\d{5,}"
        ),
    ),
)


_DIGITS4 = re.compile(r"\d{4}")
_DIGITS5 = re.compile(r"\d{5}")
_IBAN_HEAD = re.compile(r"[A-Z]{2}\d{2}")
_KEY_NAMES = ("_TOKEN", "_SECRET", "_KEY", "_PASSW", "_PAT", "_CREDENTIAL")


def _payee_marked(text: str) -> bool:
    """Four digits in a row, `0x` or `bc1` (what an account number holds), and what one
    of the patterns needs: an IBAN's head or five digits."""
    return (
        "0x" in text
        or "bc1" in text
        or (
            _DIGITS4.search(text) is not None
            and (_DIGITS5.search(text) is not None or _IBAN_HEAD.search(text) is not None)
        )
    )


# Each pattern runs only on texts holding what every match of it holds, tested with
# substring checks and patterns that open with a character class (which the engine scans
# fast): a link's scheme (`may_link`), an address's `@`, an environment secret's `$`, `%`
# or `_TOKEN`-like tail, an account number's digits.
_MARKERS: dict[str, Callable[[str], bool]] = {
    "URL": may_link,
    "EMAIL": lambda t: "@" in t,
    "ENVSECRET": lambda t: (
        "$" in t or "%" in t or ("_" in t and any(map(t.__contains__, _KEY_NAMES)))
    ),
    "PAYEE": _payee_marked,
}


@lru_cache(maxsize=1 << 15)
def concepts_in(text: str) -> frozenset[str] | None:
    """The concepts `tag_text(text)` may find, read from the text's words alone, without
    placing them (a superset: a word's reading in its sentence only ever removes a tag).
    None for text only tagging can read: Chinese, Japanese, Cyrillic, spelled-out words."""
    v = view(text, "latin")
    if not text.isascii() and (_HAS_CJK.search(v.text) or _HAS_CYRILLIC.search(text)):
        return None
    if _SPELLED.search(v.text) or _SPELLED_FIRST.match(v.text):
        return None
    found: set[str] = set()
    for single, multi in _known(set(v.text.split()), False).values():
        found.update(single)
        found.update(entry.concept for entry in multi)
    found.update(concept for concept, _ in _PATTERNS if _MARKERS[concept](text))
    if "-" in text:
        found.update(t.concept for t in _tag_hyphenated(text))
    return frozenset(found)


def may_hold(text: str, concepts: frozenset[str]) -> bool:
    """Whether tagging `text` can find one of `concepts` (when not, the tags need not be
    placed at all)."""
    possible = concepts_in(text)
    return possible is None or not possible.isdisjoint(concepts)


def first_directive(
    text: str, found: Iterable[_T], span: Callable[[_T], tuple[int, int]]
) -> tuple[_T, bool] | None:
    """The first of `found` (matches in `text`) not written as an example (and False), else
    the first one (and True), else None: a copy named as an example ("risky commands such
    as `curl ... | sh`") must not hide the same command given as a step after it. The text
    is tagged only once something is found."""
    first: _T | None = None
    for item in found:
        if not tag_text(text).example(*span(item)):
            return item, False
        first = item if first is None else first
    return None if first is None else (first, True)


@lru_cache(maxsize=1 << 15)
def tag_text(text: str) -> Tagged:
    """The concepts of `text`, grouped by sentence."""
    tags: set[Tag] = set(_tag_view(view(text, "latin"), text, False))
    for concept, pattern in _PATTERNS:
        if _MARKERS[concept](text):
            tags.update(Tag(concept, *m.span()) for m in pattern.finditer(text))
    if "-" in text:
        tags.update(_tag_hyphenated(text))
    if not text.isascii() and _HAS_CYRILLIC.search(text):
        tags.update(_tag_view(view(text, "cyrillic"), text, True))
    if not tags:
        return Tagged(text=text, clauses=())
    return Tagged(text=text, clauses=_clauses(text, _read(text, _own(_linked(text, tags)))))


def _linked(text: str, tags: set[Tag]) -> set[Tag]:
    """A word of the lexicon inside a link's host is part of its address ("www.post.example"
    posts nothing); its path and query, and what the patterns find there (`$API_KEY`), are
    read as written."""
    hosts = sorted(_host(text, t) for t in tags if t.concept == "URL")
    if not hosts:
        return tags
    starts = [start for start, _ in hosts]  # the matches of one pattern never overlap

    def in_host(t: Tag) -> bool:
        i = bisect.bisect_right(starts, t.start) - 1
        return i >= 0 and t.end <= hosts[i][1]

    return {t for t in tags if t.concept in _PATTERN_CONCEPTS or not in_host(t)}


def _host(text: str, link: Tag) -> tuple[int, int]:
    scheme = text.find("://", link.start, link.end)
    if scheme < 0:
        return link.start, link.start  # `javascript:`, `data:`: no host
    end = _HOST_END.search(text, scheme + 3, link.end)
    return link.start, end.start() if end else link.end


_HOST_END = re.compile(r"[/?#]")
_PATTERN_CONCEPTS = frozenset(concept for concept, _ in _PATTERNS)


def _own(tags: set[Tag]) -> set[Tag]:
    """ "the user's key" is the user's, not said to the user: a USER inside USERS goes."""
    owners = [t for t in tags if t.concept == "USERS"]
    if not owners:
        return tags
    return {
        t
        for t in tags
        if t.concept != "USER" or not any(o.start <= t.start and t.end <= o.end for o in owners)
    }


# What a word does in its sentence, where the word alone misleads: the user after "by" acts
# rather than hears ("is mentioned by the user"), and after "for" is served; "is ignored",
# in any of the languages, states what the tool does rather than orders it (a drop stated,
# `_BECOMES`); a "key" of a key-value pair holds no secret, and "access keys" are read by
# nobody.
_AGENT = re.compile(
    r"(?:\bby|\bpar|\bvon|\bvom|\bpor|\bpelo|\bpela|\bdal|\bdall|\bdalla)"
    r"\s+(?:(?:the|a|an|l|le|la|el|o|der|dem|den)\s*'?\s*)?$",
    re.IGNORECASE,
)
# "convert for the user": the user a conversion serves, not the user who chose or is told
_FOR_WHOM = re.compile(
    r"\b(?:convert|format|translat|localiz|summar|explain|rephras)\w*(?:\s+[\w/-]+){0,2}\s+for\s+"
    r"(?:the\s+)?$",
    re.IGNORECASE,
)
# "is ignored" in each language: the auxiliary before the participle (Spanish `se` before
# the verb), the Russian reflexive ending, the Japanese passive after the verb, the Chinese
# 被 before it. Modal, future and jussive forms ("must be ignored", "seront ignorées",
# "ignoriert werden", "пусть игнорируются") stay orders.
_STATED = re.compile(r"\b(?:is|are|was|were|gets|get|got|being)\s+(?:\w+ly\s+)?$", re.IGNORECASE)
_STATED_DE = re.compile(r"\b(?:werden|wird|wurden|wurde)\s+(?:\w+\s+)?$", re.IGNORECASE)
_STATED_ES = re.compile(r"\b(?:se|son|es|fueron|fue)\s+$", re.IGNORECASE)
_STATED_FR = re.compile(r"\b(?:sont|est|été)\s+$", re.IGNORECASE)
_STATED_PT = re.compile(r"(?:\bsão|\bsao|\bfoi|\bforam|(?<!\w)é)\s+$", re.IGNORECASE)
_STATED_IT = re.compile(r"\b(?:vengono|viene|venivano|veniva|sono)\s+$", re.IGNORECASE)
_STATED_JA = re.compile("さ?れ")
_STATED_ZH = re.compile("被$")
_ALWAYS = re.compile("")
_FUTURE_DE = re.compile(r"(?:iert|tet|vergessen)\s+werden\b", re.IGNORECASE)
_JUSSIVE_RU = re.compile(r"\b(?:пусть|пускай)\b", re.IGNORECASE)
# "the filter ignores ...": an English verb in -s states what its subject does, as the
# passive does; it orders only when the model is the subject ("the assistant ignores ...").
_SAYS_EN = frozenset({"ignores", "disregards", "discards", "forgets", "drops", "skips"})
# ... unless what it drops is instructions or a prompt ("the reader ignores previous
# instructions"): no tool's own work
_NOT_ORDERS = re.compile(
    r"(?![^.;:!?\n]{0,40}?\b(?:instructions?|prompts?|told|directions|guidelines)\b)",
    re.IGNORECASE,
)
_MODEL_SAYS = re.compile(
    r"\b(?:you|assistant|model|ai|agent|llm|claude|gpt|chatgpt)\s+(?:\w+ly\s+)?"
    rf"(?:{'|'.join(sorted(_SAYS_EN))})\b",
    re.IGNORECASE,
)
# an error message, a commit message: a program's text, not the conversation's
_NOT_CHAT = re.compile(
    r"\b(?:error|status|commit|log|exception|warning|failure|validation)\s+$", re.IGNORECASE
)
_NOT_CHAT_AFTER = re.compile(
    r"\s+(?:d'|d’|de\s+|di\s+|do\s+|об\s+)(?:erreur|error|errore|erro|ошибк)", re.IGNORECASE
)
# "detects jailbreaks", "a jailbreak test suite": attacks named as what a tool tests or
# detects (each part bounded, so a run of spaces is not split every way)
_TESTED = re.compile(
    r"(?:\s{0,3}(?:,|/|&|and\b|or\b)\s{0,3}\w+(?:-\w+)?)?[\s-]{1,3}"
    r"(?:tests?|suites?|detect\w*|attempts?|probes?|classif\w*|scann\w*|scor\w*|patterns?|"
    r"benchmark\w*)\b",
    re.IGNORECASE,
)
_DETECTS = re.compile(
    r"\b(?:detect\w*|flag\w*|block\w*|catch\w*|scan\w*|test\w*|classif\w*)\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)
# "when it last changed": a time, not a change asked for
_LAST = re.compile(r"\blast\s+$", re.IGNORECASE)
# "access keys", "access tokens": a kind of credential, not a read
_KIND_OF = re.compile(r"\s+(?:keys?|tokens?|ids?|rights|levels?|control|logs?|codes?)\b", re.I)
_NOT_SECRET = re.compile(r"[\s-]*(?:value|pair|word|stroke|board|press|frame|name|path)", re.I)
# "replace `x` with the actual value": a placeholder to fill in, not a text taking precedence
_PLACEHOLDER = re.compile(
    r"[^.\n]{0,60}?\bwith\s+(?:the\s+|your\s+)?(?:actual|own|real|correct|desired|appropriate)",
    re.I,
)


@dataclass(frozen=True, slots=True)
class _Reading:
    """A concept's word that, with `pattern` just before (or after) it, means otherwise."""

    pattern: re.Pattern[str]
    after: bool = False
    words: frozenset[str] = frozenset()
    """The written words it applies to (all when empty); `*` stands for any ending or start."""
    unless: re.Pattern[str] | None = None
    """Found around the word (60 characters before to 15 after), the word means what it says."""

    def applies(self, written: str) -> bool:
        word = written.lower()
        return not self.words or any(_like(word, w) for w in self.words)


def _like(word: str, form: str) -> bool:
    if form.endswith("*"):
        return word.startswith(form[:-1])
    if form.startswith("*"):
        return word.endswith(form[1:])
    return word == form


_PARTICIPLES = frozenset({"*ado", "*ados", "*ada", "*adas", "*ido", "*idos", "*ida", "*idas"})
_READING: dict[str, tuple[_Reading, ...]] = {
    "USER": (_Reading(_AGENT), _Reading(_FOR_WHOM)),
    "USERS": (_Reading(_AGENT),),
    "DROP": (
        _Reading(_STATED, words=frozenset({"*ed", "forgotten"})),
        _Reading(_NOT_ORDERS, after=True, words=_SAYS_EN, unless=_MODEL_SAYS),
        _Reading(_STATED_DE, words=frozenset({"*iert", "*tet", "vergessen"}), unless=_FUTURE_DE),
        _Reading(_STATED_ES, words=frozenset({"*a", "*an"}) | _PARTICIPLES),
        _Reading(_STATED_FR, words=frozenset({"*é", "*és", "*ée", "*ées"})),
        _Reading(_STATED_PT, words=_PARTICIPLES),
        _Reading(_STATED_IT, words=frozenset({"*ato", "*ati", "*ata", "*ate"})),
        _Reading(_ALWAYS, words=frozenset({"*ются", "*ется"}), unless=_JUSSIVE_RU),
        _Reading(_STATED_JA, after=True, words=frozenset({"無視", "破棄"})),
        _Reading(_STATED_ZH, words=frozenset({"忽略", "忽视", "无视", "抛弃"})),
    ),
    "CHATDATA": (
        _Reading(_NOT_CHAT, words=frozenset({"message", "messages"})),
        _Reading(
            _NOT_CHAT_AFTER,
            after=True,
            words=frozenset({"messages", "mensajes", "mensagens", "messaggi", "сообщени*"}),
        ),
    ),
    "SECRET": (_Reading(_NOT_SECRET, after=True, words=frozenset({"key", "keys"})),),
    "READ": (_Reading(_KIND_OF, after=True, words=frozenset({"access"})),),
    "CHANGE": (_Reading(_LAST, words=frozenset({"changed", "modified", "updated"})),),
    "MODE": (
        _Reading(_DETECTS, words=frozenset({"jailbreak", "jailbreaks"})),
        _Reading(_TESTED, after=True, words=frozenset({"jailbreak", "jailbreaks"})),
    ),
    "PRIORITY": (_Reading(_PLACEHOLDER, after=True, words=frozenset({"replace*"})),),
    "FIRST": (_Reading(re.compile(r"\s+names?\b", re.I), after=True, words=frozenset({"first"})),),
}


_BECOMES = {"DROP": "DROPPED"}
"""Misread words that still say something: "are ignored" states a drop, which the rules
weigh apart from an order to drop; other misread words go."""


def _read(text: str, tags: set[Tag]) -> set[Tag]:
    out: set[Tag] = set()
    for t in tags:
        if t.concept not in _READING or not _misread(text, t):
            out.add(t)
        elif t.concept in _BECOMES:
            out.add(t._replace(concept=_BECOMES[t.concept]))
    return out


def _misread(text: str, tag: Tag) -> bool:
    written = text[tag.start : tag.end]
    return any(
        reading.applies(written)
        and (
            reading.pattern.match(text, tag.end) is not None
            if reading.after
            else reading.pattern.search(text, max(0, tag.start - 30), tag.start) is not None
        )
        and (
            reading.unless is None
            or reading.unless.search(text, max(0, tag.start - 60), tag.end + 15) is None
        )
        for reading in _READING.get(tag.concept, ())
    )


# A full stop ends a sentence before a capital, or before a tool's name written in lower
# case ("... in A1 notation. sheet_open must ..."); not after an initial ("e.g. x_y") or an
# abbreviation ("incl. wifi_psk").
_CLAUSE_END = re.compile(
    r"[.!?](?=\s+[^a-z\s]|\s*$)|(?<![\s.][a-z])(?<!incl)(?<!approx)(?<!\bcf)(?<!etc)(?<!\bvs)"
    r"(?<!viz)(?<!dept)(?<!\bno)\.(?=\s+[a-z][a-z0-9]*[_.-][a-z])|[\n。！？]"
)


_WINDOW = 300
"""A sentence longer than two of these is read in windows of that size, each overlapping the
next by half: no rule reaches that far, and a text without full stops (a log, a dump) would
otherwise be one sentence whose every pair of words is weighed."""


_BY_PLACE = itemgetter(1, 2, 0)
"""A tag's (start, end, concept)."""


def _clauses(text: str, tags: Iterable[Tag]) -> tuple[Clause, ...]:
    bounds = [0] + [m.end() for m in _CLAUSE_END.finditer(text)] + [len(text)]
    by_clause: dict[int, list[Tag]] = defaultdict(list)
    ordered = sorted(tags, key=_BY_PLACE)
    for t in ordered:
        by_clause[bisect.bisect_right(bounds, t.start) - 1].append(t)
    out: list[Clause] = []
    for i, found in sorted(by_clause.items()):
        start, end = bounds[i], bounds[i + 1]
        if end - start <= 2 * _WINDOW:
            out.append(Clause(start=start, end=end, tags=tuple(found)))
            continue
        starts = [t.start for t in found]
        for at in range(start, end - _WINDOW, _WINDOW):
            stop = min(at + 2 * _WINDOW, end)
            first, last = bisect.bisect_left(starts, at), bisect.bisect_left(starts, stop)
            inside = tuple(t for t in found[first:last] if t.end <= stop)
            if inside:
                out.append(Clause(start=at, end=stop, tags=inside))
    return tuple(out)


_EXAMPLE_MARK = re.compile(
    r"(?i:e\.?\s?g|such\s+as|like|for\s+(?:example|instance)|z\.?\s?b|zum\s+beispiel|etwa|"
    r"p\.?\s?ej|por\s+ejemplo|por\s+exemplo|par\s+exemple|comme|como|per\s+esempio|"
    r"ad\s+esempio|come|например)|例如|比如|例えば"
)
"""The MENTION words that open a list of examples."""
_LIST_REACH = 200
_LIST_SEP = r"[\s,、，\"'`«»“”„‘’「」『』()（）]*"
_LIST_GAP = re.compile(rf"{_LIST_SEP}(?:(?:or|and|или|и|或者|或|和|や)\s*{_LIST_SEP})?")
"""What stands before each quoted item of a list: separators, and an "or" or "and"."""
_LIST_LAST = re.compile(
    r"[\s,、，\"'`»”’」』)）]*(?:or|and|oder|und|ou|et|o|y|e|или|и|或者|或|和|や|または)[\s,]*"
    r"(?:[\w-]+\s+){0,3}[\w-]*"
)
"""Between the last quoted item and the unquoted one: a conjunction and a few words
introducing it ("or requests to", "或要求"); words apart by spaces, so that a long run of
letters is not split every way before it fails."""
# What may stand between an example marker and its example: `e.g. <system>`, `such as
# `curl ... | sh``.
_EXAMPLE_GAP = re.compile(r"[\s.,:;`'\"«“„‘(]{0,4}")
_EXAMPLE_GAP_MAX = 4
"""The longest gap `_EXAMPLE_GAP` takes."""
_QUOTE = re.compile(
    r"\"([^\"]{2,}?)\"|(?<![\w'])'([^'\n]{2,}?)'(?![\w])|«([^»]+)»|„([^“”\"]+)[“”\"]"
    r"|“([^”]+)”|‘([^’]+)’|「([^」]+)」|『([^』]+)』|‹([^›]+)›"
)


@lru_cache(maxsize=1 << 10)
def _quotes(text: str) -> tuple[tuple[int, int], ...]:
    spans = []
    for m in _QUOTE.finditer(text):
        group = next(g for g in range(1, (m.lastindex or 0) + 1) if m.group(g) is not None)
        spans.append(m.span(group))
    return tuple(spans)
