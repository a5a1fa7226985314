"""Form posts, read within bounds and checked against cross-site forgery.

The page's forms are plain `application/x-www-form-urlencoded` posts. A body larger than
`MAX_FORM_BYTES`, more than `MAX_FIELDS` fields, another encoding, or an `Origin` other than
the page's own is refused before any field is looked at; the CSRF token is checked by the
caller against the session (or, on the sign-in form, against its cookie).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import parse_qsl

from starlette.requests import Request

from callgate.ui._refusal import Refused

__all__ = ["MAX_FIELDS", "MAX_FORM_BYTES", "Form", "read_form"]

MAX_FORM_BYTES = 512 * 1024
"""The largest form post: room for arguments at the gate's 64 KiB limit, escaped."""
MAX_FIELDS = 32
_FORM = "application/x-www-form-urlencoded"


class Form:
    """The fields of one post (a repeated field keeps its last value)."""

    def __init__(self, fields: Mapping[str, str]) -> None:
        self._fields = dict(fields)

    def get(self, name: str, *, limit: int = 1_000) -> str | None:
        value = self._fields.get(name)
        if value is not None and len(value) > limit:
            raise Refused(400, f"the field {name!r} is longer than {limit:,} characters")
        return value

    def text(self, name: str, *, limit: int = 1_000) -> str:
        return self.get(name, limit=limit) or ""

    def flag(self, name: str) -> bool:
        return self._fields.get(name) in {"1", "on", "true"}


async def read_form(request: Request) -> Form:
    """The posted form, or `Refused` (403 from another origin, 413 too large, 415 not a
    form, 400 malformed)."""
    _same_origin(request)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != _FORM:
        raise Refused(415, f"expected a form post ({_FORM})")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_FORM_BYTES):
        raise Refused(413, f"the form is larger than {MAX_FORM_BYTES:,} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise Refused(413, f"the form is larger than {MAX_FORM_BYTES:,} bytes")
    try:
        pairs = parse_qsl(
            body.decode("latin-1"),
            keep_blank_values=True,
            strict_parsing=False,
            encoding="utf-8",
            errors="replace",
            max_num_fields=MAX_FIELDS,
        )
    except ValueError as exc:
        raise Refused(400, f"the form cannot be read: {exc}") from None
    return Form(dict(pairs))


def _same_origin(request: Request) -> None:
    """Browsers send `Origin` on every form post (the page's `Referrer-Policy: same-origin`
    keeps it for its own forms); another site's, or `null`, is a forgery. A client that
    sends none still needs the CSRF token."""
    origin = request.headers.get("origin")
    if origin is None:
        return
    url = request.url
    own = f"{url.scheme}://{url.netloc}"
    if origin != own:
        raise Refused(403, "the form was posted from another site; it was not accepted")
