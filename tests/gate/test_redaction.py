"""Redaction: secrets never reach the store or the logs, and optionally not the model."""

from __future__ import annotations

import logging

import pytest

from callgate import Context, ToolCall, tool
from callgate.contract import Route
from callgate.gate import REDACTED, Gate, Policy, ReceiptSettings, Redactor, Rule

SECRETS = [
    "sk-proj-Abcdefghijklmnopqrstuvwxyz012345",
    "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "xoxb-123456789012-abcdefghijkl",
    "sk_live_abcdefghijklmnop1234",
    "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234",
    "hf_abcdefghijklmnopqrstuvwxyzABCDEF",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
]


@pytest.mark.parametrize("secret", SECRETS)
def test_provider_keys_are_redacted_in_text(secret: str) -> None:
    text = Redactor().text(f"config: {secret} end")
    assert secret not in text and REDACTED in text and text.endswith(" end")


def test_headers_pairs_urls_keys_and_custom_patterns() -> None:
    r = Redactor(patterns=(r"ACCT-\d{6}",), keys=("pin",))
    text = r.text(
        "Authorization: Bearer abc.def-123456 and password=hunter2, "
        "postgres://bob:s3cret@db/x and ACCT-123456"
    )
    assert "abc.def-123456" not in text and "hunter2" not in text and "s3cret" not in text
    assert "ACCT-123456" not in text and "Bearer [REDACTED]" in text and "bob:" in text
    value = r.value(
        {
            "user": "bo",
            "Api-Key": "k1",
            "nested": [{"client_secret": "c"}],
            "PIN": "1234",
            "max_tokens": 300,
            "password": None,
        }
    )
    assert value == {
        "user": "bo",
        "Api-Key": REDACTED,
        "nested": [{"client_secret": REDACTED}],
        "PIN": REDACTED,
        "max_tokens": 300,
        "password": None,
    }
    pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIE\nabc\n-----END RSA PRIVATE KEY-----"
    assert r.text(pem) == REDACTED


async def test_receipt_payloads_and_stored_outcomes_are_redacted(sqlite_url: str) -> None:
    @tool(effect="write")
    def deploy(service: str, token: str) -> dict[str, str]:
        """Deploy a service."""
        return {"service": service, "log": f"used {token} to log in"}

    settings = ReceiptSettings(store_payloads=True)
    with Gate(
        [deploy], store=sqlite_url, receipts=settings, policy=Policy([Rule.allow("ok")])
    ) as gate:
        token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
        result = await gate.call(
            ToolCall(id="c", name="deploy", arguments={"service": "api", "token": token}),
            context=Context(run_id="r"),
        )
        assert gate.store is not None
        [receipt] = gate.store.receipts.list()
        record = gate.store.idempotency.get(result.idempotency_key or "")
    assert result.route is Route.COMPLETED and token in result.content  # model: not configured
    assert receipt.arguments == {"service": "api", "token": REDACTED}
    assert token not in str(receipt.result) and record is not None
    assert token not in str(record.outcome)


async def test_results_to_the_model_when_configured() -> None:
    @tool(effect="read")
    def env() -> str:
        """Show the environment."""
        return "OPENAI_API_KEY=sk-proj-Abcdefghijklmnopqrstuvwxyz012345"

    with Gate([env], policy=Policy(), redactor=Redactor(in_results=True)) as gate:
        result = await gate.call(ToolCall(id="c", name="env"))
    assert "sk-proj" not in result.content and REDACTED in result.content


async def test_logged_tracebacks_are_redacted(caplog: pytest.LogCaptureFixture) -> None:
    @tool(effect="read")
    def broken() -> str:
        """Always breaks."""
        raise RuntimeError("connect failed with password=hunter2")

    with Gate([broken]) as gate, caplog.at_level(logging.ERROR, logger="callgate"):
        result = await gate.call(ToolCall(id="c", name="broken"))
    assert result.route is Route.FAILED and "hunter2" not in result.content
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    assert "RuntimeError" in logged and "hunter2" not in logged


async def test_retention_prunes_payloads_never_the_chain(sqlite_url: str) -> None:
    @tool(effect="read")
    def echo(text: str) -> str:
        """Echo."""
        return text

    settings = ReceiptSettings(store_payloads=True, retention_seconds=0.0)
    with Gate([echo], store=sqlite_url, receipts=settings) as gate:
        for i in range(3):
            await gate.call(ToolCall(id=f"c{i}", name="echo", arguments={"text": f"t{i}"}))
        assert gate.store is not None
        assert [r.arguments for r in gate.store.receipts.list()] == [
            {"text": "t0"},
            {"text": "t1"},
            {"text": "t2"},
        ]
        assert gate.prune_payloads() == 3
        pruned = gate.store.receipts.list()
        report = gate.store.receipts.verify()
    assert [(r.arguments, r.result) for r in pruned] == [(None, None)] * 3
    assert all(r.payload_hash for r in pruned) and report.ok
