"""`provider:model` specs (as the command line takes them) to adapters."""

from __future__ import annotations

from typing import Any

from callgate._errors import UserError
from callgate.models._adapter import SDKModel
from callgate.models._anthropic import AnthropicModel
from callgate.models._gemini import GeminiModel
from callgate.models._openai_chat import OpenAIChatModel
from callgate.models._openai_responses import OpenAIResponsesModel

__all__ = ["PROVIDERS", "model_from_spec"]

PROVIDERS: dict[str, type[SDKModel]] = {
    "openai": OpenAIChatModel,
    "openai-chat": OpenAIChatModel,
    "openai-responses": OpenAIResponsesModel,
    "anthropic": AnthropicModel,
    "gemini": GeminiModel,
    "google": GeminiModel,
}


def model_from_spec(spec: str, **kwargs: Any) -> SDKModel:
    """`openai:gpt-4o-mini`, `openai-responses:gpt-5`, `anthropic:claude-sonnet-4-5`,
    `gemini:gemini-2.5-flash`; keyword arguments go to the adapter (`base_url`, `stream`,
    `native_tools`, ...). An OpenAI-compatible server is `openai:MODEL` with `base_url`."""
    provider, sep, model = spec.partition(":")
    cls = PROVIDERS.get(provider)
    if not sep or not model or cls is None:
        raise UserError(
            f"model {spec!r}: expected PROVIDER:MODEL with PROVIDER one of "
            f"{', '.join(sorted(PROVIDERS))}"
        )
    return cls(model, **kwargs)
