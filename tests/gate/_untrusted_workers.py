"""Code that runs in child processes of the untrusted-result tests (spawned, not forked)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from callgate import Context, Gate, ToolCall
from callgate.gate import UntrustedResults
from callgate.lint import scan_text
from callgate.toolsets import coding_tools
from tests.gate._workers import StoreSpec, open_spec

SCAN = UntrustedResults(detector=scan_text, ignore={"S012"})


def fetch_ticket(spec: StoreSpec, root: str, url: str, run_id: str) -> None:
    """Another process of the run: the coding toolset fetches the ticket page, then exits."""
    catalog = coding_tools(Path(root), hosts=["127.0.0.1"], unsafe_allow_loopback=True)
    store = open_spec(spec)
    context = Context(principal="dev", run_id=run_id)
    with Gate(catalog, store=store, policy=catalog.policy(), untrusted=SCAN) as gate:
        call = ToolCall(id="f1", name="fetch_url", arguments={"url": url})
        result = asyncio.run(gate.call(call, context=context))
    store.close()
    assert result.route == "completed", result.content
    assert result.findings, result.content
