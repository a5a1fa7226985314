"""Without Playwright or Chromium the browser tests skip with the install command, and
under `CI=true` (where `.ci/run` installs both) they fail instead."""

from __future__ import annotations

import sys

import pytest

from tests.ui.test_browser import need_browser

ABSENT_BROWSER = "/nonexistent/chromium"
ABSENT_MODULE = "playwright_is_not_installed_here"


def test_a_missing_chromium_skips_with_the_apt_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        need_browser(ABSENT_BROWSER, playwright="pytest")


def test_a_missing_playwright_skips_with_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="pip install") as skipped:
        need_browser(sys.executable, playwright=ABSENT_MODULE)
    assert "Chromium" not in str(skipped.value)


@pytest.mark.parametrize(
    ("chromium", "module"),
    [(ABSENT_BROWSER, "pytest"), (sys.executable, ABSENT_MODULE), (ABSENT_BROWSER, ABSENT_MODULE)],
)
def test_under_ci_a_missing_browser_fails(
    monkeypatch: pytest.MonkeyPatch, chromium: str, module: str
) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="install"):
        need_browser(chromium, playwright=module)


def test_with_both_present_nothing_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    need_browser(sys.executable, playwright="pytest")
