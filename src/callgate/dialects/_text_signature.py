"""The parameter order a text gives a tool by defining it (`def f(b, a):`, `function f(b,
a) {`, `const f = (b, a) =>`, `String f(int b, int a) {`).

A model that writes its own definition of the tool and then calls it with positional
arguments means them in the order of that definition, not of the declared schema. Only a
definition that names the tool exactly (no case folding), comes before the call and lists
at least as many parameters as the call passes positionally says so.
"""

from __future__ import annotations

import re

from callgate.dialects._text_names import Names
from callgate.dialects._text_values import split_top

__all__ = ["Signatures", "order_at", "signatures"]

_DEFINED = re.compile(
    r"(?:\b(?:def|function)[ \t]+(?P<a>[A-Za-z_][\w.]*)[ \t]*\((?P<pa>[^()]*)\)"
    r"|\b(?:const|let|var)[ \t]+(?P<b>[A-Za-z_]\w*)[ \t]*=[ \t]*(?:function[ \t]*)?"
    r"\((?P<pb>[^()]*)\)"
    r"|\b(?P<c>[A-Za-z_]\w*)[ \t]*\((?P<pc>[^()]*)\)[ \t]*(?:throws[ \t]+[\w., \t]+)?\{)"
)
_PARAMETER = re.compile(r"[A-Za-z_]\w*")


Signatures = dict[str, list[tuple[int, list[str]]]]
"""Tool name -> (where a definition starts, its parameters in order), in text order."""


def signatures(text: str, names: Names) -> Signatures:
    """Every definition of a tool by its exact name whose parameters are all (and each
    once) parameters of the tool."""
    found: Signatures = {}
    for match in _DEFINED.finditer(text):
        written = match.group("a") or match.group("b") or match.group("c")
        listed = match.group("pa") or match.group("pb") or match.group("pc") or ""
        tool = names.lookup.get(written)
        if tool is None:
            continue
        order = [_name(part) for part in split_top(listed)]
        params = names.params(tool)
        if order and all(order) and len(set(order)) == len(order) and set(order) <= set(params):
            found.setdefault(tool, []).append((match.start(), order))
    return found


def order_at(found: Signatures, name: str, position: int, positional: int) -> list[str]:
    """The parameter order of the last definition of `name` before `position` that has
    room for `positional` arguments, else none (the schema's order applies)."""
    before = [order for start, order in found.get(name, ()) if start < position]
    return before[-1] if before and len(before[-1]) >= positional else []


def _name(part: str) -> str:
    """`a`, `a=1`, `a: int = 1` (Python, TypeScript), `String a`, `final int a` (Java)."""
    head = part.split("=", 1)[0]
    if ":" in head:
        words = _PARAMETER.findall(head.split(":", 1)[0])
        return words[0] if len(words) == 1 else ""
    words = _PARAMETER.findall(re.sub(r"<[^<>]*>", "", head))
    return words[-1] if words else ""
