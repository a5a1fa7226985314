"""The indexed near-duplicate join finds exactly what comparing every pair finds."""

from __future__ import annotations

import random
import re
from itertools import combinations, pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callgate.lint import (
    LoadedCatalog,
    ToolEntry,
    _near_duplicates,
    entry_from_declaration,
    lint,
    load_catalog,
)
from callgate.lint._near_duplicates import _words, near_duplicates

_WORD = re.compile(r"[a-zа-я0-9]{3,}")


def every_pair(members: list[ToolEntry]) -> list[tuple[str, str]]:
    """The reference: each tool against every earlier one; (tool, message) for the earliest
    partner of each tool that has one."""
    found: dict[int, tuple[str, str]] = {}
    words = {id(e): _words(e.description) for e in members}
    bigrams = {id(e): frozenset(pairwise(_WORD.findall(e.description.lower()))) for e in members}
    usable = [e for e in members if len(words[id(e)]) >= 4 and e.name]
    for first, second in combinations(usable, 2):
        if id(second) in found:
            continue
        a, b = words[id(first)], words[id(second)]
        score = len(a & b) / len(a | b)
        if score < 0.85:
            continue
        pa, pb = bigrams[id(first)], bigrams[id(second)]
        if (len(pa & pb) / len(pa | pb) if pa | pb else 1.0) >= 0.7:
            message = (
                f"{second.name!r} and {first.name!r} have nearly the same description "
                f"({score:.0%} shared words)"
            )
            found[id(second)] = (second.name, message)
    return sorted(found.values())


def indexed(members: list[ToolEntry]) -> list[tuple[str, str]]:
    return sorted((f.location.tool, f.message) for f in near_duplicates(members))


WORDS = [f"w{i:02d}" for i in range(30)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.lists(st.sampled_from(WORDS), min_size=3, max_size=14),
        min_size=2,
        max_size=40,
    )
)
def test_join_equals_every_pair_on_random_catalogs(texts: list[list[str]]) -> None:
    members = [
        entry_from_declaration({"name": f"tool_{i}", "description": " ".join(words)})
        for i, words in enumerate(texts)
    ]
    assert indexed(members) == every_pair(members)


def _corpus(data_dir: Path, name: str) -> LoadedCatalog:
    if name == "livemcpbench":
        return load_catalog(data_dir / "mcp-tools" / "livemcpbench-tools.json")
    return load_catalog(data_dir / "mcp-tools" / "docker-mcp-registry")


@pytest.mark.parametrize("name", ["livemcpbench", "docker-mcp-registry"])
def test_join_equals_every_pair_on_real_catalogs(data_dir: Path, name: str) -> None:
    catalog = _corpus(data_dir, name)
    groups: dict[str | None, list[ToolEntry]] = {}
    for entry in catalog:
        groups.setdefault(entry.group, []).append(entry)
    joined = [list(members) for members in groups.values()]
    pooled = list(catalog)  # one big group too: the join must hold beyond small servers
    for members in [*joined, pooled]:
        assert indexed(members) == every_pair(members)


def test_identical_descriptions_cost_one_comparison_each() -> None:
    text = "Look up the current weather conditions for a city by its name and country code."
    members = [
        entry_from_declaration({"name": f"get_weather_{i}", "description": text})
        for i in range(3000)
    ]
    findings = list(near_duplicates(members))
    assert len(findings) == 2999
    assert all("'get_weather_0'" in f.message for f in findings)


def test_a_check_cut_short_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    # ten of 24 common words each: every tool shares its rarest words with many earlier
    # ones, and no two are similar enough
    monkeypatch.setattr(_near_duplicates, "COMPARISONS", 20)
    rng = random.Random(0)
    vocabulary = [f"word{i}" for i in range(24)]
    members = [
        entry_from_declaration(
            {"name": f"tool_{i}", "description": " ".join(rng.sample(vocabulary, 10))}
        )
        for i in range(300)
    ]
    findings = list(near_duplicates(members))
    stopped = [f for f in findings if "compared it with the first 20 only" in f.message]
    assert stopped and len(stopped) == len(findings) - sum("nearly" in f.message for f in findings)


def test_lint_reports_near_duplicates_in_a_large_group() -> None:
    base = (
        "Create a calendar event with a title, a start time, an end time, attendees and "
        "a location, then send the invitations."
    )
    tools = [
        {"name": f"noise_{i}", "description": f"Fetch record kind{i} by identifier {i}."}
        for i in range(200)
    ]
    tools.insert(50, {"name": "create_event", "description": base})
    tools.append({"name": "add_event", "description": base.replace("a calendar", "a new calendar")})
    report = lint(tools, select=["C001"])
    assert [f.location.tool for f in report.active] == ["add_event"]


def _brute_near(names: list[str], word: str) -> set[str]:
    from callgate.lint._scan_shadow import _deletions
    from callgate.lint._scan_shadow import name_key as _key

    key = _key(word)
    if key in {_key(n) for n in names}:
        return {n for n in names if _key(n) == key}
    if len(key) < 6:
        return set()
    mine = set(_deletions(key))
    return {n for n in names if len(_key(n)) >= 6 and mine & set(_deletions(_key(n)))}


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.text("abc_", min_size=4, max_size=9), min_size=1, max_size=30, unique=True),
    st.text("abc_", min_size=4, max_size=9),
)
def test_name_index_finds_what_comparing_every_name_finds(names: list[str], word: str) -> None:
    from callgate.lint._scan_shadow import NameIndex

    entries = [entry_from_declaration({"name": n, "description": "x"}) for n in names]
    found = {k.name for k in NameIndex(entries).find(word)}
    assert found == _brute_near(names, word)
