"""Rule of Two labels live in the store per run: two processes serving one run (a SQLite
file, PostgreSQL) see the same labels, and a fresh gate needs no replay."""

from __future__ import annotations

from collections.abc import Callable
from multiprocessing.context import SpawnProcess

from callgate import Context, ToolCall
from callgate.contract import LABELS, Route
from callgate.gate import RULE_OF_TWO, Gate, Policy, Rule
from tests.conftest import WAIT
from tests.gate import _workers
from tests.gate._workers import StoreSpec, open_spec

RUN = Context(principal="ann", tenant="acme", run_id="run-shared")
ALLOW = Policy([Rule.allow("all", tools=["*"])])


def test_labels_taken_in_by_one_process_hold_a_call_in_another(
    store_spec: StoreSpec, spawn: Callable[..., SpawnProcess]
) -> None:
    open_spec(store_spec).close()  # migrate once
    child = spawn(_workers.fetch_untrusted, store_spec, RUN.run_id)
    child.join(WAIT)
    assert child.exitcode == 0
    store = open_spec(store_spec)
    assert _rule_of_two(store.labels.of("run-shared")) == {
        "untrusted_output": "fetch_page (call f1)"
    }
    with Gate(_workers.rule_of_two_tools(), store=store, policy=ALLOW) as gate:
        private = gate.call_sync(
            ToolCall(id="p1", name="read_customers", arguments={}), context=RUN
        )
        send = gate.call_sync(
            ToolCall(id="s1", name="wire_money", arguments={"to": "x"}), context=RUN
        )
        other_run = gate.call_sync(
            ToolCall(id="s2", name="wire_money", arguments={"to": "x"}),
            context=Context(principal="ann", tenant="acme", run_id="run-other"),
        )
    assert private.route is Route.COMPLETED
    assert send.route is Route.HELD and send.rule_id == RULE_OF_TWO
    assert "fetch_page (call f1)" in (send.reason or "")  # the result that brought it in
    assert other_run.route is Route.COMPLETED  # another run took in nothing
    assert _rule_of_two(store.labels.of("run-shared")).keys() == {
        "untrusted_output",
        "private_data",
    }
    store.close()


def _rule_of_two(labels: dict[str, str]) -> dict[str, str]:
    """The Rule of Two labels among a run's rows (the run's spotlight boundary is one too)."""
    return {label: source for label, source in labels.items() if label in LABELS}
