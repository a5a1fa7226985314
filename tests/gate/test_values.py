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
from callgate.gate._values import MAX_VALUE_CHARS, destinations


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


def test_an_overlong_candidate_is_no_value() -> None:
    host = ".".join(["a" * 60] * 6) + ".com"
    assert len(host) > MAX_VALUE_CHARS
    assert destinations(f"http://{host}/") == set()


_LABEL = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12)
_HOSTS = st.builds(
    lambda a, b, tld: f"{a}.{b}.{tld}",
    _LABEL,
    _LABEL,
    st.sampled_from(["com", "org", "test", "io"]),
)


@given(host=_HOSTS, invisible=st.sampled_from(["\u200b", "\u200d", "\u2060", "\ufeff", "\u00ad"]))
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
    assert all(isinstance(v, str) and len(v) <= MAX_VALUE_CHARS + 10 for v in found)


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
