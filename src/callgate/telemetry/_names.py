"""The names spans and metrics carry: the GenAI semantic conventions' and callgate's own.

The GenAI names are those of `opentelemetry-semantic-conventions` (the `gen_ai_attributes`
and `gen_ai_metrics` modules); they are written out here so that the package is not a
run-time dependency, and `tests/telemetry` checks them against it.
"""

from __future__ import annotations

from typing import Final

# -- GenAI semantic conventions -----------------------------------------------------------------
OPERATION: Final = "gen_ai.operation.name"
PROVIDER: Final = "gen_ai.provider.name"
REQUEST_MODEL: Final = "gen_ai.request.model"
CONVERSATION: Final = "gen_ai.conversation.id"
FINISH_REASONS: Final = "gen_ai.response.finish_reasons"
INPUT_TOKENS: Final = "gen_ai.usage.input_tokens"
OUTPUT_TOKENS: Final = "gen_ai.usage.output_tokens"
TOKEN_TYPE: Final = "gen_ai.token.type"
TOOL_NAME: Final = "gen_ai.tool.name"
TOOL_CALL_ID: Final = "gen_ai.tool.call.id"
TOOL_TYPE: Final = "gen_ai.tool.type"
TOOL_DESCRIPTION: Final = "gen_ai.tool.description"
TOOL_ARGUMENTS: Final = "gen_ai.tool.call.arguments"
TOOL_RESULT: Final = "gen_ai.tool.call.result"
ERROR_TYPE: Final = "error.type"

EXECUTE_TOOL: Final = "execute_tool"
INVOKE_AGENT: Final = "invoke_agent"
CHAT: Final = "chat"

OPERATION_DURATION: Final = "gen_ai.client.operation.duration"
TOKEN_USAGE: Final = "gen_ai.client.token.usage"

# -- callgate's own -----------------------------------------------------------------------------
ROUTE: Final = "callgate.route"
RULE_ID: Final = "callgate.rule.id"
APPROVAL_ID: Final = "callgate.approval.id"
REPLAYED: Final = "callgate.idempotency.replayed"
REASON: Final = "callgate.reason"
EFFECT: Final = "callgate.tool.effect"
SOURCE: Final = "callgate.tool.source"
PRINCIPAL: Final = "callgate.principal"
TENANT: Final = "callgate.tenant"
RUN_ID: Final = "callgate.run.id"
BATCH_ID: Final = "callgate.batch.id"
STEP: Final = "callgate.step"
STATUS: Final = "callgate.run.status"
LIMIT: Final = "callgate.run.limit"
DECISION: Final = "callgate.approval.decision"
DECIDED_BY: Final = "callgate.approval.decided_by"

HELD_EVENT: Final = "callgate.approval.held"
DECIDED_EVENT: Final = "callgate.approval.decided"

CALLS: Final = "callgate.calls"
CALL_DURATION: Final = "callgate.call.duration"
APPROVALS_WAITING: Final = "callgate.approvals.waiting"

UNKNOWN_TOOL: Final = "_unknown"
"""The tool name metrics use for a name no tool has: a model's inventions must not become
metric series."""

DURATION_BUCKETS: Final = (
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0,
)  # fmt: skip
"""Seconds: a call through the gate takes microseconds to minutes (a held call's resume)."""
TOKEN_BUCKETS: Final = (
    1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
)  # fmt: skip
"""The conventions' advice for `gen_ai.client.token.usage`."""

_MAX_IDENTIFIER = 256

PROVIDERS: Final = {"gemini": "gcp.gemini"}
"""callgate's provider names that the conventions spell otherwise (`gen_ai.provider.name`)."""


def identifier(text: str) -> str:
    """A name or id from a model, fit for a span: at most 256 characters, encodable."""
    if len(text) > _MAX_IDENTIFIER:
        text = text[:_MAX_IDENTIFIER] + "…"
    return encodable(text)


def encodable(text: str) -> str:
    """`text` with lone surrogates written as escapes: an exporter could not encode them
    (payloads keep their length: the SDK's `OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT` bounds it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text
