"""Hostile values made inert: what the page prints is bounded text that shows as itself."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.internal.charmap import CategoryName

from callgate.ui._inert import MAX_JSON_CHARS, MAX_TEXT, diff, inert, json_text

_HIDDEN: tuple[CategoryName, ...] = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"])),
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6)
    ),
    max_leaves=40,
)
hostile_text = st.text(alphabet=st.characters(), max_size=3000)


def _shows_as_itself(text: str, keep: str = "") -> bool:
    return all(c in keep or unicodedata.category(c) not in _HIDDEN for c in text)


@given(hostile_text)
def test_inert_text_has_no_hidden_characters_and_encodes(value: str) -> None:
    shown = inert(value)
    assert _shows_as_itself(shown)
    shown.encode("utf-8")
    assert len(shown) <= MAX_TEXT + 40


@given(st.text(alphabet=st.characters(exclude_categories=_HIDDEN), max_size=500))
def test_printable_text_is_kept_as_it_is(value: str) -> None:
    assert inert(value) == value


def test_characters_that_hide_are_written_as_escapes() -> None:
    assert inert("pay\u202e0001\u202c") == "pay\\u202e0001\\u202c"
    assert inert("a\u200bb\ufeff") == "a\\u200bb\\ufeff"
    assert inert("\ud800") == "\\ud800"
    assert inert("\U000e0041") == "\\U000e0041"  # a tag character
    assert inert("line\nbreak") == "line\\u000abreak"
    assert inert("line\nbreak", lines=True) == "line\nbreak"


def test_long_text_is_cut_with_a_notice() -> None:
    shown = inert("x" * 10_000)
    assert shown.startswith("x" * MAX_TEXT) and shown.endswith("(8,000 more characters)")


@given(json_values)
def test_json_text_of_a_plain_value_is_that_value(value: Any) -> None:
    shown = json_text(value)
    if _shows_as_itself(json.dumps(value, ensure_ascii=False), keep="\n"):
        assert json.loads(shown) == value
    assert _shows_as_itself(shown, keep="\n")


@settings(max_examples=50)
@given(
    st.recursive(
        st.text(alphabet=st.characters(), max_size=20) | st.integers(),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(st.text(alphabet=st.characters(), max_size=5), inner, max_size=4)
        ),
    )
)
def test_json_text_of_hostile_text_encodes_and_hides_nothing(value: Any) -> None:
    shown = json_text(value)
    shown.encode("utf-8")
    assert _shows_as_itself(shown, keep="\n")


def test_json_text_is_bounded_in_size_depth_and_items() -> None:
    deep: Any = "bottom"
    for _ in range(5000):
        deep = [deep]
    assert "… 1 items ]" in json_text(deep)
    long = json_text({"k": "x" * 1_000_000, "n": list(range(100_000))})
    assert "(996,000 more characters)" in long and "… 99,800 more" in long
    huge = json_text({f"k{i}": "x" * 3_000 for i in range(1_000)})
    assert len(huge) < MAX_JSON_CHARS + 5_000 and huge.endswith("(cut at 20,000 characters)")
    many = json_text(list(range(1000)))
    assert "800 more" in many


def test_json_text_writes_what_json_cannot() -> None:
    assert json_text(float("nan")) == "NaN"
    assert json_text([float("inf"), float("-inf")]) == "[\n  Infinity,\n  -Infinity\n]"
    assert "digits>" in json_text(10**5000)
    assert json_text({"a": b"bytes"}).endswith("\"a\": <bytes: b'bytes'>\n}")


@given(json_values, json_values)
def test_a_diff_holds_both_sides(before: Any, after: Any) -> None:
    lines = diff(before, after)
    old = [line.text for line in lines if line.kind != "added"]
    new = [line.text for line in lines if line.kind != "removed"]
    assert old == json_text(before, sort_keys=True).splitlines()
    assert new == json_text(after, sort_keys=True).splitlines()
    if before == after:
        assert all(line.kind == "same" for line in lines)
