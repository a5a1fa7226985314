"""The pytest plugin, run on small user projects with pytester: the kit as one item per
fixture, from a `callgate_target` fixture or from `--callgate-catalog`."""

from __future__ import annotations

import textwrap

import pytest

# Loaded here, before pytester snapshots `sys.modules` for its in-process runs: a module
# first imported inside one run is dropped after it, and its classes would then differ from
# the ones `callgate` bound lazily on first use.
import callgate.testing._catalog_target  # noqa: F401

pytest_plugins = ["pytester"]

SHOP = '''
from callgate import Catalog, tool

ORDERS = {"O-1": "open", "O-2": "open"}

@tool(effect="read", examples=[{"order_id": "O-1"}])
def order_status(order_id: str) -> str:
    """Status of an order."""
    return ORDERS.get(order_id, "unknown")

@tool(effect="write", examples=[{"order_id": "O-2", "reason": "asked by the customer"}])
def cancel_order(order_id: str, reason: str) -> str:
    """Cancel an order."""
    ORDERS[order_id] = "cancelled"
    return f"cancelled {order_id}"

catalog = Catalog([order_status, cancel_order])
'''

POLICY = """
default = "effect"

[[rules]]
id = "support-cancels"
action = "deny"
reason = "only support staff cancel orders"
tools = ["cancel_order"]
lacks_roles = ["support"]
"""

CONFTEST = """
import pytest
from callgate.testing import supplier_target

SETUPS = []

@pytest.fixture
def callgate_target():
    SETUPS.append("up")
    yield supplier_target()
    SETUPS.append("down")

def pytest_sessionfinish(session):
    print(f"\\nsetups={SETUPS.count('up')} teardowns={SETUPS.count('down')}")
"""

FIXTURES = [
    "correct call",
    "unknown tool name",
    "wrong argument type",
    "another tenant's object",
    "missing permissions",
    "injected instructions in a result",
    "timeout before execution",
    "timeout after execution",
    "duplicated request id",
    "version conflict",
    "failed read-back",
]


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(shop=SHOP)
    pytester.path.joinpath("policy.toml").write_text(POLICY)
    return pytester


def test_a_conftest_target_runs_every_fixture_as_an_item(project: pytest.Pytester) -> None:
    project.mkpydir("tests")
    project.path.joinpath("tests", "conftest.py").write_text(CONFTEST)
    project.path.joinpath("tests", "test_own.py").write_text("def test_own():\n    pass\n")
    # In a process of its own: this suite's `tests` package must not shadow the project's.
    result = project.runpytest_subprocess("-v", "-s")
    result.assert_outcomes(passed=12)
    for name in FIXTURES:
        result.stdout.fnmatch_lines([f"tests/conftest.py::callgate?{name}? PASSED*"])
    # The summary says, for every fixture, what it expected and what must not happen.
    result.stdout.fnmatch_lines(
        [
            "*callgate fixture kit*",
            "tests/conftest.py::callgate?missing permissions?: ok: denied (expected denied);"
            " must not happen: any change (did not happen)",
        ]
    )
    result.stdout.fnmatch_lines(["setups=11 teardowns=11"])  # a fresh target per fixture


def test_one_fixture_runs_again_by_its_node_id(project: pytest.Pytester) -> None:
    project.makeconftest(CONFTEST)
    result = project.runpytest("conftest.py::callgate[version conflict]")
    result.assert_outcomes(passed=1)


def test_the_catalog_option_runs_the_kit_from_the_examples(project: pytest.Pytester) -> None:
    result = project.runpytest(
        "-v",
        "-rs",
        "--callgate-catalog=shop:catalog",
        "--callgate-policy=policy.toml",
        "--callgate-principal=ann",
        "--callgate-role=support",
    )
    result.assert_outcomes(passed=5, skipped=6)
    result.stdout.fnmatch_lines(
        [
            "shop:catalog::callgate?correct call? PASSED*",
            "shop:catalog::callgate?missing permissions? PASSED*",
            "shop:catalog::callgate?duplicated request id? PASSED*",
            "shop:catalog::callgate?version conflict? SKIPPED*",
        ]
    )
    result.stdout.fnmatch_lines(["*version conflict: no fault switches described*"])


def test_without_roles_the_permission_fixture_is_skipped(project: pytest.Pytester) -> None:
    result = project.runpytest("-rs", "--callgate-catalog=shop:catalog")
    result.assert_outcomes(passed=4, skipped=7)
    result.stdout.fnmatch_lines(["*missing permissions: no unprivileged principal described*"])


