"""Resource URIs as the gateway offers them: `callgate://PREFIX/UPSTREAM-URI`.

The upstream URI is kept verbatim after the server's prefix, so a person or a model still
reads `callgate://docs/file:///guide.md` as the guide of the `docs` server, and a URI
depends only on its own server's prefix: adding a server never changes another's URIs, and
two servers that both list `file:///README.md` stay two resources. A URI template maps the
same way (`callgate://docs/file:///{path}`): the prefix holds no `{`, so the result is a
template whose every expansion maps back to the upstream's own expansion. A URI that is
not of this shape, or names no server, is read from nobody: the gateway never guesses.
"""

from __future__ import annotations

__all__ = ["MAX_URI", "URI_SCHEME", "gateway_uri", "split_uri"]

URI_SCHEME = "callgate"
MAX_URI = 8_192
"""Longer URIs are refused before anything is looked up or sent upstream."""
_LEAD = f"{URI_SCHEME}://"


def gateway_uri(prefix: str, uri: str) -> str:
    """The URI (or URI template) clients see for `uri` of the server with `prefix`."""
    return f"{_LEAD}{prefix}/{uri}"


def split_uri(uri: str) -> tuple[str, str] | None:
    """(prefix, upstream URI) of a gateway URI; None when `uri` is not one."""
    if len(uri) > MAX_URI or not uri.startswith(_LEAD):
        return None
    prefix, slash, upstream = uri[len(_LEAD) :].partition("/")
    if not slash or not prefix or not upstream:
        return None
    return prefix, upstream
