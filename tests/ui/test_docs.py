"""docs/ui.md and the README's section: the config they show signs in as they say, and the
screenshots they show exist."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from callgate.gateway import hash_token, parse_settings

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ui.md"


def test_the_config_of_the_docs_gives_an_approver_and_a_tenant_auditor() -> None:
    block = re.search(r"```toml\n(.*?)```", DOC.read_text(), re.S)
    assert block is not None
    bo, ida = "bo-token-0123456789abcdef", "ida-token-0123456789abcdef"
    text = block.group(1).replace("<64 hex digits>", hash_token(bo))
    settings = parse_settings(tomllib.loads(text), environ={"IDA_TOKEN": ida})
    approver, auditor = settings.credentials.lookup(bo), settings.credentials.lookup(ida)
    assert approver is not None and approver.roles == {"approver"} and approver.tenant is None
    assert auditor is not None and auditor.roles == {"auditor"} and auditor.tenant == "acme"


def test_the_screenshots_shown_exist() -> None:
    for text in (DOC.read_text(), (ROOT / "README.md").read_text()):
        shown = re.findall(r"!\[[^\]]*\]\(((?:docs/)?ui-[a-z]+\.png)\)", text)
        assert len(shown) == 3
        for name in shown:
            path = ROOT / "docs" / Path(name).name
            assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path