def test_a_catalog_that_breaks_a_fixture_is_named_with_its_route_and_effect(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(
        loose='''
        from typing import Any
        from callgate import tool

        CANCELLED = []

        @tool(effect="write", examples=[{"order_id": "O-2"}])
        def cancel_order(order_id: Any) -> str:
            """Cancel an order (accepts any value: the schema checks nothing)."""
            CANCELLED.append(order_id)
            return "cancelled"

        tools = [cancel_order]
        '''
    )
    project.path.joinpath("allow.toml").write_text(
        '[[rules]]\nid = "cancels"\naction = "allow"\ntools = ["cancel_order"]\n'
    )
    result = project.runpytest("--callgate-catalog=loose:tools", "--callgate-policy=allow.toml")
    result.assert_outcomes(passed=3, failed=1, skipped=7)
    result.stdout.fnmatch_lines(
        [
            "*_ callgate?wrong argument type? _*",
            "callgate fixture 'wrong argument type' failed",
            "  expected route:  invalid",
            "  got route:       completed   <-- wrong route",
            "  must not happen: any change (HAPPENED)",
        ]
    )
    result.stdout.fnmatch_lines(["FAILED loose:tools::callgate?wrong argument type?*"])
    assert "Traceback" not in result.stdout.str()


def test_a_target_that_lets_a_side_effect_through_fails(project: pytest.Pytester) -> None:
    project.makeconftest(
        """
        import dataclasses
        import pytest
        from callgate import Gate
        from callgate.testing import supplier_target

        @pytest.fixture
        def callgate_target():
            target = supplier_target()
            probe = target.gate()
            catalog = probe.catalog
            probe.close()
            return dataclasses.replace(target, gate=lambda: Gate(catalog))  # no policy, no store
        """
    )
    result = project.runpytest("-k", "duplicated or missing")
    result.assert_outcomes(failed=2, deselected=9)
    result.stdout.fnmatch_lines(
        [
            "callgate fixture 'duplicated request id' failed",
            "*must not happen: a second change (the duplicate must be a replay) (HAPPENED)",
        ]
    )


def test_a_fixture_returning_something_else_is_a_clear_failure(
    project: pytest.Pytester,
) -> None:
    project.makeconftest(
        "import pytest\n\n@pytest.fixture\ndef callgate_target():\n    return 'shop:catalog'\n"
    )
    result = project.runpytest("-k", "correct")
    result.assert_outcomes(failed=1, deselected=10)
    result.stdout.fnmatch_lines(
        ["*callgate_target must return a callgate.testing.FixtureTarget, not str*"]
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--callgate-policy=policy.toml"],
            "*--callgate-policy describes the catalog of --callgate-catalog MODULE:NAME, "
            "which is missing*",
        ),
        (
            ["--callgate-role=support"],
            "*--callgate-role describes the catalog of --callgate-catalog*",
        ),
        (["--callgate-catalog=shop"], "*'shop': expected MODULE:NAME, e.g. myapp.tools:catalog*"),
        (["--callgate-catalog=nowhere:catalog"], "*cannot import 'nowhere': ModuleNotFoundError*"),
        (["--callgate-catalog=shop:nothing"], "*module 'shop' has no 'nothing'*"),
        (
            ["--callgate-catalog=shop:ORDERS"],
            "*expected a Catalog, a list of tools, or a function returning one, got dict*",
        ),
        (
            ["--callgate-catalog=shop:catalog", "--callgate-policy=missing.toml"],
            "*--callgate-policy: *missing.toml*",
        ),
        (
            ["--callgate-catalog=shop:catalog", "--callgate-policy=shop.py"],
            "*--callgate-policy: *",
        ),
    ],
)
def test_a_wrong_option_is_a_usage_error(
    project: pytest.Pytester, args: list[str], message: str
) -> None:
    result = project.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert "Traceback" not in result.stderr.str()


def test_a_catalog_without_a_write_example_is_a_usage_error(project: pytest.Pytester) -> None:
    project.makepyfile(
        reads=textwrap.dedent(
            '''
            from callgate import tool

            @tool(effect="read", examples=[{"q": "x"}])
            def search(q: str) -> str:
                """Search."""
                return q

            @tool(effect="write")
            def save(text: str) -> str:
                """Save (no example)."""
                return text

            def tools():
                return [search, save]
            '''
        )
    )
    result = project.runpytest("--callgate-catalog=reads:tools")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*no write or irreversible tool with an example*"])


def test_a_project_without_the_kit_gets_no_items(project: pytest.Pytester) -> None:
    project.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = project.runpytest("--collect-only", "-q")
    result.stdout.fnmatch_lines(["test_plain.py::test_plain", "1 test collected*"])
    assert "callgate[" not in result.stdout.str()


def test_the_plugin_can_be_turned_off(project: pytest.Pytester) -> None:
    project.makeconftest(CONFTEST)
    project.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = project.runpytest("-p", "no:callgate")
    result.assert_outcomes(passed=1)
