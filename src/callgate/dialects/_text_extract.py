"""Find tool calls in free text (dialects.md §8), for models without native tools.

Markup is read first (`<tool_call>`, `[TOOL_CALLS]`, `<|python_tag|>`, `<function=...>`);
when a model uses it, nothing outside it is a call. Otherwise fenced code and the prose
are searched for JSON and pythonic calls of the offered tools. The extractor takes calls
the way the model meant them and never more: a call restated later (a second fence, a
summary) is taken once, a tool declaration written back is not a call, a function
defined or merely named is not called. Every repair, and every fragment left out, is
reported. Work is linear in the text, and bounded: past `MAX_CHARS` the text is not
read, and brackets nested deeper than `MAX_DEPTH` are not decoded, both reported.
"""

from __future__ import annotations

import bisect
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial

from callgate.contract import Tool, ToolCall
from callgate.dialects._aliases import Aliases
from callgate.dialects._repair import budgeted
from callgate.dialects._text_assign import Assignments
from callgate.dialects._text_bind import bind
from callgate.dialects._text_decode import RawCall, decode, decode_call, decode_function, from_value
from callgate.dialects._text_names import Mention, Names
from callgate.dialects._text_scan import Scan, closing
from callgate.dialects._text_signature import order_at, signatures
from callgate.dialects._text_values import Expr, read_value

__all__ = ["MAX_CHARS", "MAX_DEPTH", "Extracted", "extract_calls"]

MAX_CHARS = 256 * 1024
"""Longest text read for calls; the rest is kept as text and reported."""
MAX_DEPTH = 32
"""Deepest bracket nesting decoded, as for arguments (`ArgumentLimits.max_depth`)."""

