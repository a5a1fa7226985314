"""The configs shown in the README's gateway section and in docs/gateway.md are read by
callgate as written (a doc whose example callgate refuses is a broken doc)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from callgate.gate import Policy
from callgate.gateway import parse_settings
from callgate.mcp import parse_upstreams

ROOT = Path(__file__).resolve().parents[2]


def _blocks(kind: str) -> list[tuple[str, str]]:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## MCP gateway") : readme.index("## Performance")]
    docs = (ROOT / "docs" / "gateway.md").read_text()
    found = []
    for name, text in (("README", section), ("docs/gateway.md", docs)):
        found += [(name, b) for b in re.findall(rf"```{kind}\n(.*?)```", text, re.S)]
    return found


def _environment(text: str) -> dict[str, str]:
    names = re.findall(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)", text)
    return {n: f"value-of-{n.lower()}-0123456789" for n in names}


@pytest.mark.parametrize("block", _blocks("json"), ids=lambda b: b[0])
def test_json_configs_are_read(block: tuple[str, str]) -> None:
    _, text = block
    config = parse_upstreams(json.loads(text), environ=_environment(text))
    assert config.servers


@pytest.mark.parametrize("block", _blocks("toml"), ids=lambda b: b[0])
def test_toml_files_are_read(block: tuple[str, str]) -> None:
    _, text = block
    data: dict[str, Any] = tomllib.loads(text)
    if "rules" in data or "default" in data:
        assert Policy.from_dict(data).rules
        return
    settings = parse_settings(data, environ=_environment(text))
    assert settings.servers or len(settings.credentials) or settings.limits or settings.oauth


def test_the_readme_settings_fit_its_servers() -> None:
    (_, servers), *_ = _blocks("json")
    (_, settings), *_ = _blocks("toml")
    env = _environment(servers + settings)
    config = parse_upstreams(
        json.loads(servers),
        settings=parse_settings(tomllib.loads(settings), environ=env).servers,
        environ=env,
    )
    logs = config.server("logs")
    assert logs.settings.read_only and not logs.settings.admits("delete_streams")
    assert config.server("metrics").settings.for_tool("anything").effect == "read"
