"""Which network addresses `fetch_url` may connect to: public unicast ones only.

Every spelling ends as an `ipaddress` object before it is judged: dotted, decimal
(`2130706433`), octal (`0177.0.0.1`), hex (`0x7f.1`) and short (`127.1`) IPv4 forms are read
by `inet_aton`, the parser the C library itself uses for host names, so the address judged
is the one a connection would reach; IPv6 forms that carry an IPv4 address (mapped
`::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4, Teredo) are judged by
the IPv4 address inside as well.
"""

from __future__ import annotations

import ipaddress
import re
import socket

__all__ = ["IPAddress", "blocked_reason", "literal_address"]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

METADATA = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack, DigitalOcean instance metadata
        "169.254.170.2",  # AWS ECS task metadata
        "169.254.169.253",  # AWS VPC DNS
        "fd00:ec2::254",  # AWS metadata over IPv6
        "100.100.100.200",  # Alibaba Cloud metadata
        "168.63.129.16",  # Azure wire server (a public address)
        "192.0.0.192",  # Oracle Cloud metadata
    )
)
"""Cloud metadata endpoints: they hand out credentials to whoever asks from inside."""

_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_COMPATIBLE = ipaddress.ip_network("::/96")
_IPV4_SPELLING = re.compile(r"^[0-9a-fA-FxX.]+$")


def literal_address(host: str) -> IPAddress | None:
    """The address a host written as an IP literal (in any spelling) stands for, or None
    for a name. `ValueError` for text that is neither (a malformed number)."""
    host = host.strip("[]")
    if ":" in host:
        if "%" in host:
            raise ValueError(f"IPv6 zone identifiers are not accepted ({host!r})")
        return ipaddress.IPv6Address(host)
    if _IPV4_SPELLING.match(host) and any(c.isdigit() for c in host.split(".")[-1][:1]):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            raise ValueError(f"{host!r} is not a valid address") from None
    return None


def blocked_reason(address: IPAddress) -> str | None:
    """Why connecting to `address` is refused, or None when it is a public address."""
    for candidate in _embedded(address):
        if candidate in METADATA:
            return f"{address} is a cloud metadata address"
        reason = _non_public(candidate)
        if reason is not None:
            return (
                f"{address} is {reason}"
                if candidate == address
                else (f"{address} carries the IPv4 address {candidate}, which is {reason}")
            )
    return None


def _non_public(address: IPAddress) -> str | None:
    checks = (
        ("loopback", address.is_loopback),
        ("unspecified", address.is_unspecified),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("private", address.is_private),
        ("reserved", address.is_reserved),
    )
    for name, hit in checks:
        if hit:
            return f"a {name} address"
    if not address.is_global:  # shared (100.64/10), benchmarking, documentation ranges
        return "not a public address"
    return None


def _embedded(address: IPAddress) -> list[IPAddress]:
    """The address and any IPv4 address an IPv6 form carries."""
    if not isinstance(address, ipaddress.IPv6Address):
        return [address]
    low = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.ipv4_mapped is not None or (address in _COMPATIBLE and int(address) > 1):
        return [low]  # the socket reaches the IPv4 address itself
    found: list[IPAddress] = [address]
    if address in _NAT64:
        found.append(low)
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found.append(address.teredo[1])
    return found