_FUNCTION_NAME = re.compile(r"([^>\s]{1,200})>")
"""The name after `<function=` up to `>`: a block without one is prose naming the tag."""
_FENCE = re.compile(r"```[ \t]*[\w+-]*[^\n]*\n(.*?)(?:```|\Z)", re.S)
_NOISE = re.compile(r"<\|eom_id\|>|<\|eot_id\|>|</s>|</?tool_call>|\[TOOL_CALLS\]|<\|python_tag\|>")
_MISTRAL_V11 = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*(?=[{\[])", re.S)
_NOT_A_CALL = re.compile(r"(?:\bdef|\bfunction|\bnew|\bclass|\bvoid|\bpublic|\bprivate)[ \t]+$")
_PAREN = re.compile(r"[ \t]*\(")
_BODY = re.compile(r"[ \t]*(?:throws[ \t]+[\w.]+(?:[ \t]*,[ \t]*[\w.]+)*[ \t]*)?\{")
"""After a name's parenthesis on the same line, `{` (or `throws X {`) opens the body of a
function being defined (`String f(AbstractBuild<?, ?> b) {`): a call is never so followed."""
_OPENER = re.compile(r"[(\[{]")
_NAME_TAGS = re.compile(
    r"\s*<name>\s*([^<>]{1,200}?)\s*</name>\s*<(arguments|parameters)>(.*?)</\2>\s*", re.S
)
_RESTART = re.compile(r"""[=:][ \t]*(['"])[^'"\n()\[\]{}]*(\))[ \t]*,[ \t]*\Z""")
_ANALYSIS = re.compile(r"<\|channel\|>analysis<\|message\|>.*?(?:<\|end\|>|\Z)", re.S)
"""OpenAI Harmony's analysis channel: the model's reasoning, where no call is made."""
_LOOK = 200
"""Characters looked at around a call for a string left open before it."""
_THEN_JSON = re.compile(
    r"[ \t]*[`'\"]?(?:[ \t]+(?:function|tool))?"
    r"(?:[ \t]+with[ \t]+(?:the[ \t]+)?(?:following[ \t]+)?(?:parameters|arguments|params|args))?"
    r"[ \t]*:?[ \t]*\n?[ \t]*(?:```[\w]*[ \t]*\n)?[ \t]*"
    r"(?:<\|[a-z_]{1,20}\|>\w{0,20}[ \t]*){0,3}`?(?=\{)"
)
"""After a tool's name: its arguments as JSON, on the next line, fenced, introduced
("`f` with the parameters `{...}`"), or after a chat template's special tokens
(functionary's `<|content|>`, OpenAI Harmony's `<|constrain|>json<|message|>`). The run
of tokens is bounded, so that a match from each mention of a tool stays short."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Extracted:
    """What a model's text contained: prose, and calls of known tools."""

    text: str
    """The prose left when the calls' markup is taken out (all of it when no call)."""
    calls: tuple[ToolCall, ...] = ()
    """Calls in the order written; ids are generated (`synthetic_id`)."""
    dropped: tuple[str, ...] = ()
    """What looked like a call and was not taken, and why (repeats, declarations, limits)."""


@budgeted
def extract_calls(text: str, tools: Iterable[Tool], *, aliases: Aliases | None = None) -> Extracted:
    """The calls of `tools` written anywhere in `text`, repairs reported per call.

    Arguments are typed by the tool's schema where the intent is unambiguous ("3" for an
    integer, `123L` for a Java long); such coercions, JSON repairs, positional arguments
    and unquoted words all appear in `ToolCall.repairs`. A call whose arguments cannot be
    taken literally (`2*pi`, a name where no string is admitted) keeps the model's text as
    its arguments, so the gate answers `invalid` with what to fix.
    """
    names = Names(tools, aliases)
    dropped: list[str] = []
    read = text
    if len(text) > MAX_CHARS:
        read = text[:MAX_CHARS]
        dropped.append(
            f"the text is {len(text)} characters; only the first {MAX_CHARS} were read for calls"
        )
    finder = _Finder(read, names, dropped)
    regions = finder.regions()
    if not regions:
        return Extracted(text=text.strip(), dropped=_counted(dropped))
    if not regions[0].markup:
        regions = _not_examples(read, regions, dropped)
    assignments = Assignments(read, finder.scan, [(r.start, r.end) for r in regions])
    defined = signatures(read, names)
    written = [
        (
            number,
            raw.statement,
            bind(
                raw,
                names.tools.get(raw.name),
                variables,
                order_at(defined, raw.name, region.start, len(raw.positional)),
            ),
        )
        for number, region in enumerate(regions)
        for raw in region.calls
        for variables in [partial(assignments.read, position=region.start)]
    ]
    calls = tuple(_meant(_composed(_named_only(written, names, dropped), names, dropped), dropped))
    return Extracted(text=_prose(text, regions), calls=calls, dropped=_counted(dropped))


_EXAMPLE = re.compile(
    r"(?i)\b(?:for example|for instance|e\.g\.|if you (?:want|need|wish|would like|'d like)"
    r"|alternatively|you (?:could|can) also)\b"
)


def _not_examples(text: str, regions: list[_Region], dropped: list[str]) -> list[_Region]:
    """Regions without the calls the text offers as examples: a call of a tool the text
    already called, after prose that makes it hypothetical ("If you want a different year,
    ...: f(year=2010)", "For example: f(...)"). The model meant the calls before."""
    kept: list[_Region] = []
    called: set[str] = set()
    for region in regions:
        names = {c.name for c in region.calls}
        prose = text[kept[-1].end : region.start] if kept and names <= called else ""
        phrase = _EXAMPLE.search(prose)
        if phrase is not None:
            dropped.append(
                f"{', '.join(sorted(names))}: written after {phrase.group(0)!r} as an example "
                "of a tool already called; not another call"
            )
            continue
        kept.append(region)
        called |= names
    return kept


@dataclass(slots=True)
class _Region:
    start: int
    end: int
    calls: list[RawCall]
    markup: bool = False


class _Finder:
    """The regions of one text that hold calls, in text order."""

    def __init__(self, text: str, names: Names, dropped: list[str]) -> None:
        self.text = text
        self.names = names
        self.dropped = dropped
        self.taken: list[tuple[int, int]] = []
        """Spans of the markup blocks read, sorted; none overlaps another."""
        self.scan = Scan(text)
        self.budget = len(text)
        """Characters left for scanning calls inside strings (`_quoted_end`)."""
        self.inner: dict[int, Scan] = {}
        """Scans of the quoted strings calls were found in, by the string's start."""
        self.covered = 0
        """End of the furthest region taken so far: bare candidates come in text order."""

    def regions(self) -> list[_Region]:
        found = list(self._markup())
        if found:
            self._outside_markup(found)
            return found
        if not self.names.lookup:
            return []
        self.mentions = self.names.mentions(self.text)
        self.restarts = self._restarts()
        found = [r for r in self._bare() if r.calls]
        return sorted(found, key=lambda r: r.start)

    def _markup(self) -> Iterator[_Region]:
        for spans, read in (
            (self._tagged("<tool_call>", "</tool_call>"), self._payload),
            (self._tagged("[TOOL_CALLS]", "</s>"), self._mistral),
            (self._tagged("<|python_tag|>", "<|eom_id|>", "<|eot_id|>"), self._payload),
            (self._functions(), self._function),
        ):
            for start, end, body in spans:
                if _inside(start, end, self.taken):
                    continue
                bisect.insort(self.taken, (start, end))
                calls = read(body)
                if not calls and body.strip():
                    self.dropped.append(
                        f"call markup at character {start} holds no call that could "
                        f"be read: {body.strip()[:60]!r}"
                    )
                yield _Region(start=start, end=end, calls=calls, markup=True)

    def _tagged(self, opener: str, *closers: str) -> Iterator[tuple[int, int, str]]:
        """Blocks from `opener` to the first of `closers`, else to the next `opener` or the
        end of the text (a cut-off last block). A tag spelled inside a quoted string
        (`{"text": "</tool_call>"}`, `f(a="<tool_call>")`) is text: it neither starts nor
        ends a block. Closers are looked for in a scan of the block alone, so that a quote
        in the prose before it (`5'11"`) hides nothing."""
        text, at = self.text, 0
        while (start := self._opener(opener, at)) != -1:
            body = start + len(opener)
            limit = self._opener(opener, body)
            limit = len(text) if limit == -1 else limit
            close, closer = _closer(text[body:limit], closers)
            end = limit if close == -1 else body + close + len(closer)
            yield start, end, text[body : limit if close == -1 else body + close]
            at = end

    def _opener(self, tag: str, start: int) -> int:
        """The first `tag` from `start` on that is not inside a string written inside
        brackets; a string in prose may be an inch mark or an apostrophe (`27" monitor`).
        The search goes on after each string skipped, so the work stays linear."""
        at = self.text.find(tag, start)
        while at != -1:
            string = self.scan.string_at(at)
            if string is None or string[0] not in self.scan.bracketed:
                return at
            at = self.text.find(tag, string[1])
        return -1

    def _functions(self) -> Iterator[tuple[int, int, str]]:
        """`<function=name>` blocks; one with no name and `>` after the tag is prose."""
        for start, end, body in self._tagged("<function=", "</function>"):
            if _FUNCTION_NAME.match(body):
                yield start, end, body

    def _function(self, body: str) -> list[RawCall]:
        head = _FUNCTION_NAME.match(body)
        assert head is not None  # `_functions` yields only named blocks
        inner = body[head.end() :]
        deepest = max(Scan(inner).depth.values(), default=0)
        if deepest > MAX_DEPTH:
            self.dropped.append(f"a call nested more than {MAX_DEPTH} levels deep; not read")
            return []
        return [decode_function(head.group(1), inner, self.names)]

    def _payload(self, body: str) -> list[RawCall]:
        """A markup body: one payload, or several (JSON values, pythonic calls) separated
        by `;` or lines."""
        tagged = _NAME_TAGS.fullmatch(body)
        if tagged is not None:  # <name>f</name><arguments>{...}</arguments>
            body = json.dumps({"name": tagged.group(1), "arguments": tagged.group(3).strip()})
        scan = Scan(body)
        if body.lstrip().startswith(
            "<function="
        ):  # XML calls span lines; `decode` reads them whole
            return self._statement(body, scan, 0, len(body))
        calls: list[RawCall] = []
        for start, end in _statements(body, scan):
            if _OPENER.search(body, start, end):  # calls and JSON values have brackets
                calls += self._statement(body, scan, start, end)
        return calls

    def _statement(self, body: str, scan: Scan, start: int, end: int) -> list[RawCall]:
        """One statement of a markup body, else the JSON values written inside it (prose
        around a call); a call no reading accepts only when there are none."""
        openers = [i for i in range(start, end) if i in scan.depth]
        whole: list[RawCall] = []
        if max((scan.depth[i] for i in openers), default=0) <= MAX_DEPTH:
            decoded = decode(body[start:end], self.names, markup=True)
            self.dropped += decoded.dropped
            whole = decoded.calls
            if whole and not all(isinstance(c.arguments, Expr) for c in whole):
                return whole
        return self._values(body, scan, start, end) or whole

    def _values(self, body: str, scan: Scan, start: int, end: int) -> list[RawCall]:
        calls: list[RawCall] = []
        i = start
        while i < end:
            if body[i] not in "{[" or i not in scan.ends:
                i += 1
                continue
            close = scan.end(i)
            if scan.depth[i] > MAX_DEPTH:
                self.dropped.append(f"a call nested more than {MAX_DEPTH} levels deep; not read")
            else:
                part = decode(body[i:close], self.names, markup=True)
                self.dropped += part.dropped
                calls += part.calls
            i = close
        return calls

    def _mistral(self, body: str) -> list[RawCall]:
        """`[{"name": ...}]` (before v11) or `name{...}` (v11 and later)."""
        named = _MISTRAL_V11.match(body)
        if named is None:
            return self._payload(body)
        notes: list[str] = []
        value = read_value(body[named.end() :].strip(), notes)
        if not isinstance(value, dict):
            return []
        return from_value(
            {"name": named.group(1), "arguments": value}, self.names, notes, [], markup=True
        )

    def _outside_markup(self, regions: list[_Region]) -> None:
        rest = _prose(self.text, regions)
        mentions = self.names.mentions(rest)
        if mentions.found:
            self.dropped.append(
                "text outside the call markup names a tool; taken as commentary, not as a call"
            )

    def _bare(self) -> Iterator[_Region]:
        """JSON values and pythonic calls of known tools, outside markup, in text order."""
        mention_at = {m.start: m for m in self.mentions.found}
        starts = sorted([i for i in self.scan.ends if self.text[i] in "{["] + list(mention_at))
        reasoning = [m.span() for m in _ANALYSIS.finditer(self.text)]
        for start in starts:
            if start < self.covered or _inside(start, start + 1, reasoning):
                continue
            mention = mention_at.get(start)
            region = self._json(start) if mention is None else self._mention(mention)
            if region is not None and region.calls:
                self.covered = region.end
                yield region

    def _json(self, start: int) -> _Region | None:
        end = self.scan.end(start)
        if not self.mentions.any_in(start, end):
            return None
        if self.scan.depth.get(start, 0) > MAX_DEPTH:
            self.dropped.append(
                f"characters {start}-{end} are nested more than {MAX_DEPTH} levels deep; not read"
            )
            self.covered = end  # nothing inside it is read either
            return None
        decoded = decode(self.text[start:end], self.names)
        self.dropped += decoded.dropped
        return _Region(start=start, end=end, calls=decoded.calls)

    def _mention(self, mention: Mention) -> _Region | None:
        text, start, name_end, name = self.text, mention.start, mention.end, mention.name
        if _NOT_A_CALL.search(text, max(0, start - 12), start):
            return None
        rest = _PAREN.match(text, name_end)
        if rest is not None:
            if mention.after_dot:
                return None  # obj.name(...) calls a method of some object
            paren = rest.end() - 1
            end = self.scan.end(paren) if paren in self.scan.ends else self._quoted_end(paren)
            after = bisect.bisect_right(self.restarts, paren)
            if after < len(self.restarts) and self.restarts[after] < end:
                end = self.restarts[after]  # the string left open ends the call at its `)`
            if self.scan.depth.get(paren, 0) > MAX_DEPTH:
                self.dropped.append(
                    f"characters {start}-{end} are nested more than {MAX_DEPTH} levels deep; "
                    "not read"
                )
                self.covered = end
                return None
            if _BODY.match(text, end):
                self.dropped.append(f"{name}: defined here (a body follows), not a call")
                return _Region(start=start, end=end, calls=[])
            decoded = decode_call(text[start:end], self.names)
            self.dropped += decoded.dropped
            return _Region(start=start, end=end, calls=decoded.calls)
        then = _THEN_JSON.match(text, name_end)
        if then is None:
            return None
        return self._then_json(start, then.end(), name)

    def _restarts(self) -> list[int]:
        """Ends of calls whose last string was left open (`f(a='x), g(b='y')`): each `)`
        after a string opened by `=` or `:` with no bracket in it, followed by `, ` and a
        call of a tool, where the next such quote on the line opens a value (`b='`) or
        there is none: the string never closed, and the next call starts there. Each
        look is bounded, so the work stays linear."""
        out: list[int] = []
        text = self.text
        for mention in self.mentions.found:
            before = _RESTART.search(text, max(0, mention.start - _LOOK), mention.start)
            if before is None or not _PAREN.match(text, mention.end):
                continue
            quote = before.group(1)
            line_end = text.find("\n", mention.end, mention.end + _LOOK)
            close = text.find(quote, mention.end, line_end if line_end >= 0 else None)
            if close < 0 or text[:close].rstrip()[-1:] in ("=", ":"):
                out.append(before.end(2))
        return out

    def _quoted_end(self, paren: int) -> int:
        """Where a call written inside a quoted string (`'f(a="x")'`, `'f(a='x')'`) ends:
        its own closing parenthesis on that line, else the line's end. These scans share
        a budget of the text's length, so the work stays linear; past it, a call ends at
        the latest with its string."""
        limit = paren + self.budget
        closed, stop = closing(self.text, paren, limit)
        self.budget -= stop - paren
        if closed or stop < limit:  # closed, or the line ended first
            return stop
        string = self.scan.string_at(paren)
        if string is None:
            return self.scan.end(paren)
        inner = self.inner.get(string[0])
        if inner is None:
            inner = self.inner[string[0]] = Scan(self.text[string[0] + 1 : string[1]])
        return string[0] + 1 + inner.end(paren - string[0] - 1)

    def _then_json(self, start: int, brace: int, name: str) -> _Region | None:
        """A tool's name, then its arguments as a JSON object (on the next line, or fenced)."""
        end = self.scan.end(brace)
        if self.scan.depth.get(brace, 0) > MAX_DEPTH:
            return None
        notes: list[str] = []
        value = read_value(self.text[brace:end], notes)
        params = self.names.params(name)
        if not isinstance(value, dict) or not value or not set(value) <= set(params):
            return None
        notes.append("read the JSON object after the tool's name as its arguments")
        call = RawCall(name=name, arguments=value, repairs=tuple(notes))
        return _Region(start=start, end=end, calls=[call])


def _closer(body: str, closers: tuple[str, ...]) -> tuple[int, str]:
    """The first of `closers` in `body` outside its quoted strings; (-1, "") if none.
    Each is searched on after the string it was found in, so the work stays linear."""
    scan = Scan(body)
    at = {tag: body.find(tag) for tag in closers}
    while any(i != -1 for i in at.values()):
        tag = min((t for t in closers if at[t] != -1), key=lambda t: at[t])
        string = scan.string_at(at[tag])
        if string is None:
            return at[tag], tag
        at[tag] = body.find(tag, string[1])
    return -1, ""


def _statements(body: str, scan: Scan) -> Iterator[tuple[int, int]]:
    """Spans of `body` between line ends and `;` outside brackets and strings, the
    blank ones left out (one linear pass over the scan)."""
    strings = iter(scan.strings)
    string = next(strings, None)
    start = inside = 0
    for i, char in enumerate(body):
        inside = max(inside, scan.ends.get(i, 0))
        while string is not None and string[1] < i:
            string = next(strings, None)
        quoted = string is not None and string[0] < i < string[1]
        if char in "\n;" and i >= inside and not quoted:
            if body[start:i].strip():
                yield start, i
            start = i + 1
    if body[start:].strip():
        yield start, len(body)


_Written = list[tuple[int, bool, ToolCall]]


def _named_only(written: _Written, names: Names, dropped: list[str]) -> _Written:
    """`f()` of a tool that requires arguments, where the text also calls `f` with
    arguments, names the tool (prose saying "`f()` returns ...") and is not a call."""
    called = {c.name for _, _, c in written if c.arguments != {}}
    out: _Written = []
    for item in written:
        call = item[2]
        tool = names.tools.get(call.name)
        required = tool is not None and bool(tool.input_schema.get("required"))
        if call.arguments == {} and call.name in called and required:
            dropped.append(f"{call.name}: named again without arguments; not another call")
            continue
        out.append(item)
    return out


def _composed(written: _Written, names: Names, dropped: list[str]) -> _Written:
    """`f(x=g(a=1) * 2)` where `g(a=1)` is taken as a call too: `f` waits on the result of
    `g`, which the host has not run yet, so it is no call of this turn (the model can make
    it once the result is back); reported."""
    called = {c.name for _, _, c in written if not isinstance(c.arguments, str)}
    out: _Written = []
    for item in written:
        call = item[2]
        if isinstance(call.arguments, str):
            text = call.arguments
            found = names.mentions(text).found
            inner = {m.name for m in found if _PAREN.match(text, m.end)} & called
            if inner:
                dropped.append(
                    f"{call.name}: its arguments use the result of {', '.join(sorted(inner))}, "
                    "called in the same text; not a call until that result is back"
                )
                continue
        out.append(item)
    return out


def _meant(written: _Written, dropped: list[str]) -> list[ToolCall]:
    """The calls the model meant: a call restated later (same tool, same arguments once
    read) is taken once; the same call twice as statements of one list is meant twice."""
    first: dict[str, tuple[int, int]] = {}
    out: list[ToolCall] = []
    repeats: dict[int, int] = {}
    for region, statement, call in written:
        key = _identity(call)
        seen = first.get(key)
        if seen is not None and not (seen[0] == region and statement):
            repeats[seen[1]] = repeats.get(seen[1], 0) + 1
            continue
        first.setdefault(key, (region, len(out)))
        out.append(call)
    for index, count in repeats.items():
        times = "once more" if count == 1 else f"{count} more times"
        call = out[index]
        note = f"the same call was written {times}; taken once"
        out[index] = replace(call, repairs=(*call.repairs, note))
        dropped.append(f"{call.name}: a restated call ({times}), taken once")
    return out


def _counted(notes: list[str]) -> tuple[str, ...]:
    """Each note once, with how often it applied."""
    counts = Counter(notes)
    return tuple(n if counts[n] == 1 else f"{n} ({counts[n]} times)" for n in counts)


def _identity(call: ToolCall) -> str:
    return json.dumps([call.name, call.arguments], sort_keys=True, default=repr)


def _inside(start: int, end: int, taken: list[tuple[int, int]]) -> bool:
    """Whether `start:end` overlaps a span of `taken` (sorted, none overlapping another):
    only its neighbours by start can."""
    at = bisect.bisect_left(taken, (start, end))
    return any(s < end and start < e for s, e in taken[max(at - 1, 0) : at + 1])


def _prose(text: str, regions: Iterable[_Region]) -> str:
    out, at = [], 0
    for region in sorted(regions, key=lambda r: r.start):
        out.append(text[at : region.start])
        at = max(at, region.end)
    out.append(text[at:])
    joined = _NOISE.sub("", "".join(out))
    return re.sub(r"\n{3,}", "\n\n", joined).strip()
