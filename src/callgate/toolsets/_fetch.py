"""`fetch_url`: a page over http or https, never from an address inside the host's network.

The host is resolved once; when any of its addresses is loopback, private, link-local,
multicast, unspecified, reserved or a cloud metadata address the fetch is refused. The
connection then goes to the address that was checked (the URL is rewritten to it; the
`Host` header and TLS server name keep the name, so certificates are still verified), so a
second DNS answer cannot rebind the name to an inside address. Redirects are followed by
hand, each target checked again, and a redirect to a host nobody gave ends the fetch.
"""

from __future__ import annotations

import asyncio
import codecs
import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import httpx

from callgate._errors import ToolError
from callgate.toolsets._addresses import IPAddress, blocked_reason, literal_address
from callgate.toolsets._settings import CodingLimits

__all__ = ["Fetcher", "Resolver", "Target", "parse_target"]

Resolver = Callable[[str], Awaitable[Sequence[str]]]
"""Host name -> its addresses (as text). The default asks the system resolver."""

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_HOST = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$")
_TEXT_TYPES = ("text/", "application/json", "application/xml", "application/javascript")
_USER_AGENT = "callgate-fetch/0.1"


@dataclass(frozen=True, kw_only=True, slots=True)
class Target:
    """A URL checked for its form: scheme, host (lowercase, IDNA) and port."""

    url: httpx.URL
    host: str
    literal: IPAddress | None


def parse_target(raw: object) -> Target:
    """Check a URL's form (no network); `ToolError` says what is wrong with it."""
    if not isinstance(raw, str) or not raw.strip() or len(raw) > 8192:
        raise ToolError("url must be an http or https URL")
    try:
        url = httpx.URL(raw.strip())
    except (httpx.InvalidURL, ValueError, UnicodeError) as exc:
        raise ToolError(f"{raw!r} is not a valid URL: {exc}") from None
    if url.scheme not in ("http", "https"):
        raise ToolError(f"only http and https URLs can be fetched, not {url.scheme or 'none'!r}")
    if url.userinfo:
        raise ToolError("URLs with a user name or password are not fetched")
    host = url.host.rstrip(".").lower()
    try:
        literal = literal_address(host)
    except ValueError as exc:
        raise ToolError(f"{raw!r}: {exc}") from None
    if literal is None and not _HOST.match(host):
        raise ToolError(f"{host!r} is not a valid host name")
    return Target(url=url, host=host, literal=literal)


async def system_resolver(host: str) -> Sequence[str]:
    loop = asyncio.get_running_loop()
    try:
        answers = await loop.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise ToolError(f"the host {host!r} could not be resolved ({exc})") from None
    return [str(a[4][0]) for a in answers]


def _codec(name: str | None) -> str:
    """The page's declared charset when Python knows it, else UTF-8."""
    try:
        return codecs.lookup(name).name if name else "utf-8"
    except LookupError:
        return "utf-8"


