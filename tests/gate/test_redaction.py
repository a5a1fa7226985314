"""Redaction: secrets never reach the store or the logs, and optionally not the model."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from callgate import Context, Edit, ToolCall, tool
from callgate.contract import Route, Tool
from callgate.gate import REDACTED, Gate, Policy, ReceiptSettings, Redactor, Rule
from callgate.store import SQLiteStore

CTX = Context(principal="ann", tenant="acme", run_id="run-r")
ALLOW = Policy([Rule.allow("ok", tools=["*"])])

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


def _secret_result_tool() -> Tool:
    @tool(effect="write")
    def login(user: str) -> dict[str, object]:
        """Log a user in."""
        return {
            "user": user,
            "session_token": "tok-9f8e7d6c5b4a",
            "profile": {"client_secret": "cs-0a1b2c3d", "db_password": "pw-77889900"},
            "note": "ticket ACME-12345 opened",
        }

    return login


async def test_secrets_in_tool_results_never_reach_the_store(tmp_path: Path) -> None:
    """Values under keys the redactor calls secret, in the result's JSON text and its
    structured value, in the stored outcome (replayed to duplicates) and the receipt."""
    store = SQLiteStore(tmp_path / "cg.db")
    settings = ReceiptSettings(store_payloads=True)
    with Gate([_secret_result_tool()], store=store, policy=ALLOW, receipts=settings) as gate:
        first = await gate.call(
            ToolCall(id="c1", name="login", arguments={"user": "bo"}), context=CTX
        )
        replay = await gate.call(
            ToolCall(id="c1", name="login", arguments={"user": "bo"}), context=CTX
        )
    assert (
        first.route is Route.COMPLETED and "tok-9f8e7d6c5b4a" in first.content
    )  # the model sees it
    assert replay.replayed and "tok-9f8e7d6c5b4a" not in replay.content
    stored = [str(r.outcome) for r in [store.idempotency.get(first.idempotency_key or "")] if r]
    receipts = [f"{r.arguments} {r.result}" for r in store.receipts.list()]
    for secret in ("tok-9f8e7d6c5b4a", "cs-0a1b2c3d", "pw-77889900"):
        assert all(secret not in text for text in [*stored, *receipts])
    assert stored and receipts
    store.close()


async def test_two_gates_redact_with_their_own_patterns_everywhere(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Logs, store and results each get the gate's own redactor, not the first gate's."""

    @tool(effect="write")
    def fail(ticket: str) -> str:
        """Fail loudly."""
        raise RuntimeError(f"cannot open {ticket}")

    gates = {
        "ACME": Gate([fail], store=f"sqlite:///{tmp_path / 'a.db'}", policy=ALLOW,
                     redactor=Redactor(patterns=(r"ACME-\d{5}",), in_results=True),
                     receipts=ReceiptSettings(store_payloads=True)),
        "ZETA": Gate([fail], store=f"sqlite:///{tmp_path / 'z.db'}", policy=ALLOW,
                     redactor=Redactor(patterns=(r"ZETA-\d{5}",), in_results=True),
                     receipts=ReceiptSettings(store_payloads=True)),
    }  # fmt: skip
    caplog.set_level(logging.ERROR, logger="callgate.gate")
    for prefix, gate in gates.items():
        ticket = f"{prefix}-12345"
        result = await gate.call(
            ToolCall(id=f"c-{prefix}", name="fail", arguments={"ticket": ticket}), context=CTX
        )
        assert result.route is Route.FAILED and ticket not in result.content
        assert gate.store is not None
        stored = " ".join(f"{r.arguments} {r.result}" for r in gate.store.receipts.list())
        assert ticket not in stored and REDACTED in stored
        gate.close()
    assert "cannot open" in caplog.text  # the failure was logged ...
    assert "ACME-12345" not in caplog.text and "ZETA-12345" not in caplog.text  # ... redacted


async def test_edited_arguments_are_stored_redacted(tmp_path: Path) -> None:
    @tool(effect="irreversible")
    def connect(host: str, password: str) -> str:
        """Connect to a host."""
        return f"connected to {host}"

    store = SQLiteStore(tmp_path / "cg.db")
    with Gate([connect], store=store) as gate:
        held = await gate.call(
            ToolCall(id="c1", name="connect", arguments={"host": "db1", "password": "a"}),
            context=CTX,
        )
        assert held.approval_id is not None
        edited = {"host": "db2", "password": "hunter2-edited"}
        await gate.decide(held.approval_id, Edit(arguments=edited, by="bo"))
        approval = store.approvals.get(held.approval_id)
        # The edited call itself runs; the stored form cannot stand in for it.
        ran = await gate.resume(
            ToolCall(id="c1", name="connect", arguments=edited),
            approval_id=held.approval_id,
            context=CTX,
        )
    assert approval is not None and approval.edited_arguments == {
        "host": "db2",
        "password": REDACTED,
    }
    assert ran.route is Route.COMPLETED and ran.content == "connected to db2"
    store.close()
