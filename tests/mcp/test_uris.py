"""The mapping of upstream resource URIs to the gateway's `callgate://PREFIX/URI`."""

from __future__ import annotations

import mcp_types
from hypothesis import given
from hypothesis import strategies as st
from mcp.shared.uri_template import UriTemplate

from callgate.mcp import parse_upstreams
from callgate.mcp._readables import readables
from callgate.mcp._resources import Shelf
from callgate.mcp._uris import MAX_URI, gateway_uri, split_uri

prefixes = st.from_regex(r"[A-Za-z0-9_-]{1,40}", fullmatch=True)
uris = st.text(min_size=1, max_size=300)  # any text: lone surrogates, slashes, braces, NULs
names = st.text(st.characters(codec="utf-8", exclude_characters="/"), min_size=1, max_size=40)


@given(prefix=prefixes, uri=uris)
def test_every_upstream_uri_maps_back_exactly(prefix: str, uri: str) -> None:
    assert split_uri(gateway_uri(prefix, uri)) == (prefix, uri)


@given(text=st.text(max_size=400))
def test_whatever_splits_is_the_gateway_uri_of_its_parts(text: str) -> None:
    split = split_uri(text)
    if split is not None:
        assert gateway_uri(*split) == text
    for candidate in (text, "callgate://" + text):
        parts = split_uri(candidate)
        assert parts is None or (parts[0] and parts[1] and "/" not in parts[0])


def test_what_is_not_a_gateway_uri_names_no_server() -> None:
    for uri in ("file:///x", "callgate://", "callgate://docs", "callgate://docs/", "callgate:///x"):
        assert split_uri(uri) is None
    assert split_uri(gateway_uri("docs", "x" * MAX_URI)) is None


@given(prefix=prefixes, name=names)
def test_a_mapped_template_expands_to_the_mapped_expansion(prefix: str, name: str) -> None:
    upstream = "file:///notes/{name}"
    mapped = UriTemplate.parse(gateway_uri(prefix, upstream))
    expanded = mapped.expand({"name": name})
    assert expanded == gateway_uri(prefix, UriTemplate.parse(upstream).expand({"name": name}))
    split = split_uri(expanded)
    assert split is not None and split[0] == prefix
    # ...and the server's shelf finds the template for the upstream half.
    (item,) = readables([], [mcp_types.ResourceTemplate(uri_template=upstream, name="note")], [])
    shelf = Shelf(templates=[(UriTemplate.parse(upstream), item)])
    assert shelf.locate(split[1]).item == item


def test_two_servers_listing_one_uri_keep_two_resources() -> None:
    config = parse_upstreams(
        {"mcpServers": {"a": {"command": "x"}, "b": {"command": "x", "callgate": {"prefix": "bb"}}}}
    )
    mapped = {gateway_uri(s.prefix, "file:///README.md") for s in config.servers}
    assert mapped == {"callgate://a/file:///README.md", "callgate://bb/file:///README.md"}
