"""The findings flow in a real headless Chromium, on a small room whose file name, clause,
model summary, agent name and reviewer note all carry markdown and HTML: "Accept & next" and
the X key decide and open the next open finding, the progress line follows, a severity edit
relabels the picker, status / file / confidence fit on screen, and no planted text becomes
an element that loads anything or links anywhere."""

from __future__ import annotations

import pytest

from core.settings import REPO_ROOT, Settings
from core.types import Citation, Finding, Severity

from agents.store import ReviewStore

from app.views import findings_view as fv
from tests.app import planted_room as pr

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not (REPO_ROOT / "assets" / "reviewer" / "model.zip").exists(),
                       reason="offline reviewer weights (assets/reviewer/model.zip) not built yet"),
]
PICKER = '//div[@data-testid="stSelectbox"][.//label[normalize-space(.)="Open finding"]]//input'
MODEL_SUMMARY = f"The model wrote {pr.PLANTED}"


def plant_model_finding(store: ReviewStore, run_id: str) -> Finding:
    """A finding as a model could return it: its summary and agent name carry the planted markup,
    and it quotes the planted clause up to the end of the markup (a span no other finding has)."""
    clause = next(f for f in store.findings(run_id) if pr.IMG_HTML in f.quote)
    n = clause.quote.index(pr.LINK_MD) + len(pr.LINK_MD)
    c = clause.citation
    f = Finding(category="change_of_control", severity=Severity.high, summary=MODEL_SUMMARY, quote=clause.quote[:n],
                citation=Citation(document_id=c.document_id, document_path=c.document_path, page=c.page,
                                  chunk_id=c.chunk_id, char_start=c.char_start, char_end=c.char_start + n),
                verified=True, agent=f"sub-9 {pr.IMG_MD}", confidence=0.42)
    assert store.add_findings(run_id, [f], None) == [f.id]
    return store.set_finding_review(f.id, "open", f"Note {pr.PLANTED}", "reviewer", run_id=run_id)


def nav(ui, title: str) -> None:
    from selenium.webdriver.common.by import By

    ui.retry(lambda: ui.wait().until(lambda d: next(iter(d.find_elements(
        By.XPATH, f'//a[@data-testid="stSidebarNavLink"][.//span[normalize-space(.)="{title}"]]')), None)).click())


def picker_text(ui) -> str:
    from selenium.webdriver.common.by import By

    return ui.retry(lambda: ui.d.find_element(By.XPATH, PICKER).get_attribute("value"))


def wait_picker(ui, text: str) -> None:
    ui.wait().until(lambda d: picker_text(ui) == text, f"the picker never showed {text!r}")


def assert_nothing_planted_loads(ui, origin: str) -> None:
    """No element points at a planted URL and the page fetched nothing from anywhere but the app."""
    d = ui.d
    imgs = d.execute_script("return [...document.querySelectorAll('img')].map(e => e.getAttribute('src'))")
    hrefs = d.execute_script("return [...document.querySelectorAll('a[href]')].map(e => e.getAttribute('href'))")
    fetched = d.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    planted = ("127.0.0.1:9", "p.png", "q.png", "javascript:")
    assert not [s for s in imgs if any(p in (s or "") for p in planted)], imgs
    assert not [h for h in hrefs if any(p in h for p in planted)], hrefs
    assert not [u for u in fetched if not u.startswith(origin)], fetched


