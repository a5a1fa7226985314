"""Hostile listings of resources, templates and prompts: every item is admitted, held or
left out, and nothing raises (names, URIs and descriptions of any text)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import mcp_types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callgate.mcp import PinBook, parse_upstreams
from callgate.mcp._readables import readables
from callgate.mcp._resources import build
from callgate.store import open_store

# Any text: lone surrogates, NULs, braces, bidi controls; a few common troublemakers first.
texts = st.one_of(
    st.sampled_from(["\ud800", "{", "}{x}", "file:///{+p}{q}", "", "a" * 9_000, "\u202e", "x:y/z"]),
    st.text(st.characters(exclude_categories=()), max_size=200),
)
SERVER = parse_upstreams({"mcpServers": {"docs": {"command": "x"}}}).server("docs")


class _NoConnection:
    """`build` only wraps a connection into executors; nothing is called here."""


listings = st.tuples(
    st.lists(st.builds(mcp_types.Resource, name=texts, uri=texts, description=texts), max_size=4),
    st.lists(
        st.builds(mcp_types.ResourceTemplate, name=texts, uri_template=texts, description=texts),
        max_size=3,
    ),
    st.lists(
        st.builds(
            mcp_types.Prompt,
            name=texts,
            description=texts,
            arguments=st.lists(
                st.builds(mcp_types.PromptArgument, name=texts, description=texts), max_size=3
            ),
        ),
        max_size=3,
    ),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(listing=listings)
def test_any_listing_is_judged_without_raising(tmp_path: Path, listing: Any) -> None:
    store = open_store("sqlite://:memory:")
    try:
        items = readables(*listing)
        built = build(
            SERVER,
            items,
            connection=cast(Any, _NoConnection()),
            pins=PinBook(store),
            max_description=100,
        )
        judged = (
            set(built.shelf.resources)
            | {str(t) for t, _ in built.shelf.templates}
            | {q.tool for q in built.shelf.held.values()}
            | {t.name for t in built.tools.values()}
            | set(built.quarantined)
        )
        assert len(judged) <= len(items) + 1  # the reader tool at most is added
    finally:
        store.close()


def test_prompts_whose_names_meet_in_one_gate_name_keep_the_first(tmp_path: Path) -> None:
    store = open_store("sqlite://:memory:")
    try:
        first = mcp_types.Prompt(name="a b", description="Say A.")
        second = mcp_types.Prompt(name="a_b", description="Say B.")
        built = build(
            SERVER,
            readables([], [], [first, second]),
            connection=cast(Any, _NoConnection()),
            pins=PinBook(store),
            max_description=100,
        )
        prompts = [t for t in built.tools.values() if t.description == "Say A."]
        assert len(prompts) == 1
        assert all(t.description != "Say B." for t in built.tools.values())
        assert not built.quarantined
    finally:
        store.close()
