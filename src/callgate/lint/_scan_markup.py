"""Pseudo-system tags, hidden markup and padding, and excessive length."""

from __future__ import annotations

import re
from collections.abc import Iterator

from callgate.lint._alternatives import Alternatives
from callgate.lint._concepts import first_directive
from callgate.lint._finding import LintRule, Severity
from callgate.lint._scan_site import ScanHit, TextSite

__all__ = ["RULES", "check_length", "check_markup", "check_tags", "comment_bodies"]

H, M, L = Severity.HIGH, Severity.MEDIUM, Severity.LOW

RULES = (
    LintRule(
        id="S001",
        name="pseudo-system-tag",
        kind="scan",
        severity=H,
        summary="Text carries chat-template or pseudo-system markup (`<SYSTEM>`, "
        "`<IMPORTANT>`, `[INST]`, `<|im_start|>`, `</description>`).",
        why="Models give such markup the weight of system or developer text; in a tool "
        "description it only serves to smuggle instructions.",
        fix="Remove the markup; write plain prose about what the tool does.",
    ),
    LintRule(
        id="S012",
        name="excessive-length",
        kind="scan",
        severity=M,
        summary="A description or value long enough to bury instructions (description over "
        "2,048 characters, any other string over 512).",
        why="Reviewers skim long text; attackers put the payload past the part anyone reads.",
        fix="Shorten the text; move reference material out of the declaration.",
    ),
    LintRule(
        id="S013",
        name="hidden-markup",
        kind="scan",
        severity=M,
        summary="HTML or Markdown comments, invisible styling or whitespace padding that "
        "hide text from a human reader but not from the model.",
        why="A renderer hides the comment or the text below the padding; the model reads it.",
        fix="Remove the comment or padding; everything in a declaration is read by the model.",
    ),
)

_STRONG = (
    "system|important|instructions?|sys|system[-_ ]?(?:prompt|message|reminder|note|"
    "instruction)|admin(?:_override)?|override|developer|inst|"
    "[\\w-]*_instructions?|tool_instructions?|user_instructions?|system[-_][\\w-]+|"
    "важно|система|инструкци[яи]|системн\\w*"
)
_WEAK = "assistant|root|prompt|secret|hidden|context|administrator|policy"

_TAG = re.compile(rf"<\s*/?\s*(?P<name>{_STRONG})(?:\s[^<>]{{0,40}})?\s*/?>", re.IGNORECASE)
_WEAK_PAIR = re.compile(
    rf"<\s*(?P<name>{_WEAK})\s*>.{{1,2000}}?<\s*/\s*(?P=name)\s*>", re.IGNORECASE | re.DOTALL
)
_TEMPLATE = Alternatives.of(
    (
        (
            ("<|",),
            r"<\|\s*(?:im_start|im_end|system|endoftext|begin_of_text|start_header_id|eot_id)"
            r"\s*\|>",
        ),
        (("<<",), r"<<\s*/?\s*sys\s*>>"),
        (("{{",), r"\{\{\s*/?\s*(?:system|sys|admin|instructions?|important)\s*\}\}"),
        (("[",), r"\[\s*/?\s*(?:inst|system|important|admin|важно|система)(?:[ _-]\w+){0,2}\s*\]"),
        # A run of `#` is matched only from its first one, and a heading only from the
        # start of its own line (`\s*` after `^` spanned the blank lines above it): tried
        # at every position, either was quadratic on a long run of `#` or of line ends.
        (("##",), r"^[^\S\n]*#{2,}\s*(?:system|instructions?|important)\s*$"),
        (("##",), r"(?<!#)#{2,}\s*(?:system|instructions?|important)\s*:"),
        (("</",), r"</\s*(?:description|tool_description|tool|function|tools|parameters)\s*>"),
    ),
    re.IGNORECASE | re.MULTILINE,
    gate=("<", "{{", "[", "##"),
)

