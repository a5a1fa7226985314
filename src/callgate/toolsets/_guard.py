"""What the coding toolset lets run by itself, asks a person about, or refuses, per call.

One function decides (`Guard.decide`), and two places ask it: the policy hook the toolset
ships (so a call that needs a person is `held` by the gate, with the toolset's rule id),
and each executor, just before it acts. The executor runs an asked-about call only when
the hook passed that very call to the gate's approval step; under a gate without the
toolset's policy (or with none) such a call fails closed instead of running.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from callgate._errors import ToolError
from callgate.contract import CallContext, Context
from callgate.gate import Decision, PolicyRequest
from callgate.schema import content_hash
from callgate.toolsets._addresses import blocked_reason
from callgate.toolsets._commands import Allowlist, check_argv
from callgate.toolsets._fetch import parse_target
from callgate.toolsets._workspace import Located, Workspace

__all__ = ["Guard", "SecretsMode"]

SecretsMode = Literal["private", "ask", "deny"]

_PATH_TOOLS = ("read_file", "list_dir", "edit_file", "write_file")
_WRITE_TOOLS = ("edit_file", "write_file")
_MAX_PASSES = 10_000


class Guard:
    """The toolset's own decisions: the allowlist, overwrites, secret and protected files,
    hosts nobody gave, and paths outside the workspace."""

    def __init__(
        self,
        *,
        workspace: Workspace,
        allowlist: Allowlist,
        hosts: Iterable[str],
        secrets: SecretsMode,
        overwrite: Literal["ask", "allow"],
        allow_loopback: bool = False,
    ) -> None:
        self.workspace = workspace
        self.allowlist = allowlist
        self.hosts = frozenset(h.strip().rstrip(".").lower() for h in hosts)
        self.secrets: SecretsMode = secrets
        self.overwrite = overwrite
        self.allow_loopback = allow_loopback
        self.fingerprints: frozenset[str] = frozenset()
        self._passes: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    # -- the decision -------------------------------------------------------------------------

    def decide(self, name: str, arguments: Mapping[str, Any]) -> Decision | None:
        try:
            if name in _PATH_TOOLS:
                return self._path(
                    name, self.workspace.locate(arguments.get("path", ".")), arguments
                )
            if name == "run_command":
                return self._command(arguments.get("argv"))
            if name == "fetch_url":
                return self._fetch(arguments.get("url"))
        except ToolError as exc:
            return Decision.deny(exc.message, rule_id="toolset:refused")
        return None

    def host_given(self, host: str) -> bool:
        return any(host == h or (h.startswith("*.") and host.endswith(h[1:])) for h in self.hosts)

    def _path(self, name: str, located: Located, arguments: Mapping[str, Any]) -> Decision | None:
        writing = name in _WRITE_TOOLS
        if located.secret and self.secrets != "private":
            what = "changing" if writing else "reading"
            reason = f"{located.shown} matches a secret-file pattern; {what} it"
            if self.secrets == "deny":
                return Decision.deny(f"{reason} is not allowed here", rule_id="toolset:secrets")
            return Decision.ask(f"{reason} needs a person's approval", rule_id="toolset:secrets")
        if not writing:
            return None
        if located.protected:
            return Decision.ask(
                f"{located.shown} is protected (repository internals can make allowlisted "
                "commands run other programs); a person must approve the change",
                rule_id="toolset:protected",
            )
        if name == "write_file" and self.workspace.exists(located):
            if self.overwrite == "allow":
                return Decision.allow(
                    f"overwriting {located.shown} is allowed", rule_id="toolset:overwrite"
                )
            return Decision.ask(
                f"write_file would replace the existing {located.shown}; a person must approve "
                "(or use edit_file to change a fragment)",
                rule_id="toolset:overwrite",
            )
        verb = "edits" if name == "edit_file" else "creates"
        return Decision.allow(
            f"{verb} {located.shown} inside the workspace", rule_id="toolset:workspace"
        )

    def _command(self, argv: object) -> Decision:
        words = check_argv(argv)
        rule, reason = self.allowlist.why_not(words)
        if rule is not None:
            return Decision.allow(reason, rule_id="toolset:allowlist")
        # A program nobody listed can send anything anywhere: a public sink for the Rule of Two.
        return Decision.ask(
            f"{reason}; a person must approve this command",
            rule_id="toolset:command",
            labels={"public_sink"},
        )

    def _fetch(self, url: object) -> Decision:
        target = parse_target(url)
        literal = target.literal
        reason = blocked_reason(literal) if literal is not None else None
        if reason is not None and not (self.allow_loopback and literal and literal.is_loopback):
            return Decision.deny(
                f"{target.url} is refused: {reason}; fetch_url reaches public addresses only",
                rule_id="toolset:refused",
            )
        if self.host_given(target.host):
            return Decision.allow(
                f"{target.host} is a host given for fetch_url", rule_id="toolset:hosts"
            )
        return Decision.ask(
            f"fetching from {target.host}, a host nobody gave, sends data out of the run "
            "(a public sink); a person must approve it",
            rule_id="toolset:egress",
            labels={"public_sink"},
        )

    # -- the two places that ask --------------------------------------------------------------

    def hook(self, request: PolicyRequest) -> Decision | None:
        """The policy hook: decides for the toolset's own tools, and lets the executor know
        which asked-about calls went to the approval step."""
        if request.tool.fingerprint not in self.fingerprints:
            return None
        decision = self.decide(request.tool.name, request.arguments)
        if decision is not None and decision.action == "ask":
            self._grant(_key(request.tool.name, request.arguments, request.context))
        return decision

    def check(self, name: str, arguments: Mapping[str, Any], call: CallContext) -> Decision | None:
        """Before acting: refuses what the toolset denies, and what it would ask about unless
        the policy hook passed this very call to a person."""
        decision = self.decide(name, arguments)
        if decision is None or decision.action == "allow":
            return decision
        if decision.action == "deny":
            raise ToolError(f"{decision.reason} (rule {decision.rule_id})")
        if not self._take(_key(name, arguments, call.context)):
            raise ToolError(
                f"{decision.reason}, and this gate does not ask people: nothing was done. "
                "Run the coding tools under their policy, Gate(catalog, policy=catalog.policy())"
            )
        return decision

    def _grant(self, key: str) -> None:
        with self._lock:
            self._passes[key] = self._passes.get(key, 0) + 1
            self._passes.move_to_end(key)
            while len(self._passes) > _MAX_PASSES:
                self._passes.popitem(last=False)

    def _take(self, key: str) -> bool:
        with self._lock:
            count = self._passes.get(key, 0)
            if count <= 1:
                self._passes.pop(key, None)
            else:
                self._passes[key] = count - 1
            return count > 0


def _key(name: str, arguments: Mapping[str, Any], context: Context) -> str:
    values = {k: v for k, v in arguments.items() if v is not None}
    who = [context.principal, context.tenant, context.run_id]
    return content_hash({"tool": name, "arguments": values, "who": who})
