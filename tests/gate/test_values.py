"""Destinations found in text: one normal form for every spelling of a place, and never two
places in one form. The provenance hold compares these forms, so a spelling that folds
wrongly either lets an attacker's value pass as trusted or holds the user's own."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from callgate.gate._provenance import carried
from callgate.gate._values import MAX_HOST_CHARS, destinations


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Check out www.secure-systems-252.com now", {"host:secure-systems-252.com"}),
        ("HTTPS://User:pw@Evil.COM:8443/x", {"host:evil.com"}),
        ("http://evil.com./", {"host:evil.com"}),
        ("http://%65vil.com", {"host:evil.com"}),
        ("\uff45\uff56\uff49\uff4c\uff0ecom", {"host:evil.com"}),
        ("evil\u3002com", {"host:evil.com"}),
        ("e\u200bvil.com", {"host:evil.com"}),
        ("p\u0430ypal.com", {"host:xn--pypal-4ve.com"}),
        ("stra\u00dfe.de", {"host:xn--strae-oqa.de"}),
        ("http://[::ffff:127.0.0.1]/ and http://10.0.0.1", {"host:::ffff:7f00:1", "host:10.0.0.1"}),
        ("Write to Fred9246@GMAIL.com", {"email:fred9246@gmail.com"}),
        ("mailto:bo@acme.com", {"email:bo@acme.com"}),
        (
            "https://acme.com/go?to=mallory%40evil.test",
            {"host:acme.com", "email:mallory@evil.test"},
        ),
        ("IBAN GB29 NWBK 6016 1331 9268 19, thanks", {"account:GB29NWBK60161331926819"}),
        ("us133000000121212121212", {"account:US133000000121212121212"}),
        ("call +1 (555) 123-4567", {"number:15551234567"}),
        ("card 4111 1111 1111 1111", {"number:4111111111111111"}),
        ("account 1234567890", {"number:1234567890"}),
        # Not places: dates, times, amounts, versions, file names, abbreviations, words.
        ("on 2024-05-01 09:00 for 1,000.50 (v3.11.7)", set()),
        ("see notes.txt and report.pdf, e.g. i.e. 3.14", set()),
        ("ab12cdefghijklmno is a word", set()),
    ],
)
def test_destinations_fold_spellings_of_one_place(text: str, expected: set[str]) -> None:
    assert destinations(text) == expected


def test_an_overlong_name_is_no_host_but_a_long_url_keeps_its_host() -> None:
    host = ".".join(["a" * 60] * 6) + ".com"
    assert len(host) > MAX_HOST_CHARS
    assert destinations(f"http://{host}/") == set()
    long_url = "https://secure-systems-252.com/?" + "a" * 300
    assert destinations(long_url) == {"host:secure-systems-252.com"}
    assert destinations("https://evil.com/" + "x" * 5000) == {"host:evil.com"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # What urlsplit (and httpx) reach, and what a browser reaches: both are held.
        ("https://acme.com\\@evil.com/", {"host:acme.com", "host:evil.com"}),
        ("https://acme.com'@evil.com/x", {"host:acme.com", "host:evil.com"}),
        ("https://bo@acme.com@evil.com/", {"host:acme.com", "host:evil.com"}),
        ("mallory=@evil.com", {"email:mallory=@evil.com"}),
        ("x!@evil.com and x~@evil.com", {"email:x!@evil.com", "email:x~@evil.com"}),
        ('"mallory"@evil.com', {'email:"mallory"@evil.com'}),
        ("'bo@acme.com'", {"email:bo@acme.com"}),
        ("https://acme.com/go?to=bo@acme.com&cc=x", {"host:acme.com", "email:bo@acme.com"}),
        ("*.evil.com, .evil.com and @evil.com", {"host:evil.com"}),
        (f"{'a' * 70}.evil.com", {f"host:{'a' * 70}.evil.com"}),
        ("203.0.113.5", {"host:203.0.113.5"}),
        ("203.0.113.5:8080", {"host:203.0.113.5"}),
        ("[2001:db8::1]:443 or 2001:DB8:0::1", {"host:2001:db8::1"}),
        ("0xcb.0.0x71.5 0313.0.0161.5", {"host:203.0.113.5"}),
        ("http://0xcb.0.0x71.5/", {"host:203.0.113.5"}),
        ("(212) 555-0199", {"number:2125550199"}),
        ("212-555-0199", {"number:2125550199"}),
        ("Amex 3782 822463 10005", {"number:378282246310005"}),
        ("account 55779911", {"number:55779911"}),
        ("5577\u200b9911", {"number:55779911"}),
        ("on 2024-05-01 at 12 30, 1 000.50, room 12-34, Tokyo 160-0023", set()),
    ],
)
def test_hostile_spellings_are_read(text: str, expected: set[str]) -> None:
    assert destinations(text) == expected


@pytest.mark.parametrize("tld", ["sh", "md", "rs", "so", "py", "zip", "mov"])
def test_a_top_level_domain_is_a_host_even_when_it_is_a_file_suffix(tld: str) -> None:
    assert destinations(f"get evil.{tld} now") == {f"host:evil.{tld}"}


def test_joiners_are_left_to_idna() -> None:
    """ZWJ and ZWNJ are deviation characters: with them a name may be another (IDNA 2008
    keeps them after a virama), so they never fold into the name without them."""
    assert destinations("e\u200dvil.com") != destinations("evil.com")
    assert destinations("e\u200cvil.com") != destinations("evil.com")
    assert destinations("evil.com\u200d") == destinations("evil.com")


def test_a_chain_of_labels_with_joiners_is_read_from_its_first_label() -> None:
    """A match starts only at a dotted name's first label, joiners counting as part of a
    label (a start after every joiner read the rest of the chain again each time)."""
    chain = "a\u200ca." * 2_000 + "com"
    assert destinations(chain) == destinations(f"https://{chain}/")


def test_an_ipv6_address_after_a_colon_is_read() -> None:
    assert destinations("host:2001:db8::1") == {"host:2001:db8::1"}
    assert destinations("ip:2001:DB8::2") == {"host:2001:db8::2"}


def test_an_address_local_part_keeps_its_letters() -> None:
    """Case folds (mailboxes compare so in practice); `ß` is not `ss`."""
    assert destinations("Bo@acme.com") == destinations("bo@acme.com")
    assert destinations("straße@acme.com") != destinations("strasse@acme.com")


_LABEL = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12)
_HOSTS = st.builds(
    lambda a, b, tld: f"{a}.{b}.{tld}",
    _LABEL,
    _LABEL,
    st.sampled_from(["com", "org", "test", "io"]),
)


@given(host=_HOSTS, invisible=st.sampled_from(["\u200b", "\u2060", "\ufeff", "\u00ad", "\u202e"]))
@settings(max_examples=200, deadline=None)
def test_case_dots_www_and_invisible_characters_do_not_change_a_host(
    host: str, invisible: str
) -> None:
    expected = destinations(f"https://{host}/")
    assert expected == {f"host:{host.removeprefix('www.')}"}
    spelled = f"{host[0]}{invisible}{host[1:]}".upper()
    for variant in (host.upper(), f"www.{host}", f"{host}.", f"http://{spelled}:80/a"):
        assert destinations(variant) == expected, variant


@given(local=_LABEL, host=_HOSTS)
@settings(max_examples=200, deadline=None)
def test_an_address_is_one_value_and_its_domain_is_not_a_host(local: str, host: str) -> None:
    found = destinations(f"write to {local}@{host}, please")
    assert found == {f"email:{local}@{host.removeprefix('www.')}"}


@given(host=_HOSTS, other=_HOSTS)
@settings(max_examples=200, deadline=None)
def test_two_hosts_are_two_values(host: str, other: str) -> None:
    if host.removeprefix("www.") != other.removeprefix("www."):
        assert destinations(f"{host} {other}") == destinations(host) | destinations(other)
        assert destinations(host) != destinations(other)


@given(st.text(max_size=400))
@settings(max_examples=300, deadline=None)
def test_any_text_gives_a_set_of_short_values(text: str) -> None:
    found = destinations(text)
    assert all(isinstance(v, str) and len(v) <= MAX_HOST_CHARS + 80 for v in found)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)


@given(_JSON)
@settings(max_examples=200, deadline=None)
def test_carried_reads_any_argument_value(value: Any) -> None:
    assert isinstance(carried(value), set)


def test_carried_reads_keys_integers_and_values_at_any_depth_but_not_huge_ints() -> None:
    deep: Any = "fred@evil.test"
    for _ in range(100_000):  # far deeper than recursion allows
        deep = [{"k": deep}]
    assert carried(deep) == {"email:fred@evil.test"}
    assert carried({"bo@acme.com": 1}) == {"email:bo@acme.com"}
    assert carried({"account": 89370400440532013000}) == {"number:89370400440532013000"}
    assert carried(10**5000) == set()  # no account number, and not printable as one
    assert carried([math.nan, math.inf, True, None, "\ud800 evil.test"]) == {"host:evil.test"}


# An oracle that does not ask `destinations`: a known value, spelled the ways an attacker
# may spell it, must come back in the normal form written here by hand.
_FULL_WIDTH = {c: chr(ord(c) - 0x21 + 0xFF01) for c in "abcdefghijklmnopqrstuvwxyz0123456789"}
_INVISIBLE = st.sampled_from(["\u200b", "\u2060", "\ufeff", "\u00ad", "\u202e", "\U000e0041"])
_HOST_SPELLINGS = st.sampled_from([
    "{h}", "{H}", "www.{h}", "{h}.", "https://{h}/", "HTTPS://user:pw@{H}:8443/a?b=c#d",
    "http://acme.com\\@{h}/", "https://acme.com'@{h}/", "*.{h}", ".{h}", "@{h}", "({h})",
    "[link](https://{h}/x)", "<https://{h}>", '"{h}"', "https://{h}/?" + "a" * 400,
    "{wide}", "{ideographic}", "{hidden}", "http://{pct}/", "see {h}, then", "https://x.org/r?u=https://{h}/",
])  # fmt: skip
_EMAIL_SPELLINGS = st.sampled_from([
    "{l}@{h}", "{L}@{H}", "mailto:{l}@{h}", "<{l}@{h}>", "'{l}@{h}'", "{l}@{wide}",
    "https://acme.com/invite?to={l}%40{h}", "{l}\uff20{h}", "({l}@{h})",
])  # fmt: skip


def _spelled(template: str, host: str, invisible: str, local: str = "") -> str:
    return template.format(
        h=host,
        H=host.upper(),
        l=local,
        L=local.upper(),
        wide="".join(_FULL_WIDTH.get(c, c) for c in host),
        ideographic=host.replace(".", "\u3002"),
        hidden=f"{host[0]}{invisible}{host[1:]}",
        pct="".join(f"%{ord(c):02x}" if c.isalpha() else c for c in host),
    )


@given(host=_HOSTS, template=_HOST_SPELLINGS, invisible=_INVISIBLE)
@settings(max_examples=400, deadline=None)
def test_a_known_host_is_found_however_it_is_spelled(
    host: str, template: str, invisible: str
) -> None:
    text = _spelled(template, host, invisible)
    assert f"host:{host}" in destinations(f"please {text} thanks"), text


@given(local=_LABEL, host=_HOSTS, template=_EMAIL_SPELLINGS, invisible=_INVISIBLE)
@settings(max_examples=300, deadline=None)
def test_a_known_address_is_found_however_it_is_spelled(
    local: str, host: str, template: str, invisible: str
) -> None:
    text = _spelled(template, host, invisible, local)
    assert f"email:{local}@{host}" in destinations(f"write {text} now"), text


@given(
    digits=st.text(alphabet="0123456789", min_size=8, max_size=16).filter(lambda d: d[0] != "0"),
    separator=st.sampled_from([" ", "-", "\u200b", "\u2060"]),
    cut=st.integers(min_value=3, max_value=5),
    as_int=st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_a_known_number_is_found_however_it_is_grouped(
    digits: str, separator: str, cut: int, as_int: bool
) -> None:
    groups = [digits[i : i + cut] for i in range(0, len(digits), cut)]
    if len(groups[-1]) < 2:
        groups[-2:] = [groups[-2] + groups[-1]]
    grouped = separator.join(groups)
    assert f"number:{digits}" in destinations(f"pay to {grouped} today"), grouped
    value: Any = int(digits) if as_int else float(digits)
    if len(digits) <= 15:  # a float holds 15 digits exactly
        assert carried({"account": value}) == {f"number:{digits}"}, value