_HTML_COMMENT = re.compile(r"<!--(?P<body>.*?)(?:-->|$)", re.DOTALL)
_MD_COMMENT = re.compile(
    r"^\s*\[(?://|comment|_)\]:\s*(?:#|<>)\s*\((?P<body>[^)\n]*)\)", re.IGNORECASE | re.MULTILINE
)
_INVISIBLE_STYLE = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px)?\b|"
    r"opacity\s*:\s*0(?:\.0+)?\b|<\s*\w+[^>]*\shidden\b",
    re.IGNORECASE,
)
_PADDING = re.compile(r"(?:[ \t]*\n){12,}|[ \t\u00a0]{60,}")
# What the patterns above need, found fast (a pattern that opens with a literal or a
# character class is scanned by the engine without trying every position).
_STYLE_WORDS = ("display", "visibility", "font-size", "opacity")
_STYLE_WORD = re.compile("|".join((*_STYLE_WORDS, "<")), re.IGNORECASE)
_SPACE_RUN = re.compile("[ \t\u00a0]{60}")

DESCRIPTION_LIMIT = 2048
VALUE_LIMIT = 512


def check_tags(site: TextSite) -> Iterator[ScanHit]:
    """S001: strong tag names anywhere; weak ones (`<secret>`) only as an open/close pair,
    since `Bearer <secret>` is an ordinary placeholder. Low when every match is written as
    an example (a detector naming what it detects)."""
    if not any(map(site.text.__contains__, "<[#{")):
        return
    judged = first_directive(site.text, _tag_matches(site.text), re.Match.span)
    if judged is not None:
        match, example = judged
        end = match.end() if match.re is not _WEAK_PAIR else match.start() + 40
        yield ScanHit(
            rule="S001",
            severity=L if example else H,
            start=match.start(),
            end=min(end, match.end()),
            message="pseudo-system markup" + (" (written as an example)" if example else ""),
        )


def _tag_matches(text: str) -> Iterator[re.Match[str]]:
    """Every match of the tag patterns, pattern by pattern in the order written."""
    tagged = "<" in text  # what `_TAG` and `_WEAK_PAIR` open with
    yield from _TAG.finditer(text) if tagged else ()
    yield from _TEMPLATE.finditer(text)
    yield from _WEAK_PAIR.finditer(text) if tagged else ()


def check_markup(site: TextSite) -> Iterator[ScanHit]:
    """S013: comments with words in them, invisible styling, and padding followed by text."""
    for match in _comments(site.text):
        if len(match.group("body").split()) >= 2:
            yield ScanHit(
                rule="S013",
                severity=M,
                start=match.start(),
                end=match.end(),
                message="comment hidden from rendered text",
                decoded=match.group("body").strip(),
            )
            break
    style = _INVISIBLE_STYLE.search(site.text) if _styled(site.text) else None
    if style is not None:
        yield ScanHit(
            rule="S013",
            severity=M,
            start=style.start(),
            end=style.end(),
            message="styling that hides text from a reader",
        )
    padded = site.text.count("\n") >= 12 or _SPACE_RUN.search(site.text) is not None
    for pad in _PADDING.finditer(site.text) if padded else ():
        rest = site.text[pad.end() :].strip()
        if rest:
            yield ScanHit(
                rule="S013",
                severity=M,
                start=pad.start(),
                end=min(len(site.text), pad.end() + 80),
                message=f"whitespace padding pushes {len(rest)} characters of text out of view",
                decoded=rest[:200],
            )
            break


def _styled(text: str) -> bool:
    """Whether `text` holds what every match of `_INVISIBLE_STYLE` opens with. ASCII text is
    lowered and searched for the words; other text, where case folding has exceptions
    (`ſ` matches `s`), is read by the case-blind pattern."""
    if "<" in text:
        return True
    if text.isascii():
        lowered = text.lower()
        return any(map(lowered.__contains__, _STYLE_WORDS))
    return _STYLE_WORD.search(text) is not None


def check_length(site: TextSite) -> Iterator[ScanHit]:
    """S012: descriptions over 2,048 characters; names, enum values, defaults over 512."""
    limit = DESCRIPTION_LIMIT if site.field in ("description", "other") else VALUE_LIMIT
    if len(site.text) > limit:
        yield ScanHit(
            rule="S012",
            severity=M,
            start=limit,
            end=min(len(site.text), limit + 80),
            message=f"{site.field} is {len(site.text):,} characters long "
            f"(limit {limit:,}); text past the limit is rarely reviewed",
        )


def comment_bodies(text: str) -> list[str]:
    """The text inside HTML and Markdown comments."""
    return [m.group("body") for m in _comments(text)]


def _comments(text: str) -> list[re.Match[str]]:
    html = list(_HTML_COMMENT.finditer(text)) if "<!--" in text else []
    return html + (list(_MD_COMMENT.finditer(text)) if "]:" in text else [])
