"""The pytest plugin: the standard fixture kit as test items of your own suite.

Registered as the `callgate` pytest plugin (entry point `pytest11`), so installing callgate
is enough. It adds one test item per standard fixture, named after it, in two ways:

- a `callgate_target` fixture in a `conftest.py` (returning, or yielding, a `FixtureTarget`)
  puts the kit in that directory: `tests/conftest.py::callgate[correct call]`, ...;
- `pytest --callgate-catalog module:catalog [--callgate-policy policy.toml]
  [--callgate-principal P] [--callgate-tenant T] [--callgate-role R ...]` runs it against a
  catalog (a `Catalog`, a list of tools, or a function returning one), described by
  `catalog_target` from the tools' examples.

A fixture whose route is wrong, or whose forbidden side effect happened, fails with both
in its message; one the target does not describe is skipped with the reason. Nothing is
imported from callgate beyond this module until the kit is asked for.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Generator, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from callgate.testing._fixtures import Fixture, FixtureResult, FixtureTarget

__all__ = [
    "pytest_addoption",
    "pytest_collect_file",
    "pytest_configure",
    "pytest_make_collect_report",
    "pytest_terminal_summary",
]

TARGET_FIXTURE = "callgate_target"
_SOURCE = pytest.StashKey["Callable[[], FixtureTarget] | None"]()
_RESULTS = pytest.StashKey["list[tuple[str, FixtureResult]]"]()
_CONTEXT_OPTIONS = ("callgate_policy", "callgate_principal", "callgate_tenant", "callgate_role")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("callgate", "callgate fixture kit")
    group.addoption(
        "--callgate-catalog",
        metavar="MODULE:NAME",
        help="run the standard fixture kit against this catalog (a Catalog, a list of tools, "
        "or a function returning one); the calls come from the tools' examples",
    )
    group.addoption(
        "--callgate-policy", metavar="FILE", help="the policy (TOML) the catalog's gate runs"
    )
    group.addoption(
        "--callgate-principal",
        metavar="NAME",
        help="the principal allowed to make the write (default: callgate-kit)",
    )
    group.addoption("--callgate-tenant", metavar="NAME", help="the principal's tenant")
    group.addoption(
        "--callgate-role",
        metavar="ROLE",
        action="append",
        default=[],
        help="a role of the principal (repeat for several)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_RESULTS] = []
    spec = config.getoption("callgate_catalog")
    if spec is None:
        given = [o for o in _CONTEXT_OPTIONS if config.getoption(o)]
        if given:
            flag = "--" + given[0].replace("_", "-")
            raise pytest.UsageError(
                f"{flag} describes the catalog of --callgate-catalog MODULE:NAME, which is "
                "missing (a callgate_target fixture brings its own gate and context)"
            )
        config.stash[_SOURCE] = None
        return
    config.stash[_SOURCE] = _catalog_source(config, spec)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, Any]:
    """With `--callgate-catalog`, the kit is one more thing the session collects."""
    report = yield
    source = collector.config.stash.get(_SOURCE, None)
    if report.passed and source is not None and isinstance(collector, pytest.Session):
        spec = collector.config.getoption("callgate_catalog")
        report.result.append(Kit.from_parent(collector, name=spec, nodeid=spec, source=source))
    return report


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A `conftest.py` that defines `callgate_target` holds the kit of its directory:
    `tests/conftest.py::callgate[correct call]` (so a node id runs one fixture again)."""
    if file_path.name != "conftest.py":
        return None
    conftest = parent.config.pluginmanager.get_plugin(str(file_path))
    if conftest is None or not hasattr(conftest, TARGET_FIXTURE):
        return None
    try:
        nodeid = file_path.relative_to(parent.config.rootpath).as_posix()
    except ValueError:  # a conftest outside the rootdir
        nodeid = file_path.as_posix()
    return Kit.from_parent(parent, name=file_path.name, nodeid=nodeid, path=file_path, source=None)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    results = config.stash.get(_RESULTS, [])
    if not results:
        return
    terminalreporter.section("callgate fixture kit")
    for nodeid, result in results:
        terminalreporter.line(f"{nodeid}: {_summary(result)}")


