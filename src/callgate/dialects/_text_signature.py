"""The parameter order a text gives a tool by defining it (`def f(b, a):`, `function f(b,
a) {`, `const f = (b, a) =>`, `String f(int b, int a) {`).

A model that writes its own definition of the tool and then calls it with positional
arguments means them in the order of that definition, not of the declared schema.
"""

from __future__ import annotations

import re

from callgate.dialects._text_names import Names
from callgate.dialects._text_values import split_top

__all__ = ["signatures"]

_DEFINED = re.compile(
    r"(?:\b(?:def|function)[ \t]+(?P<a>[A-Za-z_][\w.]*)[ \t]*\((?P<pa>[^()]*)\)"
    r"|\b(?:const|let|var)[ \t]+(?P<b>[A-Za-z_]\w*)[ \t]*=[ \t]*(?:function[ \t]*)?"
    r"\((?P<pb>[^()]*)\)"
    r"|\b(?P<c>[A-Za-z_]\w*)[ \t]*\((?P<pc>[^()]*)\)[ \t]*(?:throws[ \t]+[\w., \t]+)?\{)"
)
_PARAMETER = re.compile(r"[A-Za-z_]\w*")


def signatures(text: str, names: Names) -> dict[str, list[str]]:
    """Tool name -> its parameters in the order the text defines them, for every tool the
    text defines with parameters that are all (and each once) parameters of the tool."""
    found: dict[str, list[str]] = {}
    for match in _DEFINED.finditer(text):
        written = match.group("a") or match.group("b") or match.group("c")
        listed = match.group("pa") or match.group("pb") or match.group("pc") or ""
        tool = names.find(written)
        if tool is None or tool[0] in found:
            continue
        order = [_name(part) for part in split_top(listed)]
        params = names.params(tool[0])
        if order and all(order) and len(set(order)) == len(order) and set(order) <= set(params):
            found[tool[0]] = [p for p in order if p]
    return found


def _name(part: str) -> str:
    """`a`, `a=1`, `a: int = 1` (Python, TypeScript), `String a`, `final int a` (Java)."""
    head = part.split("=", 1)[0]
    if ":" in head:
        words = _PARAMETER.findall(head.split(":", 1)[0])
        return words[0] if len(words) == 1 else ""
    words = _PARAMETER.findall(re.sub(r"<[^<>]*>", "", head))
    return words[-1] if words else ""
