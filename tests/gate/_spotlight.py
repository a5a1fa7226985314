"""Reading a spotlighted result back in tests: the tool's text between the run's markers."""

from __future__ import annotations

import re

_BLOCK = re.compile(
    r"\A\[Untrusted output of [^\n]*\]\n«data (?P<b>[0-9a-f]{16})»\n(?P<text>.*)\n«end (?P=b)»\Z",
    re.S,
)


def spotlit(content: str) -> tuple[str, str]:
    """(boundary, the tool's text as escaped) of a spotlighted result; AssertionError when
    `content` is not exactly one spotlighted block."""
    match = _BLOCK.match(content)
    assert match is not None, f"not a spotlighted result: {content[:200]!r}"
    return match["b"], match["text"]


def data_of(content: str) -> str:
    """The tool's text inside a spotlighted result."""
    return spotlit(content)[1]
