"""The GenAI names callgate writes are those of `opentelemetry-semantic-conventions`."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from callgate.telemetry import _names as n

try:
    from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as ga
    from opentelemetry.semconv._incubating.metrics import gen_ai_metrics as gm
    from opentelemetry.semconv.attributes import error_attributes
except ImportError:
    pytest.skip(
        "needs opentelemetry-semantic-conventions: pip install opentelemetry-sdk",
        allow_module_level=True,
    )


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (n.OPERATION, ga.GEN_AI_OPERATION_NAME),
        (n.PROVIDER, ga.GEN_AI_PROVIDER_NAME),
        (n.REQUEST_MODEL, ga.GEN_AI_REQUEST_MODEL),
        (n.CONVERSATION, ga.GEN_AI_CONVERSATION_ID),
        (n.FINISH_REASONS, ga.GEN_AI_RESPONSE_FINISH_REASONS),
        (n.INPUT_TOKENS, ga.GEN_AI_USAGE_INPUT_TOKENS),
        (n.OUTPUT_TOKENS, ga.GEN_AI_USAGE_OUTPUT_TOKENS),
        (n.TOKEN_TYPE, ga.GEN_AI_TOKEN_TYPE),
        (n.TOOL_NAME, ga.GEN_AI_TOOL_NAME),
        (n.TOOL_CALL_ID, ga.GEN_AI_TOOL_CALL_ID),
        (n.TOOL_TYPE, ga.GEN_AI_TOOL_TYPE),
        (n.TOOL_ARGUMENTS, ga.GEN_AI_TOOL_CALL_ARGUMENTS),
        (n.TOOL_RESULT, ga.GEN_AI_TOOL_CALL_RESULT),
        (n.ERROR_TYPE, error_attributes.ERROR_TYPE),
    ],
)
def test_attribute_names_match_the_conventions(ours: str, theirs: str) -> None:
    assert ours == theirs


def test_operation_and_metric_names_match_the_conventions() -> None:
    operations = {"CHAT": n.CHAT, "INVOKE_AGENT": n.INVOKE_AGENT, "EXECUTE_TOOL": n.EXECUTE_TOOL}
    source = ga.__file__
    with open(source, encoding="utf-8") as f:  # the enum is deprecated: read, not used
        text = f.read()
    for member, value in operations.items():
        assert f'{member} = "{value}"' in text
    assert gm.GEN_AI_CLIENT_OPERATION_DURATION == n.OPERATION_DURATION
    assert gm.GEN_AI_CLIENT_TOKEN_USAGE == n.TOKEN_USAGE
    assert 'GCP_GEMINI = "gcp.gemini"' in text and n.PROVIDERS["gemini"] == "gcp.gemini"


@given(st.text(alphabet=st.characters(exclude_categories=()), max_size=2000))  # surrogates too
def test_any_text_becomes_an_encodable_bounded_identifier(text: str) -> None:
    shown = n.identifier(text)
    shown.encode("utf-8")
    assert len(shown) <= 257
    if len(text) <= 256 and n.encodable(text) == text:
        assert shown == text  # what can be shown as it is, is