def test_accept_and_next_in_the_browser_with_planted_markup(ui, app_server, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from app.session import services

    run_id = pr.ingest_and_review(tmp_path / "src", ui.workspace)
    settings = Settings(workspace=ui.workspace)
    store = ReviewStore(settings.db_path())
    planted = plant_model_finding(store, run_id)
    titles = services.titles(settings)

    ui.d.set_window_size(1366, 900)
    ui.open("", f"room={pr.ROOM}&run_id={run_id}")
    nav(ui, "Findings")
    ui.wait_text("review progress:")
    ui.wait_idle()

    # The table: status, file and confidence lead, and fit the grid without a horizontal scroll.
    headers = ui.wait().until(lambda d: d.execute_script(
        "return [...document.querySelectorAll('[data-testid=\"stDataFrame\"] th')].map(e => e.textContent)") or None)
    assert headers[:7] == ["review", "severity", "file", "category", "summary", "page", "confidence"]
    grid = ui.d.execute_script("return document.querySelector('[data-testid=\"stDataFrame\"] .dvn-scroller').clientWidth")
    lead = sum(fv.COLUMN_WIDTHS[c] for c in headers[:7]) + fv.SELECTOR_WIDTH
    assert lead <= grid, (lead, grid)
    assert "agent" not in headers and "id" not in headers

    # The planted finding: every planted string shows literally, and nothing loads.
    ui.retry(lambda: ui.select("Open finding", "The model wrote"))
    ui.wait_text(f"Summary. {MODEL_SUMMARY}")
    body = ui.body()
    for text in (pr.IMG_MD, pr.IMG_HTML, pr.LINK_MD, f"Reviewer note. Note {pr.PLANTED}", f"by sub-9 {pr.IMG_MD}",
                 pr.PLANTED_PATH, "model confidence 42%"):
        assert text in body, text
    assert_nothing_planted_loads(ui, app_server)
    # option labels too, while the list is open
    ui.wait_idle()  # choosing a finding re-keys the picker; find it once that rerun is drawn
    ui.retry(lambda: ui._click(ui.d.find_element(By.XPATH, PICKER)))
    options = ui.wait().until(lambda d: [o.text for o in d.find_elements(By.XPATH, '//*[@role="option"]')] or None)
    assert any("<img src=q.png> [l](javascript:alert(1)).txt" in o for o in options), options
    assert_nothing_planted_loads(ui, app_server)
    ActionChains(ui.d).send_keys(Keys.ESCAPE).perform()

    # Accept & next: the first finding is accepted and the next open one opens.
    findings = store.findings(run_id)
    short = fv.short_paths([f.citation.document_path for f in findings])
    first = findings[0]
    ui.wait_idle()
    ui.choose("Open finding", 0)  # the picker lists the findings in the store's (and the table's) order
    wait_picker(ui, fv.label(first, titles, short))
    ui.click("Accept & next")
    ui.wait_text("review progress: 1 accepted · 0 rejected · 0 edited")
    assert store.finding(first.id, run_id).reviewer_status.value == "accepted"
    second = store.finding(fv.next_open(findings, first.id), run_id)
    wait_picker(ui, fv.label(second, titles, short))

    # The X key: reject & next, without touching the mouse.
    ui.wait_idle()
    ui.retry(lambda: ActionChains(ui.d).move_to_element(ui.d.find_element(By.TAG_NAME, "h1")).click().send_keys("x").perform())
    ui.wait_text("review progress: 1 accepted · 1 rejected · 0 edited")
    assert store.finding(second.id, run_id).reviewer_status.value == "rejected"
    third = store.finding(fv.next_open(store.findings(run_id), second.id), run_id)
    wait_picker(ui, fv.label(third, titles, short))

    # A severity edit relabels the picker at once.
    new_sev = "info" if third.severity.value != "info" else "high"
    ui.wait_idle()
    ui.retry(lambda: ui.select("Severity", new_sev))
    ui.click("Save edit")
    ui.wait_text("1 edited")
    edited = store.finding(third.id, run_id)
    assert (edited.severity.value, edited.reviewer_status.value) == (new_sev, "edited")
    wait_picker(ui, fv.label(edited, titles, short))
    assert picker_text(ui).startswith(f"[{new_sev.upper()}] edited · ")
    # the note planted before the page opened is logged as a note
    cells = ui.d.execute_script("return [...document.querySelectorAll('[data-testid=\"stDataFrame\"] td')].map(e => e.textContent)")
    assert "note" in cells
    assert_nothing_planted_loads(ui, app_server)
    ui.d.save_screenshot(str(tmp_path / "findings-flow.png"))

    # The trace page shows the planted path and agent names as data too.
    nav(ui, "Trace")
    ui.wait_text("Agent tree")
    ui.wait_idle()
    assert_nothing_planted_loads(ui, app_server)
    assert planted.id  # the planted finding stayed in the run
