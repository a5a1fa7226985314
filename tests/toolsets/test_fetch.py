"""fetch_url: every spelling of an inside address is refused, redirects are checked again,
and the connection goes to the address that was checked. A local server on 127.0.0.1 plays
the web; loopback is reachable only through the test-only setting."""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from callgate.toolsets import CodingLimits
from callgate.toolsets._addresses import blocked_reason, literal_address
from callgate.toolsets._fetch import Fetcher
from tests.gate._spotlight import data_of
from tests.toolsets.conftest import Session

LITERALS = [
    "http://127.0.0.1/",
    "http://127.1/",
    "http://127.0.1/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://0x7f.0x0.0x0.0x1/",
    "http://0177.0.0.1/",
    "http://017700000001/",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[0:0:0:0:0:ffff:127.0.0.1]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::]/",
    "http://10.0.0.1/",
    "http://10.1/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://[::ffff:192.168.1.1]/",
    "http://[fc00::1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://0xA9FEA9FE/",
    "http://2852039166/",
    "http://0251.0376.0251.0376/",
    "http://[::ffff:169.254.169.254]/",
    "http://[fd00:ec2::254]/",
    "http://100.100.100.200/",
    "http://168.63.129.16/",
    "http://192.0.0.192/",
    "http://[fe80::1]/",
    "http://0.0.0.0/",
    "http://0/",
    "http://[::]/",
    "http://224.0.0.1/",
    "http://[ff02::1]/",
    "http://100.64.0.1/",
    "http://255.255.255.255/",
    "https://127.0.0.1:8443/",
]


@pytest.fixture(autouse=True)
def never_leave_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """A safety net: should a check ever let an address through, the test fails instead of
    sending a packet anywhere but 127.0.0.1."""
    original = Fetcher._send

    async def send(self: Fetcher, client: Any, target: Any, address: Any) -> Any:
        assert address.is_loopback, f"a request to {address} would have been sent"
        return await original(self, client, target, address)

    monkeypatch.setattr(Fetcher, "_send", send)