class Fetcher:
    """Fetches text pages within the limits, refusing inside addresses."""

    def __init__(
        self,
        limits: CodingLimits,
        *,
        host_given: Callable[[str], bool],
        resolver: Resolver | None = None,
        allow_loopback: bool = False,
        verify: bool | str = True,
    ) -> None:
        self.limits = limits
        self.host_given = host_given
        self.resolver = resolver or system_resolver
        self.allow_loopback = allow_loopback
        self.verify = verify

    async def fetch(self, target: Target, *, approved_host: str | None) -> str:
        """Fetch `target`; `approved_host` is the one host a person approved for this call."""
        try:
            async with asyncio.timeout(self.limits.fetch_seconds):
                return await self._follow(target, approved_host)
        except TimeoutError:
            raise ToolError(
                f"fetching {target.url} took longer than {self.limits.fetch_seconds:g} s"
            ) from None

    async def _follow(self, target: Target, approved_host: str | None) -> str:
        hops: list[str] = []
        timeout = httpx.Timeout(self.limits.fetch_seconds)
        async with httpx.AsyncClient(
            trust_env=False, follow_redirects=False, timeout=timeout, verify=self.verify
        ) as client:
            for _ in range(self.limits.fetch_redirects + 1):
                address = await self.check(target)
                response = await self._send(client, target, address)
                try:
                    location = response.headers.get("location")
                    if response.status_code not in _REDIRECTS or not location:
                        return await self._page(target, response, hops)
                finally:
                    await response.aclose()
                hops.append(str(target.url))
                target = parse_target(str(target.url.join(location)))
                if target.literal is not None:
                    self._judge(target, [target.literal])
                # no lookup of a name nobody gave: the lookup alone could carry data out
                if not (self.host_given(target.host) or target.host == approved_host):
                    raise ToolError(
                        f"{hops[-1]} redirects to {target.url}, a host nobody gave; fetch that "
                        "URL itself if it is needed (it will be asked about)"
                    )
        raise ToolError(f"more than {self.limits.fetch_redirects} redirects from {hops[0]}")

    async def check(self, target: Target) -> IPAddress:
        """The address to connect to, after every address of the host was judged."""
        if target.literal is not None:
            addresses = [target.literal]
        else:
            found = await self.resolver(target.host)
            try:
                addresses = [ipaddress.ip_address(a.split("%", 1)[0]) for a in found]
            except ValueError:
                raise ToolError(
                    f"the host {target.host!r} resolved to something else than an address"
                ) from None
        return self._judge(target, addresses)

    def _judge(self, target: Target, addresses: Sequence[IPAddress]) -> IPAddress:
        if not addresses:
            raise ToolError(f"the host {target.host!r} has no address")
        for address in addresses:
            reason = blocked_reason(address)
            if reason is not None and not (self.allow_loopback and address.is_loopback):
                raise ToolError(
                    f"{target.url} is refused: {target.host} resolves to {reason}; "
                    "fetch_url reaches public addresses only"
                )
        return addresses[0]

    async def _send(
        self, client: httpx.AsyncClient, target: Target, address: IPAddress
    ) -> httpx.Response:
        url = target.url.copy_with(host=str(address), fragment=None)
        port = target.url.port
        host_header = target.host if port is None else f"{target.host}:{port}"
        request = client.build_request(
            "GET",
            url,
            headers={"Host": host_header, "User-Agent": _USER_AGENT, "Accept": "text/*, */*;q=0.1"},
            extensions={"sni_hostname": target.host},
        )
        try:
            return await client.send(request, stream=True)
        except httpx.HTTPError as exc:
            raise ToolError(f"fetching {target.url} failed: {type(exc).__name__}: {exc}") from None

    async def _page(self, target: Target, response: httpx.Response, hops: list[str]) -> str:
        kind = response.headers.get("content-type", "").lower()
        if kind and not kind.startswith(_TEXT_TYPES) and "+json" not in kind and "+xml" not in kind:
            raise ToolError(
                f"{target.url} returned {kind.split(';')[0]}, not text; fetch_url returns text only"
            )
        body = bytearray()
        cut = False
        try:
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) > self.limits.fetch_bytes:
                    del body[self.limits.fetch_bytes :]
                    cut = True
                    break
        except httpx.HTTPError as exc:
            raise ToolError(f"reading {target.url} failed: {type(exc).__name__}") from None
        text = bytes(body).decode(_codec(response.charset_encoding), "replace")
        head = f"GET {target.url} -> {response.status_code} {kind or 'no content type'}"
        if hops:
            head += f" (redirected from {hops[0]})"
        notes = []
        if len(text) > self.limits.fetch_chars:
            notes.append(f"[page cut: {self.limits.fetch_chars} of {len(text)} characters shown]")
            text = text[: self.limits.fetch_chars]
        elif cut:
            notes.append(f"[page cut at {self.limits.fetch_bytes} bytes]")
        return "\n".join([head, text, *notes])
