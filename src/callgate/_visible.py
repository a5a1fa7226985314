"""Text that shows as itself: the one way every surface writes a hostile value.

Values, reasons and names reach people from models, tools and peers. A character that does
not show as itself — a control (a NUL, a terminal escape, a line break that starts a fake
question), a bidirectional override, a zero-width mark, a lone surrogate, an unassigned
code point — is written as a `\\uXXXX` escape, so a person never reads a text other than
the one that runs, and a lone surrogate cannot break an encoding.
"""

from __future__ import annotations

import unicodedata

__all__ = ["visible"]

_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_BLOCK = "\n\r\t"


def visible(text: str, *, lines: bool = False) -> str:
    """`text` with every character that does not show as itself escaped; `lines` keeps
    line breaks and tabs (for text shown as a block)."""
    if text.isprintable():
        return text
    keep = _BLOCK if lines else ""
    return "".join(c if c in keep else _escaped(c) for c in text)


def _escaped(char: str) -> str:
    if unicodedata.category(char) not in _HIDDEN:
        return char
    code = ord(char)
    return f"\\U{code:08x}" if code > 0xFFFF else f"\\u{code:04x}"
