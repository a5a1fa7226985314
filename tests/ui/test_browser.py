"""The page in a real browser: Debian's Chromium, headless, driven by Playwright through its
executable path, against `callgate ui` running as its own process over the store of a real
`Agent` run paused on a held call.

Set CALLGATE_SCREENSHOTS=1 to write the README's screenshots to docs/.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from callgate.contract import Route
from callgate.store import Approval
from callgate.ui import CONTENT_SECURITY_POLICY
from tests.ui.scenario import (
    APPROVER_TOKEN,
    PAUSED_RUN,
    SETTINGS,
    TRAIL_RUN,
    XSS,
    Scenario,
    scenario,
)
from tests.ui.server import callgate_ui

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Dialog, Page

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("CALLGATE_CHROMIUM", "/usr/bin/chromium")
DOCS = Path(__file__).resolve().parents[2] / "docs"
# As the machine's notes say: no background traffic to hosts this network cannot reach.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def need_browser(chromium: str = CHROMIUM, *, playwright: str = "playwright") -> None:
    """Skip, with the install command, when Playwright or Chromium is missing; fail instead
    under `CI=true`, where `.ci/run` installs both."""
    missing = []
    if importlib.util.find_spec(playwright) is None:
        missing.append(
            "Playwright is not installed: pip install -e '.[dev]' (or pip install playwright)"
        )
    if not os.access(chromium, os.X_OK):
        missing.append(
            f"Chromium not found at {chromium}: apt-get install chromium "
            "(or set CALLGATE_CHROMIUM to its path)"
        )
    if missing:
        reason = "; ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


@pytest.fixture
def held(tmp_path: Path) -> Iterator[Scenario]:
    for built in scenario(tmp_path):
        built.pause_refund()
        built.hold_wire()
        yield built


@pytest.fixture
def site(held: Scenario, tmp_path: Path) -> Iterator[str]:
    config = tmp_path / "callgate.toml"
    config.write_text(SETTINGS, encoding="utf-8")
    with callgate_ui(held.url, config, "--tools", "tests.ui.scenario:tools") as address:
        yield address


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()


def _sign_in(page: Page, site: str) -> None:
    page.goto(site + "inbox")
    assert "/login" in page.url
    page.fill("#token", APPROVER_TOKEN)
    page.click("section.login button[type=submit]")
    page.wait_for_url("**/inbox")


def _approval(held: Scenario, run_id: str) -> Approval:
    [found] = [a for a in held.store.approvals.list() if a.run_id == run_id]
    return found


def _screenshot(page: Page, name: str, tmp_path: Path) -> None:
    """Every run takes it (and checks it is a PNG); CALLGATE_SCREENSHOTS=1 keeps it in docs/."""
    target = (DOCS if os.environ.get("CALLGATE_SCREENSHOTS") == "1" else tmp_path) / name
    page.screenshot(path=str(target), full_page=True)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_approver_approves_a_held_call_and_the_run_continues(
    page: Page, site: str, held: Scenario, tmp_path: Path
) -> None:
    refund = _approval(held, PAUSED_RUN)
    _sign_in(page, site)
    card = page.locator(f"#approval-{refund.id}")
    assert card.locator("h2 code").inner_text() == "refund"
    assert "held by" in card.inner_text() and "default:write" in card.inner_text()
    assert "Rule of Two" in page.locator(f"#approval-{_approval(held, TRAIL_RUN).id}").inner_text()
    _screenshot(page, "ui-inbox.png", tmp_path)

    card.locator("input[name=note]").first.fill("checked with the customer")
    card.locator("button.approve").click()
    page.wait_for_url(f"**/approvals/{refund.id}")
    assert "approved" in page.locator("h2 .state").inner_text()
    assert "checked with the customer" in page.locator("section.decision").inner_text()
    assert held.ledger.refunds == []  # a decision never runs the call by itself

    result = held.resume_refund()  # the run's host resumes it from the store
    assert result.status == "finished"
    assert held.ledger.refunds == [(XSS, 20)]

    page.goto(site + f"run?id={PAUSED_RUN}")
    turn = page.locator("section.batch", has_text="Turn 2")
    assert turn.locator(".route-held").count() == 1
    completed = turn.locator("tr", has=page.locator(".route-completed"))
    assert completed.count() == 1
    assert "finished" in page.locator("dl.facts").inner_text()
    _screenshot(page, "ui-run.png", tmp_path)

    completed.locator("td a").first.click()
    page.wait_for_url("**/receipts/*")
    assert refund.id in page.locator("dl.facts").inner_text()
    page.click("text=Verify the chain")
    assert "Intact:" in page.locator(".verdict").inner_text()
    assert "is covered by the verified chain" in page.locator(".verdict-one").inner_text()

    page.goto(site + "journal")
    rows = page.locator("table.receipts tbody tr")
    assert rows.count() == len(held.store.receipts.list(limit=1000))
    _screenshot(page, "ui-journal.png", tmp_path)


def test_an_xss_payload_in_arguments_and_results_is_text_and_runs_nothing(
    page: Page, site: str, held: Scenario
) -> None:
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    _sign_in(page, site)
    answer = page.goto(site + "inbox")
    assert answer is not None
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    refund = page.locator(f"#approval-{_approval(held, PAUSED_RUN).id}")
    assert XSS.replace('"', '\\"') in refund.locator("pre.json").inner_text()
    [mail] = [r for r in held.store.receipts.list() if r.tool_name == "read_mail"][:1]
    page.goto(site + f"receipts/{mail.seq}")
    assert "<script>" in page.locator("pre.json").last.inner_text()
    for path in (
        "inbox",
        f"receipts/{mail.seq}",
        f"approvals/{_approval(held, PAUSED_RUN).id}/edit",
    ):
        page.goto(site + path)
        assert page.locator("main img, main script, main svg").count() == 0
        assert page.locator("script").count() == 0
        assert page.title() != "owned"
    assert dialogs == []


def test_a_decision_without_the_csrf_token_is_refused(
    page: Page, site: str, held: Scenario
) -> None:
    wire = _approval(held, TRAIL_RUN)
    _sign_in(page, site)
    card = page.locator(f"#approval-{wire.id}")
    card.locator("form:has(button.approve) input[name=csrf]").evaluate("input => input.remove()")
    card.locator("button.approve").click()
    assert "CSRF" in page.locator("p.error").inner_text()
    forged = page.request.post(
        site + f"approvals/{wire.id}/decide", form={"action": "approve"}, max_redirects=0
    )
    assert forged.status == 403
    assert held.store.approvals.get(wire.id).state == "pending"  # type: ignore[union-attr]
    assert held.ledger.wires == []


def test_a_form_on_another_site_cannot_decide(page: Page, site: str, held: Scenario) -> None:
    """The classic forgery: a page elsewhere posts the decision form with the person's
    cookies. SameSite=Strict keeps the session cookie off it, and the Origin check would
    refuse it anyway."""
    wire = _approval(held, TRAIL_RUN)
    _sign_in(page, site)
    target = site + f"approvals/{wire.id}/decide"
    attacker = _page_elsewhere(
        f'<form id="f" method="post" action="{target}">'
        '<input name="action" value="approve"><input name="csrf" value="guess"></form>'
        "<script>document.getElementById('f').submit()</script>"
    )
    try:
        page.goto(attacker)
        page.wait_for_url(target)
        assert page.locator("p.error").count() == 1
    finally:
        _stop(attacker)
    assert held.store.approvals.get(wire.id).state == "pending"  # type: ignore[union-attr]
    assert held.ledger.wires == []
    resumed = [r for r in held.store.receipts.list() if r.route is Route.COMPLETED]
    assert all(r.tool_name != "send_wire" for r in resumed)


_SERVERS: dict[str, ThreadingHTTPServer] = {}


def _page_elsewhere(body: str) -> str:
    """Serve `body` from `localhost` (another site than the page's 127.0.0.1)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            data = body.encode()
            self.send_response(200)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"http://localhost:{server.server_address[1]}/"
    _SERVERS[address] = server
    return address


def _stop(address: str) -> None:
    server = _SERVERS.pop(address)
    server.shutdown()
    server.server_close()
