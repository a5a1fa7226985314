"""`callgate approvals ...` and `callgate receipts ...` against a SQLite file."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from callgate import Approve, Context, Decline, ToolCall, tool
from callgate.contract import Route
from callgate.gate import Approvals, Gate, Policy, Rule
from callgate.store import Approval, SQLiteStore
from tests.cli.helpers import assert_error, cli

CTX = Context(principal="ann", tenant="acme", run_id="run-cli")


@tool(effect="write")
def refund(order: str, amount: int) -> str:
    """Refund an order."""
    return f"refunded {amount} on {order}"


def _cli(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    ran = cli(*args, env=env)
    return ran.code, ran.output


def _held(path: Path, n: int) -> list[str]:
    with Gate([refund], store=SQLiteStore(path)) as gate:
        held = [
            gate.call_sync(
                ToolCall(
                    id=f"c{i}", name="refund", arguments={"order": f"O-{i}", "amount": 10 + i}
                ),
                context=CTX,
            )
            for i in range(n)
        ]
        assert gate.store is not None
        gate.store.close()
    return [h.approval_id or "" for h in held]


def test_list_show_approve_deny_then_resume(tmp_path: Path) -> None:
    path = tmp_path / "callgate.db"
    first, second = _held(path, 2)
    code, out = _cli("approvals", "list", "--store", f"sqlite:///{path}")
    assert code == 0 and first in out and second in out and "refund" in out
    code, out = _cli("approvals", "show", first, "--json", env={"CALLGATE_STORE": str(path)})
    shown = json.loads(out)
    assert code == 0 and shown["arguments"] == {"order": "O-0", "amount": 10}
    assert shown["state"] == "pending" and shown["rule_id"] == "default:write"
    code, out = _cli("approvals", "approve", first, "--by", "boss", "--grant", "--store", str(path))
    assert code == 0 and "approved" in out and "rest of the run" in out
    code, out = _cli("approvals", "deny", second, "--note", "too late", "--store", str(path))
    assert code == 0 and "declined" in out
    code, out = _cli("approvals", "approve", second, "--store", str(path))
    assert code == 1 and "error" in out
    code, out = _cli("approvals", "list", "--store", str(path))
    assert "no approvals" in out

    with Gate([refund], store=SQLiteStore(path)) as gate:
        done = gate.resume_sync(first)
        declined = gate.resume_sync(second)
        assert gate.store is not None
        gate.store.close()
    assert done.route is Route.COMPLETED and done.content == "refunded 10 on O-0"
    assert declined.route is Route.DECLINED and "too late" in declined.content


def test_show_of_an_unknown_approval_fails(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    _held(path, 1)
    assert_error(cli("approvals", "show", "nope", "--store", str(path)), "no approval", code=1)


def _journal(path: Path) -> None:
    with Gate(
        [refund], store=SQLiteStore(path), policy=Policy([Rule.allow("refunds", tools=["refund"])])
    ) as gate:
        for i in range(4):
            gate.call_sync(
                ToolCall(id=f"c{i}", name="refund", arguments={"order": f"O-{i}", "amount": i}),
                context=CTX,
            )
        assert gate.store is not None
        gate.store.close()


def test_receipts_list_show_and_verify(tmp_path: Path) -> None:
    path = tmp_path / "callgate.db"
    _journal(path)
    code, out = _cli("receipts", "list", "--store", str(path))
    assert code == 0 and "refund" in out and "completed" in out and "refunds" in out
    code, out = _cli("receipts", "show", "2", "--store", str(path))
    shown = json.loads(out)
    assert code == 0 and shown["seq"] == 2 and shown["rule_id"] == "refunds"
    assert shown["policy_version"] and shown["tool_fingerprint"] == refund.fingerprint
    code, out = _cli("receipts", "verify", "--store", str(path))
    assert code == 0 and "ok: 4 receipts" in out
    verified = json.loads(cli("receipts", "verify", "--store", str(path), "--json").stdout)
    with SQLiteStore(path) as store:
        head = store.receipts.head()
    assert verified["ok"] and verified["checked"] == 4
    assert verified["head"] == {"seq": head.seq, "hash": head.hash}
    assert head.hash in out  # the whole head, to publish elsewhere


def test_receipts_list_to_a_pipe_is_not_cut(tmp_path: Path) -> None:
    path = tmp_path / "callgate.db"
    _journal(path)
    ran = cli("receipts", "list", "--store", str(path), env={"COLUMNS": "40"})
    keys = [
        r["idempotency_key"]
        for r in json.loads(cli("receipts", "list", "--store", str(path), "--json").stdout)
    ]
    assert ran.code == 0 and "…" not in ran.stdout
    assert all(key is None or key in ran.stdout for key in keys)
    assert "refund" in ran.stdout and "completed" in ran.stdout


def test_receipts_list_filters_and_order(tmp_path: Path) -> None:
    path = tmp_path / "callgate.db"
    _journal(path)
    newest = json.loads(cli("receipts", "list", "--store", str(path), "--json").stdout)
    oldest = json.loads(
        cli("receipts", "list", "--store", str(path), "--json", "--oldest-first").stdout
    )
    assert [r["seq"] for r in newest] == [4, 3, 2, 1] and [r["seq"] for r in oldest] == [1, 2, 3, 4]
    assert cli("receipts", "list", "--store", str(path), "--route", "denied").stdout.strip() == (
        "no receipts"
    )
    bad = cli("receipts", "list", "--store", str(path), "--route", "nope")
    assert bad.code == 2 and "is not a route" in bad.stderr


TAMPER: dict[str, Callable[[sqlite3.Connection], object]] = {
    "edited": lambda db: db.execute("UPDATE callgate_receipts SET route = 'denied' WHERE seq = 2"),
    "deleted": lambda db: db.execute("DELETE FROM callgate_receipts WHERE seq = 2"),
    "reordered": lambda db: db.executescript(
        "UPDATE callgate_receipts SET seq = -1 WHERE seq = 2;"
        "UPDATE callgate_receipts SET seq = 2 WHERE seq = 3;"
        "UPDATE callgate_receipts SET seq = 3 WHERE seq = -1;"
    ),
}


@pytest.mark.parametrize("tamper", sorted(TAMPER))
def test_verify_names_the_first_bad_receipt(tmp_path: Path, tamper: str) -> None:
    path = tmp_path / "callgate.db"
    _journal(path)
    with sqlite3.connect(path) as db:
        TAMPER[tamper](db)
    code, out = _cli("receipts", "verify", "--store", str(path))
    assert code == 1 and "BROKEN at receipt #2" in out, out


def test_decisions_as_json(tmp_path: Path) -> None:
    path = tmp_path / "callgate.db"
    first, second = _held(path, 2)
    (approved,) = json.loads(
        cli("approvals", "approve", first, "--store", str(path), "--json").stdout
    )
    assert approved["id"] == first and approved["state"] == "approved"
    denied = cli("approvals", "deny", second, "--store", str(path), "--json", "--note", "no")
    assert [a["state"] for a in json.loads(denied.stdout)] == ["denied"]
    assert json.loads(cli("approvals", "list", "--store", str(path), "--json").stdout) == []
    everything = cli("approvals", "list", "--all", "--store", str(path), "--json").stdout
    assert {a["id"] for a in json.loads(everything)} == {first, second}


def _rewrite_consistently(path: Path) -> None:
    """Change receipt 2 and recompute every hash after it and the head: the forgery a
    database writer can make, which only an anchor kept elsewhere reveals."""
    from callgate.store import receipt_hash

    with SQLiteStore(path) as store:
        receipts = store.receipts.list(limit=100)
    db = sqlite3.connect(path)
    prev = receipts[0].hash
    for receipt in receipts[1:]:
        forged = dataclasses.replace(receipt, route=Route.DENIED, prev_hash=prev)
        digest = receipt_hash(
            forged,
            seq=forged.seq,
            prev_hash=prev,
            recorded_at=forged.recorded_at,
            payload=forged.payload_hash,
            version=forged.chain_version,
        )
        db.execute(
            "UPDATE callgate_receipts SET route = 'denied', prev_hash = ?, hash = ? WHERE seq = ?",
            (prev, digest, receipt.seq),
        )
        prev = digest
    db.execute("UPDATE callgate_chain_head SET hash = ? WHERE id = 1", (prev,))
    db.commit()
    db.close()


def test_a_published_head_reveals_a_consistent_rewrite(tmp_path: Path) -> None:
    path = tmp_path / "cg.db"
    _journal(path)
    code, published = _cli("receipts", "head", "--store", str(path))
    assert code == 0 and published.strip().count(":") == 1
    seq, digest = published.strip().split(":")
    assert int(seq) >= 2 and len(digest) == 64
    code, out = _cli("receipts", "verify", "--store", str(path), "--anchor", published.strip())
    assert code == 0 and "holds the anchor" in out
    _rewrite_consistently(path)
    code, _ = _cli("receipts", "verify", "--store", str(path))
    assert code == 0  # consistent in itself: only the anchor can tell
    code, out = _cli("receipts", "verify", "--store", str(path), "--anchor", published.strip())
    assert code == 1 and "does not match the anchor" in out
    code, out = _cli("receipts", "verify", "--store", str(path), "--anchor", digest)
    assert code == 1 and "no receipt holds the anchored hash" in out
    assert_error(cli("receipts", "verify", "--store", str(path), "--anchor", "nope"), "anchor")


def test_several_approvals_are_decided_together_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "callgate.db"
    first, second, third = _held(path, 3)
    code, out = _cli("approvals", "deny", third, "--store", str(path))
    assert code == 0
    code, out = _cli("approvals", "approve", first, second, third, "--store", str(path))
    assert code == 2 and f"nothing was decided: {third} is denied" in out
    code, out = _cli("approvals", "list", "--store", str(path))
    assert first in out and second in out  # still pending: a batch is decided whole
    code, out = _cli("approvals", "approve", first, second, "--by", "boss", "--store", str(path))
    assert code == 0 and f"approved {first}" in out and f"approved {second}" in out
    code, out = _cli("approvals", "list", "--store", str(path))
    assert "no approvals" in out


def test_a_typo_in_a_batch_is_named_with_every_other_refusal(tmp_path: Path) -> None:
    path = tmp_path / "callgate.db"
    first, second, third = _held(path, 3)
    assert _cli("approvals", "deny", second, "--store", str(path))[0] == 0
    ran = cli("approvals", "approve", first, second, "nope", third, "--store", str(path))
    assert_error(ran, "nothing was decided", f"{second} is denied", "there is no approval nope")
    pending = json.loads(cli("approvals", "list", "--store", str(path), "--json").stdout)
    assert [a["id"] for a in pending] == [first, third]


def test_several_decisions_as_json_are_one_list(tmp_path: Path) -> None:
    path = tmp_path / "callgate.db"
    ids = _held(path, 2)
    ran = cli("approvals", "approve", *ids, "--store", str(path), "--json")
    assert [a["id"] for a in json.loads(ran.stdout)] == ids


def test_a_grant_for_a_run_less_approval_decides_none_of_the_batch(tmp_path: Path) -> None:
    path = tmp_path / "callgate.db"
    (with_run,) = _held(path, 1)
    with Gate([refund], store=SQLiteStore(path)) as gate:
        call = ToolCall(id="r", name="refund", arguments={"order": "O-9", "amount": 9})
        run_less = gate.call_sync(call, context=Context(principal="ann")).approval_id or ""
    ran = cli("approvals", "approve", "--grant", with_run, run_less, "--store", str(path))
    assert_error(ran, "nothing was decided", f"{run_less} belongs to no run")
    pending = json.loads(cli("approvals", "list", "--store", str(path), "--json").stdout)
    assert {a["id"] for a in pending} == {with_run, run_less}


def test_a_decision_refused_after_the_check_decides_none_of_the_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "callgate.db"
    first, second, third = _held(path, 3)
    decide_all = Approvals.decide_all

    def raced(
        self: Approvals, approval_ids: Sequence[str], decision: Approve | Decline
    ) -> tuple[Approval, ...]:
        # Another process decides the second between the check and the transaction.
        other = SQLiteStore(path)
        other.approvals.decide(second, Decline(by="bo"))
        other.close()
        return decide_all(self, approval_ids, decision)

    monkeypatch.setattr(Approvals, "decide_all", raced)
    ran = cli("approvals", "approve", first, second, third, "--store", str(path))
    assert_error(ran, "nothing was decided", f"approval {second!r} is denied")
    pending = json.loads(cli("approvals", "list", "--store", str(path), "--json").stdout)
    assert [a["id"] for a in pending] == [first, third]
