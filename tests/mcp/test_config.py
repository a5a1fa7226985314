"""The mcpServers config: `${...}` expansion that fails closed, per-server settings, and one
clear error for every hostile file."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from callgate import UserError
from callgate.mcp import UnsetVariable, expand, load_upstreams, parse_upstreams

NAMES = st.text(alphabet=string.ascii_uppercase + "_", min_size=1, max_size=8).filter(
    lambda s: not s[0].isdigit()
)
PLAIN = st.text(
    alphabet=st.characters(blacklist_characters="${}", blacklist_categories=["Cs"]), max_size=20
)


def test_claude_code_config_with_tokens_from_the_environment() -> None:
    data = {
        "mcpServers": {
            "gitlab": {
                "command": "npx",
                "args": ["-y", "@example/gitlab-mcp", "--url", "${GITLAB_URL:-https://gl.local}"],
                "env": {"GITLAB_TOKEN": "${GITLAB_TOKEN}"},
            },
            "tracker": {
                "type": "http",
                "url": "https://tracker.example/mcp",
                "headers": {"Authorization": "Bearer ${env:TRACKER_TOKEN}"},
            },
        }
    }
    env = {"GITLAB_TOKEN": "glpat-abcdefghijklmnopqrst", "TRACKER_TOKEN": "tt-0123456789"}
    config = parse_upstreams(data, environ=env)
    gitlab, tracker = config.servers
    assert gitlab.transport == "stdio" and gitlab.args[-1] == "https://gl.local"
    assert gitlab.env == {"GITLAB_TOKEN": "glpat-abcdefghijklmnopqrst"}
    assert tracker.remote and tracker.headers["Authorization"] == "Bearer tt-0123456789"
    assert config.secrets == {"glpat-abcdefghijklmnopqrst", "tt-0123456789", "https://gl.local"}
    assert "tt-0123456789" not in tracker.describe() and "tt-0123456789" not in repr(tracker)


def test_vscode_servers_key_is_read() -> None:
    config = parse_upstreams({"servers": {"fs": {"type": "stdio", "command": "fs-mcp"}}})
    assert [s.name for s in config.servers] == ["fs"]


def test_unset_variable_names_server_and_variable() -> None:
    data = {"mcpServers": {"gitlab": {"command": "x", "env": {"T": "${GITLAB_TOKEN}"}}}}
    with pytest.raises(UnsetVariable) as caught:
        parse_upstreams(data, environ={})
    assert caught.value.server == "gitlab" and caught.value.variable == "GITLAB_TOKEN"
    assert "gitlab" in str(caught.value) and "GITLAB_TOKEN" in str(caught.value)


@pytest.mark.parametrize(
    "text", ["Bearer ${TOKEN", "${input:token}", "${ 1BAD}", "a${}b", "${workspace:x}"]
)
def test_a_dollar_brace_that_is_not_a_reference_is_refused(text: str) -> None:
    with pytest.raises(UserError, match="not a variable reference"):
        expand(text, {"TOKEN": "t"}, server="s", where="url")


@given(NAMES, PLAIN, PLAIN, PLAIN)
def test_expansion_replaces_exactly_the_reference(
    name: str, before: str, after: str, value: str
) -> None:
    for form in (f"${{{name}}}", f"${{env:{name}}}"):
        done = expand(before + form + after, {name: value}, server="s", where="args[0]")
        assert done.text == before + value + after
        assert done.secrets == ({value} if value else set())


@given(NAMES, PLAIN, PLAIN)
def test_default_applies_only_when_unset(name: str, default: str, value: str) -> None:
    text = f"${{{name}:-{default}}}"
    assert expand(text, {}, server="s", where="x").text == default
    assert expand(text, {name: value}, server="s", where="x").text == value


@given(st.text(max_size=60))
@settings(max_examples=300)
def test_expansion_never_leaves_a_reference_behind(text: str) -> None:
    try:
        done = expand(text, {"A": "1"}, server="s", where="x")
    except UserError:
        return
    assert "${" not in done.text or "${" in "1"


def test_settings_from_callgate_key_and_from_toml_table() -> None:
    inline = {
        "mcpServers": {
            "logs": {
                "command": "logs-mcp",
                "callgate": {"read_only": True, "tools": {"query_*": {"effect": "read"}}},
            },
            "gitlab": {"command": "gl"},
        }
    }
    config = parse_upstreams(
        inline, settings={"gitlab": {"labels": ["private_data"], "deny": ["delete_*"]}}
    )
    logs, gitlab = config.servers
    assert logs.settings.read_only and logs.settings.for_tool("query_logs").effect == "read"
    assert logs.settings.for_tool("other").effect is None
    assert gitlab.settings.labels == ("private_data",)
    assert not gitlab.settings.admits("delete_project") and gitlab.settings.admits("create_mr")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected a JSON object"),
        ({"mcpServers": []}, "no 'mcpServers'"),
        ({"mcpServers": {"a": "npx"}}, "must be an object"),
        ({"mcpServers": {"a": {"command": 1}}}, "command must be a string"),
        ({"mcpServers": {"a": {"command": "x", "args": "y"}}}, "'args' must be a list"),
        ({"mcpServers": {"a": {"command": "x", "args": [1]}}}, "args\\[0\\] must be a string"),
        ({"mcpServers": {"a": {"command": "x\u0000y"}}}, "NUL byte"),
        ({"mcpServers": {"a": {"command": "\ud800"}}}, "lone surrogate"),
        ({"mcpServers": {"a": {"command": "x", "env": {"A=B": "1"}}}}, "invalid name"),
        ({"mcpServers": {"a": {"type": "sse", "url": "http://x"}}}, "SSE transport"),
        ({"mcpServers": {"a": {"type": "ws", "command": "x"}}}, "unknown type"),
        ({"mcpServers": {"a": {"url": "file:///etc/passwd"}}}, "must start with http"),
        ({"mcpServers": {"a": {"url": "http://x", "headers": {"X": "a\r\nB: c"}}}}, "line break"),
        ({"mcpServers": {"a": {"url": "http://x", "headers": {"X Y": "a"}}}}, "header name"),
        ({"mcpServers": {"": {"command": "x"}}}, "printable"),
        ({"mcpServers": {"a": {"command": "x", "callgate": {"raed_only": True}}}}, "raed_only"),
        (
            {"mcpServers": {"a": {"command": "x", "callgate": {"call_timeout": float("nan")}}}},
            "call_timeout",
        ),
        (
            {"mcpServers": {"a": {"command": "x", "callgate": {"labels": ["secret"]}}}},
            "labels",
        ),
        (
            {"mcpServers": {"a": {"command": "x", "callgate": {"prefix": "a b"}}}},
            "prefix",
        ),
        ({"mcpServers": {"a.b": {"command": "x"}, "a_b": {"command": "y"}}}, "share the tool"),
        ({"mcpServers": {f"s{i}": {"command": "x"} for i in range(300)}}, "more than 256"),
    ],
)
def test_hostile_configs_get_one_clear_error(data: object, message: str) -> None:
    with pytest.raises(UserError, match=message) as caught:
        parse_upstreams(data)
    assert "\n" not in str(caught.value)


def test_settings_for_an_unknown_server_are_refused() -> None:
    with pytest.raises(UserError, match="does not define"):
        parse_upstreams({"mcpServers": {"a": {"command": "x"}}}, settings={"b": {}})


def test_settings_given_twice_are_refused() -> None:
    data = {"mcpServers": {"a": {"command": "x", "callgate": {}}}}
    with pytest.raises(UserError, match="given twice"):
        parse_upstreams(data, settings={"a": {}})


def test_disabled_servers_are_left_out() -> None:
    data = {"mcpServers": {"a": {"command": "x", "disabled": True}, "b": {"command": "y"}}}
    assert [s.name for s in parse_upstreams(data).servers] == ["b"]


@pytest.mark.parametrize(
    "content", [b"{not json", b"[" * 100_000 + b"]" * 100_000, b"\xff\xfe", b"{}"]
)
def test_broken_files(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / ".mcp.json"
    path.write_bytes(content)
    with pytest.raises(UserError) as caught:
        load_upstreams(path)
    assert str(path) in str(caught.value)


def test_oversized_file(tmp_path: Path) -> None:
    path = tmp_path / ".mcp.json"
    path.write_text(json.dumps({"mcpServers": {}, "pad": "x" * (2 << 20)}))
    with pytest.raises(UserError, match="1 MiB"):
        load_upstreams(path)
