"""The run a gateway call belongs to: what the Rule of Two's labels, a grant and an
approval's request hash are scoped to.

A client that knows its conversation or task names it in `_meta["callgate/run-id"]` (up
to 128 printable characters): the run is `mcp:TENANT/PRINCIPAL/RUN`, and a new task starts
with clean labels. A client that names none shares one run per principal,
`mcp:TENANT/PRINCIPAL`. No MCP session is used: MCP 2026-07-28 has none, and a repeat (after
a decision, a lost connection, on another gateway process) must find its approval and its
labels wherever it arrives.

Neither kind of run has an end the gateway could see, so a run ends when it has been idle:
after `run_idle` seconds (default an hour) with no call recorded in it, its labels and
grants are forgotten (`LabelStore.forget_idle`; any gateway process on the store may do
it). A pending approval survives (it is bound to the run's id, which does not change), so
the repeat after a decision still finds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from callgate.gateway._identity import Identity
from callgate.schema import content_hash

__all__ = ["MAX_RUN_ID", "RUN_META", "RUN_PREFIX", "request_id", "run_id", "run_of"]

RUN_META = "callgate/run-id"
RUN_PREFIX = "mcp:"
MAX_RUN_ID = 128


def run_id(identity: Identity, meta: Mapping[str, Any] | None) -> str:
    """The run of a call by `identity` whose `_meta` is `meta`. Every part is quoted, so no
    principal, tenant or client run id can stand for another's."""
    base = f"{RUN_PREFIX}{_part(identity.tenant or '-')}/{_part(identity.principal)}"
    named = (meta or {}).get(RUN_META)
    if isinstance(named, str) and 0 < len(named) <= MAX_RUN_ID and named.isprintable():
        return f"{base}/{_part(named)}"
    return base


def _part(text: str) -> str:
    return quote(text, safe="", errors="surrogatepass")


def request_id(
    identity: Identity,
    tool: str,
    arguments: Mapping[str, Any],
    key: str | None,
    *,
    run: str | None = None,
) -> str:
    """The request id the gate keys a write by: the caller, its run, the tool, the
    arguments and the client's own idempotency key (when it sends one in `_meta`)."""
    try:
        digest = content_hash(dict(arguments))
    except (TypeError, ValueError, RecursionError):
        digest = content_hash(repr(arguments))
    material = {
        "tenant": identity.tenant,
        "principal": identity.principal,
        "run": run,
        "tool": tool,
        "arguments": digest,
        "key": key,
    }
    return "mcp-" + content_hash(material)[:32]


def run_of(identity: Identity, meta: Mapping[str, Any]) -> str:
    """The run of a call whose `_meta` is `meta`; a malformed run id is refused."""
    named = meta.get(RUN_META)
    if named is not None and (
        not isinstance(named, str) or not 0 < len(named) <= MAX_RUN_ID or not named.isprintable()
    ):
        raise MCPError(
            INVALID_PARAMS,
            f"_meta[{RUN_META!r}] must be a string of 1 to {MAX_RUN_ID} printable characters",
        )
    return run_id(identity, meta)
