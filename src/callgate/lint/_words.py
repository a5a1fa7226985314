"""Word lists and name splitting shared by the lint rules.

The verb list is what tool names in the real corpora (BFCL, LiveMCPBench, the Docker MCP
registry) start with, plus their common synonyms; it decides `verb_noun`, list-like tools
and annotation contradictions.
"""

from __future__ import annotations

import re

__all__ = ["DESTRUCTIVE", "LIST_VERBS", "READ_VERBS", "VERBS", "name_tokens"]

READ_VERBS = frozenset({
    "get", "read", "fetch", "list", "search", "find", "query", "lookup", "look", "show",
    "describe", "view", "retrieve", "count", "check", "inspect", "browse", "scan",
    "explore", "peek", "load", "display", "print", "preview", "return", "select", "filter",
    "sort", "compare", "estimate", "calculate", "compute", "evaluate", "measure", "analyze",
    "analyse", "detect", "identify", "recognize", "classify", "predict", "forecast",
    "summarize", "summarise", "extract", "parse", "validate", "verify", "test", "monitor",
    "track", "watch", "poll", "resolve", "locate", "discover", "recommend", "suggest",
    "explain", "translate", "convert", "format", "render", "match", "diff", "determine",
    "solve", "review", "assess", "rank", "score", "audit",
})

DESTRUCTIVE = frozenset({
    "delete", "remove", "drop", "purge", "destroy", "erase", "wipe", "kill", "terminate",
    "cancel", "revoke", "ban", "block", "disable", "reset", "truncate", "overwrite",
    "uninstall", "unlink", "unsubscribe", "archive", "close", "deactivate", "suspend",
    "shutdown", "stop",
})

WRITE_VERBS = frozenset({
    "set", "create", "add", "update", "edit", "modify", "change", "put", "post", "send",
    "write", "save", "store", "upload", "insert", "append", "move", "copy", "rename",
    "replace", "patch", "apply", "assign", "grant", "approve", "reject", "submit",
    "publish", "share", "invite", "book", "reserve", "order", "buy", "sell", "pay",
    "transfer", "charge", "refund", "schedule", "register", "enroll", "subscribe", "start",
    "run", "execute", "launch", "deploy", "build", "install", "enable", "activate", "open",
    "generate", "make", "produce", "draw", "plot", "play", "pause", "resume", "restart",
    "click", "type", "fill", "press", "navigate", "login", "logout", "sign", "authenticate",
    "connect", "disconnect", "attach", "detach", "merge", "split", "sync", "import",
    "export", "download", "commit", "push", "pull", "fork", "clone", "tag", "label", "mark",
    "flag", "notify", "alert", "remind", "invoke", "call", "trigger", "emit", "log",
    "record", "increment", "decrement", "upsert", "fix", "configure", "convert", "encode",
    "decode", "encrypt", "decrypt", "compress", "hash", "escalate", "mute", "unmute",
    "like", "follow", "unfollow", "comment", "reply", "forward", "translate", "transcribe",
    "crop", "resize", "rotate", "scale", "take", "capture", "screenshot", "init",
    "initialize", "setup", "prepare", "plan", "think", "solve", "optimize", "simulate",
})

VERBS = READ_VERBS | DESTRUCTIVE | WRITE_VERBS

LIST_VERBS = frozenset({"list", "search", "find", "query", "browse", "lookup", "scan",
                        "enumerate", "filter", "discover", "explore"})

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def name_tokens(name: str) -> list[str]:
    """`get_weatherInCity.v2` -> `["get", "weather", "in", "city", "v2"]`."""
    parts = re.split(r"[^A-Za-z0-9]+", name)
    out: list[str] = []
    for part in parts:
        out.extend(p.lower() for p in _CAMEL.split(part) if p)
    return out