class Kit(pytest.Collector):
    """The standard fixtures, one item each; the target comes from `source` (the command
    line) or, when `source` is None, from the `callgate_target` fixture."""

    def __init__(self, *, source: Callable[[], FixtureTarget] | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.source = source

    def collect(self) -> Iterable[pytest.Item]:
        from callgate.testing._fixtures import STANDARD_FIXTURES

        for fixture in STANDARD_FIXTURES:
            item = KitItem.from_parent(
                self, name=f"callgate[{fixture.name}]", callobj=self._test(fixture)
            )
            expected = "/".join(sorted(r.value for r in fixture.expected))
            item.user_properties += [("expected", expected), ("must_not", fixture.must_not)]
            yield item

    def _test(self, fixture: Fixture) -> Callable[..., None]:
        source = self.source
        if source is not None:

            def from_catalog(request: pytest.FixtureRequest) -> None:
                _check(request, fixture, source())

            return from_catalog

        def from_fixture(request: pytest.FixtureRequest, callgate_target: Any) -> None:
            _check(request, fixture, callgate_target)

        return from_fixture


class KitItem(pytest.Function):
    """One standard fixture, reported under its own name (`callgate[correct call]`)."""

    def reportinfo(self) -> tuple[Path, None, str]:
        return self.path, None, self.name


def _check(request: pytest.FixtureRequest, fixture: Fixture, target: Any) -> None:
    from callgate.testing._fixtures import FixtureTarget, run_fixtures_sync

    if not isinstance(target, FixtureTarget):
        pytest.fail(
            f"{TARGET_FIXTURE} must return a callgate.testing.FixtureTarget, not "
            f"{type(target).__name__}",
            pytrace=False,
        )
    [result] = run_fixtures_sync(target, only=[fixture.name]).results
    request.config.stash[_RESULTS].append((request.node.nodeid, result))
    if result.skipped is not None:
        pytest.skip(f"{fixture.name}: {result.skipped}")
    if not result.passed:
        pytest.fail(_failure(result), pytrace=False)


def _expected(result: FixtureResult) -> str:
    return " or ".join(sorted(r.value for r in result.expected))


def _failure(result: FixtureResult) -> str:
    got = result.route.value if result.route is not None else "no route"
    lines = [f"callgate fixture {result.name!r} failed"]
    lines.append(f"  expected route:  {_expected(result)}")
    mark = "" if result.route in result.expected else "   <-- wrong route"
    lines.append(f"  got route:       {got}{mark}")
    happened = "HAPPENED" if result.happened else "did not happen"
    lines.append(f"  must not happen: {result.must_not} ({happened})")
    if result.detail:
        lines.append(f"  detail:          {result.detail}")
    return "\n".join(lines)


def _summary(result: FixtureResult) -> str:
    if result.skipped is not None:
        return f"skipped ({result.skipped})"
    got = result.route.value if result.route is not None else "no route"
    verdict = "ok" if result.passed else "FAILED"
    side = "HAPPENED" if result.happened else "did not happen"
    return (
        f"{verdict}: {got} (expected {_expected(result)}); must not happen: "
        f"{result.must_not} ({side})"
    )


# -- --callgate-catalog ---------------------------------------------------------------------------


def _catalog_source(config: pytest.Config, spec: str) -> Callable[[], FixtureTarget]:
    """What the command line names, checked now: a bad option is a usage error, not a
    failing test."""
    from callgate._errors import UserError
    from callgate.contract import Catalog, Context, Tool
    from callgate.gate import Policy
    from callgate.testing._catalog_target import catalog_target

    found = _resolve(config, spec)
    try:
        policy_file = config.getoption("callgate_policy")
        policy = Policy.from_toml(Path(policy_file)) if policy_file else None
    except (UserError, OSError) as exc:
        raise pytest.UsageError(f"--callgate-policy: {exc}") from exc
    context = Context(
        principal=config.getoption("callgate_principal") or "callgate-kit",
        tenant=config.getoption("callgate_tenant"),
        roles=frozenset(config.getoption("callgate_role")),
    )

    def tools() -> Catalog | list[Tool]:
        value = found() if callable(found) and not isinstance(found, Catalog) else found
        if isinstance(value, Catalog):
            return value
        if isinstance(value, list | tuple) and value and all(isinstance(t, Tool) for t in value):
            return list(value)
        raise pytest.UsageError(
            f"--callgate-catalog {spec}: expected a Catalog, a list of tools, or a function "
            f"returning one, got {type(value).__name__}"
        )

    def source() -> FixtureTarget:
        try:
            return catalog_target(tools(), policy=policy, context=context)
        except UserError as exc:
            raise pytest.UsageError(f"--callgate-catalog {spec}: {exc}") from exc

    source()  # every problem of the description shows now, once
    return source


def _resolve(config: pytest.Config, spec: str) -> Any:
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise pytest.UsageError(
            f"--callgate-catalog {spec!r}: expected MODULE:NAME, e.g. myapp.tools:catalog"
        )
    # Like `uvicorn module:app`: the directory pytest was started from is importable.
    here = str(config.invocation_params.dir)
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise pytest.UsageError(
            f"--callgate-catalog {spec}: cannot import {module_name!r}: {type(exc).__name__}: {exc}"
        ) from exc
    value = module
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise pytest.UsageError(
                f"--callgate-catalog {spec}: module {module_name!r} has no {attribute!r}"
            )
        value = getattr(value, part)
    return value
