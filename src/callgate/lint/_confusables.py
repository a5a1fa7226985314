"""Letters of one script that pass for letters of another, and mixed-script words.

Only the Cyrillic and Greek letters that look like Latin ones (and back) matter for tool
names and for the two languages the phrase rules read; the table is the Latin-lookalike
subset of Unicode TR39 `confusables.txt` for those scripts. Written out here rather than
pulled in as a dependency: it is some fifty pairs, and the scripts themselves come from
`unicodedata`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import lru_cache

__all__ = ["TO_CYRILLIC", "TO_LATIN", "mixed_script", "script_of", "skeleton"]

TO_LATIN: Mapping[str, str] = {
    # Cyrillic
    "а": "a",
    "в": "b",
    "е": "e",
    "ё": "e",
    "з": "3",
    "і": "i",
    "ї": "i",
    "ј": "j",
    "к": "k",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "с": "c",
    "т": "t",
    "у": "y",
    "х": "x",
    "ѕ": "s",
    "ԁ": "d",
    "ԛ": "q",
    "ԝ": "w",
    "һ": "h",
    "ɡ": "g",
    "ӏ": "l",
    "ь": "b",
    "А": "A",
    "В": "B",
    "Е": "E",
    "К": "K",
    "М": "M",
    "Н": "H",
    "О": "O",
    "Р": "P",
    "С": "C",
    "Т": "T",
    "У": "Y",
    "Х": "X",
    "І": "I",
    "Ј": "J",
    "Ѕ": "S",
    "Ԁ": "D",
    "Ԛ": "Q",
    "Ԝ": "W",
    # Greek
    "α": "a",
    "ο": "o",
    "ρ": "p",
    "ν": "v",
    "ι": "i",
    "κ": "k",
    "χ": "x",
    "υ": "u",
    "ε": "e",
    "Α": "A",
    "Β": "B",
    "Ε": "E",
    "Ζ": "Z",
    "Η": "H",
    "Ι": "I",
    "Κ": "K",
    "Μ": "M",
    "Ν": "N",
    "Ο": "O",
    "Ρ": "P",
    "Τ": "T",
    "Υ": "Y",
    "Χ": "X",
}
"""Cyrillic and Greek letters that render like a Latin letter, mapped to it."""

TO_CYRILLIC: Mapping[str, str] = {
    "a": "а",
    "b": "в",
    "c": "с",
    "e": "е",
    "h": "н",
    "k": "к",
    "m": "м",
    "o": "о",
    "p": "р",
    "t": "т",
    "x": "х",
    "y": "у",
    "3": "з",
    "0": "о",
    "6": "б",
}
"""Latin letters (and digits) that pass for Cyrillic ones inside Russian words."""


@lru_cache(maxsize=4096)
def script_of(char: str) -> str | None:
    """`LATIN`, `CYRILLIC`, `GREEK`, `CJK`, ... for a letter; None for anything else."""
    if not char.isalpha():
        return None
    if char.isascii():
        return "LATIN"
    name = unicodedata.name(char, "")
    head = name.split(" ", 1)[0]
    if head in ("CJK", "HIRAGANA", "KATAKANA", "HANGUL"):
        return "CJK"
    return head or None


def mixed_script(word: str) -> bool:
    """True when `word` mixes Latin with Cyrillic or Greek and one of them is a lookalike.

    Mixing Latin with CJK is ordinary in Chinese text, and a lone `π` in `2πr` is maths,
    so only lookalike letters inside a word of another script count.
    """
    scripts = {script_of(c) for c in word} - {None}
    if "LATIN" not in scripts or not scripts & {"CYRILLIC", "GREEK"}:
        return False
    return any(c in TO_LATIN for c in word) or (
        "CYRILLIC" in scripts and any(c.lower() in TO_CYRILLIC for c in word if c.isascii())
    )


def skeleton(name: str) -> str:
    """A name reduced to how it looks: lookalikes to Latin, case and `-`/`_`/`.` dropped."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(TO_LATIN.get(c, c) for c in text).lower()
    return text.replace("-", "").replace("_", "").replace(".", "").replace(" ", "")
