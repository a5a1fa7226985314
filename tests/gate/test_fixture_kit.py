"""The fixture kit: every standard fixture passes on the example tools, on both stores,
and the kit notices a gate that lets the forbidden side effects through."""

from __future__ import annotations

import dataclasses

from callgate.contract import Route
from callgate.gate import Gate
from callgate.store import PostgresStore, SQLiteStore, Store
from callgate.testing._fixtures import (
    STANDARD_FIXTURES,
    FixtureTarget,
    run_fixtures,
    supplier_target,
)
from tests.gate.conftest import StoreSpec


def _open(spec: StoreSpec) -> Store:
    kind, target, schema = spec
    return SQLiteStore(target) if kind == "sqlite" else PostgresStore(target, schema=schema)


async def test_every_standard_fixture_passes_on_the_example_tools(store_spec: StoreSpec) -> None:
    store = _open(store_spec)
    try:
        report = await run_fixtures(supplier_target(store))
    finally:
        store.close()
    assert report.passed, f"\n{report}"
    assert [r.name for r in report.results] == [f.name for f in STANDARD_FIXTURES]
    assert not any(r.skipped for r in report.results)
    assert {r.name: r.route for r in report.results}["injected instructions in a result"] is (
        Route.HELD
    )


def _lean(target: FixtureTarget) -> FixtureTarget:
    """The same tools behind a gate with no policy and no store."""
    probe = target.gate()
    catalog = probe.catalog
    probe.close()
    return dataclasses.replace(target, gate=lambda: Gate(catalog))


async def test_the_kit_catches_a_gate_without_policy_or_store() -> None:
    report = await run_fixtures(_lean(supplier_target()))
    failed = {r.name for r in report.results if not r.passed}
    assert not report.passed
    assert {
        "missing permissions",
        "injected instructions in a result",
        "duplicated request id",
    } <= failed
    assert "MUST NOT HAPPEN" in str(report)
    assert {
        "unknown tool name",
        "wrong argument type",
        "version conflict",
        "failed read-back",
        "another tenant's object",
    }.isdisjoint(failed)


async def test_fixtures_without_a_description_are_skipped() -> None:
    bare = dataclasses.replace(supplier_target(), faults=None, untrusted=None)
    report = await run_fixtures(
        bare, only=["version conflict", "correct call", "injected instructions in a result"]
    )
    assert report.passed
    assert [r.skipped is not None for r in report.results] == [False, True, True]