class _Handler(BaseHTTPRequestHandler):
    routes: ClassVar[dict[str, tuple[int, dict[str, str], bytes]]] = {}
    seen_hosts: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.seen_hosts.append(self.headers.get("Host", ""))
        if self.path == "/host":
            status, headers, body = (
                200,
                {"Content-Type": "text/plain"},
                self.headers["Host"].encode(),
            )
        else:
            status, headers, body = self.routes.get(self.path, (404, {}, b"missing"))
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def web() -> Iterator[str]:
    """A server on 127.0.0.1; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    port = server.server_address[1]
    text = {"Content-Type": "text/html; charset=utf-8"}
    _Handler.routes = {
        "/page": (200, text, "<p>Приветствие: hello</p>".encode()),
        "/to-private": (302, {"Location": "http://10.0.0.1/admin"}, b""),
        "/to-metadata": (302, {"Location": "http://0xA9FEA9FE/latest/meta-data/"}, b""),
        "/to-mapped": (302, {"Location": "http://[::ffff:192.168.0.1]/"}, b""),
        "/to-name": (301, {"Location": "http://inside.test/"}, b""),
        "/to-other": (302, {"Location": f"http://elsewhere.test:{port}/page"}, b""),
        "/to-page": (307, {"Location": "/page"}, b""),
        "/to-file": (302, {"Location": "file:///etc/passwd"}, b""),
        "/loop": (302, {"Location": "/loop"}, b""),
        "/image": (200, {"Content-Type": "image/png"}, b"\x89PNG\x00\x00"),
        "/big": (200, {"Content-Type": "text/plain"}, b"a" * 50_000),
    }
    _Handler.seen_hosts = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()
    server.server_close()


def resolver(table: Mapping[str, Sequence[str]], calls: list[str] | None = None) -> Any:
    """A name table standing in for DNS (no lookup leaves the machine)."""

    async def resolve(host: str) -> Sequence[str]:
        if calls is not None:
            calls.append(host)
        if host not in table:
            raise AssertionError(f"unexpected lookup of {host}")
        return table[host]

    return resolve


NAMES = {
    "localhost": ["127.0.0.1", "::1"],
    "metadata.google.internal": ["169.254.169.254"],
    "mixed.test": ["93.184.216.34", "10.1.2.3"],
    "mapped.test": ["::ffff:10.0.0.7"],
    "inside.test": ["192.168.7.7"],
}


@pytest.mark.parametrize("url", LITERALS)
async def test_inside_addresses_in_any_spelling_are_denied(
    session: Callable[..., Session], url: str
) -> None:
    s = session(resolver=resolver({}))
    result = await s.call("fetch_url", url=url)
    assert result.route == "denied", result
    assert result.rule_id == "toolset:refused"
    assert "public addresses only" in result.content or "not a valid URL" in result.content


@pytest.mark.parametrize("url", LITERALS[:12])
async def test_inside_addresses_fail_closed_without_the_policy(
    session: Callable[..., Session], url: str
) -> None:
    result = await session(lean=True, resolver=resolver({})).call("fetch_url", url=url)
    assert result.route == "failed"
    assert "public addresses only" in result.content or "not a valid URL" in result.content


@pytest.mark.parametrize("host", sorted(NAMES))
async def test_names_that_resolve_inside_are_refused(
    session: Callable[..., Session], host: str
) -> None:
    s = session(hosts=[host], resolver=resolver(NAMES))
    result = await s.call("fetch_url", url=f"http://{host}/")
    assert result.route == "failed" and "public addresses only" in result.content


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://example.com/",
        "gopher://example.com/",
        "javascript:alert(1)",
        "http://user:pw@example.com/",
        "http://[fe80::1%25eth0]/",
        "http://exa mple.com/",
        "http://12.34.56.78x/",
        "not a url",
    ],
)
async def test_malformed_or_other_schemes_are_denied(
    session: Callable[..., Session], url: str
) -> None:
    result = await session(resolver=resolver({})).call("fetch_url", url=url)
    assert result.route == "denied"


async def test_loopback_is_off_by_default(session: Callable[..., Session], web: str) -> None:
    s = session(hosts=["127.0.0.1"])
    result = await s.call("fetch_url", url=f"{web}/page")
    assert result.route == "denied" and "loopback" in result.content
    assert _Handler.seen_hosts == []


async def test_a_given_host_is_fetched_as_text(session: Callable[..., Session], web: str) -> None:
    s = session(hosts=["127.0.0.1"], unsafe_allow_loopback=True)
    result = await s.call("fetch_url", url=f"{web}/page")
    assert result.route == "completed" and result.rule_id == "toolset:hosts"
    assert data_of(result.content).startswith(f"GET {web}/page -> 200 text/html")
    assert "Приветствие: hello" in result.content


@pytest.mark.parametrize("path", ["/to-private", "/to-metadata", "/to-mapped", "/to-name"])
async def test_a_redirect_to_an_inside_address_is_refused(
    session: Callable[..., Session], web: str, path: str
) -> None:
    names = {"inside.test": ["192.168.7.7"]}
    s = session(
        hosts=["127.0.0.1", "inside.test"], unsafe_allow_loopback=True, resolver=resolver(names)
    )
    result = await s.call("fetch_url", url=f"{web}{path}")
    assert result.route == "failed", result
    assert "public addresses only" in result.content
    assert len(_Handler.seen_hosts) == 1  # the redirect was read; nothing followed it


async def test_redirects_to_the_same_host_are_followed(
    session: Callable[..., Session], web: str
) -> None:
    s = session(hosts=["127.0.0.1"], unsafe_allow_loopback=True)
    result = await s.call("fetch_url", url=f"{web}/to-page")
    assert result.route == "completed"
    assert f"(redirected from {web}/to-page)" in result.content and "hello" in result.content


async def test_a_redirect_to_a_host_nobody_gave_ends_the_fetch(
    session: Callable[..., Session], web: str
) -> None:
    calls: list[str] = []
    names = {"elsewhere.test": ["127.0.0.1"]}
    s = session(hosts=["127.0.0.1"], unsafe_allow_loopback=True, resolver=resolver(names, calls))
    result = await s.call("fetch_url", url=f"{web}/to-other")
    assert result.route == "failed" and "a host nobody gave" in result.content
    assert calls == []


async def test_other_redirects_and_limits(session: Callable[..., Session], web: str) -> None:
    s = session(
        hosts=["127.0.0.1"],
        unsafe_allow_loopback=True,
        limits=CodingLimits(fetch_chars=1000, fetch_redirects=3),
    )
    to_file = await s.call("fetch_url", url=f"{web}/to-file")
    looping = await s.call("fetch_url", url=f"{web}/loop")
    image = await s.call("fetch_url", url=f"{web}/image")
    big = await s.call("fetch_url", url=f"{web}/big")
    assert to_file.route == "failed" and "only http and https" in to_file.content
    assert looping.route == "failed" and "more than 3 redirects" in looping.content
    assert image.route == "failed" and "not text" in image.content
    assert big.route == "completed" and "[page cut: 1000 of 50000 characters shown]" in big.content


async def test_the_connection_goes_to_the_checked_address(
    session: Callable[..., Session], web: str
) -> None:
    """One lookup per hop: the name is sent as Host, the socket goes to the address checked."""
    calls: list[str] = []
    port = web.rsplit(":", 1)[1]
    s = session(
        hosts=["app.test"],
        unsafe_allow_loopback=True,
        resolver=resolver({"app.test": ["127.0.0.1"]}, calls),
    )
    result = await s.call("fetch_url", url=f"http://app.test:{port}/host")
    assert result.route == "completed"
    assert data_of(result.content).splitlines()[-1] == f"app.test:{port}"
    assert calls == ["app.test"]


async def test_a_host_nobody_gave_is_held_then_fetched(
    session: Callable[..., Session], web: str
) -> None:
    s = session(unsafe_allow_loopback=True)
    held = await s.call("fetch_url", url=f"{web}/page")
    assert held.route == "held" and held.rule_id == "toolset:egress"
    assert "public sink" in (held.reason or "")
    assert _Handler.seen_hosts == []
    done = await s.approve(held)
    assert done.route == "completed" and "hello" in done.content


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_every_ipv4_spelling_is_the_same_address(value: int) -> None:
    address = ipaddress.IPv4Address(value)
    octets = str(address).split(".")
    spellings = [
        str(value),
        hex(value),
        "0" + oct(value)[2:] if value else "0",
        ".".join(hex(int(o)) for o in octets),
        ".".join("0" + oct(int(o))[2:] for o in octets),
        f"[::ffff:{address}]",
    ]
    for spelling in spellings:
        parsed = literal_address(spelling)
        assert parsed is not None
        embedded = getattr(parsed, "ipv4_mapped", None) or parsed
        assert embedded == address
        assert (blocked_reason(parsed) is None) == (blocked_reason(address) is None)


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_a_mapped_inside_address_is_always_blocked(value: int) -> None:
    address = ipaddress.IPv4Address(value)
    mapped = ipaddress.IPv6Address(f"::ffff:{address}")
    nat64 = ipaddress.IPv6Address(int(ipaddress.IPv6Address("64:ff9b::")) + value)
    if blocked_reason(address) is not None:
        assert blocked_reason(mapped) is not None
        assert blocked_reason(nat64) is not None
