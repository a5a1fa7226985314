"""Follow local `$ref`s and render instance paths the way a model reads them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from callgate._visible import visible

__all__ = ["display_path", "resolve_local"]


def resolve_local(
    root: Mapping[str, Any], node: Mapping[str, Any], max_hops: int = 32
) -> Mapping[str, Any]:
    """Follow `$ref: "#/..."` from `node` within `root`; other refs are left as they are."""
    for _ in range(max_hops):
        ref = node.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#"):
            return node
        target: Any = root
        for part in ref[1:].split("/")[1:]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(target, Mapping) and part in target:
                target = target[part]
            elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                target = target[int(part)]
            else:
                return node
        if not isinstance(target, Mapping):
            return node
        node = target
    return node


def display_path(path: Sequence[str | int], root: str = "(arguments)") -> str:
    """`["items", 0, "qty"]` -> `items[0].qty`; the empty path is `root`.

    Names come from hostile input: every character that does not show as itself (a line
    break, a bidi mark, a lone surrogate) is shown escaped and names longer than 64
    characters are cut, so a message is always short, one-line, encodable text.
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            name = visible(str(part))
            name = name if len(name) <= _LONGEST else name[: _LONGEST - 3] + "..."
            out += f".{name}" if out else name
    if len(out) > _LONGEST_PATH:
        out = f"{out[:40]}...({len(path)} levels)...{out[-40:]}"
    return out or root


_LONGEST = 64
_LONGEST_PATH = 120
