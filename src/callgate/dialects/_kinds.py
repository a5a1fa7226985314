"""The closed vocabularies of the dialect layer: dialects, tool choice, warnings."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

__all__ = ["ChoiceMode", "Dialect", "DialectWarning", "ToolChoice", "WarningAction"]


class Dialect(StrEnum):
    """A wire format callgate converts to and from."""

    OPENAI_CHAT = "openai_chat"
    """OpenAI Chat Completions (`POST /v1/chat/completions`), and compatible servers."""
    OPENAI_RESPONSES = "openai_responses"
    """OpenAI Responses (`POST /v1/responses`)."""
    ANTHROPIC = "anthropic"
    """Anthropic Messages (`POST /v1/messages`)."""
    GEMINI = "gemini"
    """Google Gemini `generateContent` (REST camelCase, also accepted by `google-genai`)."""
    MCP = "mcp"
    """Model Context Protocol `tools/list` and `tools/call` results."""
    TEXT = "text"
    """Plain text: a prompt section for models without native tool calling."""

    @property
    def provider(self) -> str:
        """Who issues opaque state: state from one provider is never sent to another."""
        return {"openai_chat": "openai", "openai_responses": "openai"}.get(self.value, self.value)


ChoiceMode = Literal["auto", "required", "none"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolChoice:
    """Which tools the model may or must call, independent of any dialect.

    `tools` narrows the choice to a subset; one tool with `mode="required"` forces it.
    """

    mode: ChoiceMode = "auto"
    """`auto`: the model decides; `required`: it must call a tool; `none`: it must not."""
    tools: tuple[str, ...] = ()
    """Canonical names the model is limited to (empty: every tool of the catalog)."""

    @classmethod
    def auto(cls) -> ToolChoice:
        return cls(mode="auto")

    @classmethod
    def required(cls) -> ToolChoice:
        return cls(mode="required")

    @classmethod
    def none(cls) -> ToolChoice:
        return cls(mode="none")

    @classmethod
    def tool(cls, name: str) -> ToolChoice:
        """Force a call of the tool called `name`."""
        return cls(mode="required", tools=(name,))

    @classmethod
    def allowed(cls, names: Iterable[str], *, required: bool = False) -> ToolChoice:
        """Limit the model to `names`; with `required`, it must call one of them."""
        return cls(mode="required" if required else "auto", tools=tuple(names))


WarningAction = Literal["dropped", "rewritten", "described", "not_strict", "aliased", "ignored"]


@dataclass(frozen=True, kw_only=True, slots=True)
class DialectWarning:
    """Something a dialect could not carry as given, and what was done instead.

    Schema keywords dropped or rewritten for a provider stay enforced by the host,
    which validates every call against the tool's original schema.
    """

    dialect: Dialect
    tool: str | None
    """The canonical tool name, or None for request-wide settings (tool choice, parallel)."""
    path: str
    """JSON pointer into the original input schema ("" for the root or a non-schema item)."""
    keyword: str
    """The schema keyword or request setting concerned."""
    action: WarningAction
    """`dropped`: left out of the wire schema; `rewritten`: expressed differently;
    `described`: moved into the description text; `not_strict`: the tool is sent without
    strict mode; `aliased`: the name was replaced; `ignored`: a setting has no equivalent."""
    message: str

    def __str__(self) -> str:
        where = f"{self.tool}{self.path}" if self.tool else self.keyword
        return f"[{self.dialect}] {where}: {self.message}"
