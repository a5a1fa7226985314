"""Hostile input to the toolset's parsers gets a clear refusal, never a traceback."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callgate import ToolError, UserError
from callgate.toolsets import CodingLimits, coding_tools
from callgate.toolsets._commands import Allowlist
from callgate.toolsets._fetch import parse_target

ARG = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["-c", "-p", "--output=x", "--", "-", "..", "/", "~", "status", "diff"]),
)


@pytest.fixture(scope="module")
def allowlist(tmp_path_factory: pytest.TempPathFactory) -> Allowlist:
    return coding_tools(tmp_path_factory.mktemp("fuzz")).guard.allowlist


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=st.lists(ARG, max_size=8))
def test_any_argv_is_matched_or_explained(allowlist: Allowlist, argv: list[str]) -> None:
    rule, reason = allowlist.why_not(argv)
    assert reason
    if rule is not None:
        assert argv[0] == rule.program and "/" not in argv[0]
        assert tuple(argv[1 : 1 + len(rule.prefix)]) == rule.prefix
        assert not any(a.split("=", 1)[0] in rule.refused for a in argv[1:])


@settings(max_examples=500)
@given(
    url=st.one_of(
        st.text(max_size=80),
        st.builds(lambda h: f"http://{h}/", st.text(max_size=40)),
        st.builds(
            lambda h: f"https://[{h}]/", st.text(alphabet="0123456789abcdef:.%", max_size=40)
        ),
    )
)
def test_any_url_is_a_target_or_a_clear_refusal(url: str) -> None:
    try:
        target = parse_target(url)
    except ToolError as exc:
        assert exc.message
        return
    assert target.url.scheme in ("http", "https") and target.host


@pytest.mark.parametrize(
    "bad", [{"read_lines": 0}, {"fetch_seconds": math.nan}, {"search_seconds": math.inf},
            {"read_chars": True}, {"command_timeout": 700}, {"list_entries": -1}],
)  # fmt: skip
def test_limits_are_checked(bad: dict[str, object]) -> None:
    with pytest.raises(UserError):
        CodingLimits(**bad)  # type: ignore[arg-type]


def test_options_are_checked(workspace: Path) -> None:
    with pytest.raises(UserError):
        coding_tools(workspace, secrets="maybe")  # type: ignore[arg-type]
    with pytest.raises(UserError):
        coding_tools(workspace / "missing")
