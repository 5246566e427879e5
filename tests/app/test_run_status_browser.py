"""In a real headless Chromium: status that matches reality, one active run per room, the /rooms URL, a
coverage map that draws documents four folders deep, and a server that honours settings.app.host wherever
it is started from."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager

import pytest

from core.settings import REPO_ROOT, get_settings
from core.types import Assignment

from agents.run import worker_lock
from agents.store import open_review_store
from tests.agents.rooms import contract, write_room
from tests.app.conftest import StreamlitUI, free_port, wait_http_ok

pytestmark = [pytest.mark.browser, pytest.mark.slow]
DEEP = "Deals/2024/Falcon/Commercial"  # four folders deep


def _deep_room_with_runs(settings) -> None:
    docs = write_room(settings, "deep", {f"{DEEP}/supply{i}.pdf": contract(f"Agreement {i}", ["governing_law"])
                                         for i in range(3)})
    store = open_review_store(settings)
    # r-1: its worker was killed mid-wave (the store still says running, three sub-agents "running")
    store.create_run("r-1", "deep", settings, docs, status="running")
    for i, d in enumerate(docs):
        store.put_assignment("r-1", Assignment(id=f"a{i}", agent=f"sub-{i}", document_ids=[d.id]), None, "review", True)
        store.start_assignment("r-1", f"a{i}")


def _metric(ui, label: str) -> str:
    from selenium.webdriver.common.by import By

    xp = f'//div[@data-testid="stMetric"][.//*[normalize-space(text())="{label}"]]//div[@data-testid="stMetricValue"]'
    return ui.wait().until(lambda d: next(iter(d.find_elements(By.XPATH, xp)), None), f"no metric {label!r}").text


def test_interrupted_run_active_run_rooms_url_and_deep_map(ui):
    from selenium.webdriver.common.by import By

    settings = get_settings()
    _deep_room_with_runs(settings)

    ui.open("rooms", "room=deep")  # the /rooms URL opens the Data rooms page
    ui.wait_text("Room “deep”")
    assert "Page not found" not in ui.body()

    ui.open("run", "room=deep&run_id=r-1")
    ui.wait_text("· interrupted — resume ·")  # the page
    ui.wait_text("Run status: interrupted — resume")  # the sidebar: the same word
    ui.wait_text("worker process is gone")
    assert _metric(ui, "Sub-agents active / finished") == "0 / 0"  # nobody works on the three "running" ones
    assert _metric(ui, "Documents covered") == "0/3"
    # the coverage map draws the documents that sit four folders deep (a depth limit left grey folders only)
    names = lambda d: {t.text for t in d.find_elements(By.CSS_SELECTOR, ".js-plotly-plot text.slicetext")}  # noqa: E731
    ui.wait().until(lambda d: {"supply0.pdf", "supply1.pdf", "supply2.pdf"} <= names(d),
                    "document tiles never drawn")

    # r-1 resumed by a worker (its lock held) while the reviewer looks at a newer finished run in another tab
    store = open_review_store(settings)
    store.create_run("r-2", "deep", settings, [], status="finished")
    with worker_lock.acquire(settings.run_dir("r-1") / "worker.lock", 5):
        ui.open("run", "room=deep&run_id=r-2")
        ui.wait_text("Run r-1 is active on this room")
        # the notice can be drawn before the button below it: wait for the button, enabled or not
        xp = '//button[.//*[normalize-space(text())="Start new run"]]'
        start = ui.wait().until(lambda d: next(iter(d.find_elements(By.XPATH, xp)), None), "no 'Start new run' button")
        assert start.get_attribute("disabled") is not None
        picker = '//div[@data-testid="stSelectbox"][.//label[normalize-space(.)="Run"]]//input'
        ui.wait().until(lambda d: d.find_element(By.XPATH, picker).get_attribute("value").endswith(
            "UTC · offline · no decisions · finished"), "the run picker names runs, not ids")
    ui.shot("run-interrupted")


def _listening(port: int) -> set[str]:
    """Local addresses (hex, as /proc/net/tcp writes them) of sockets listening on `port`."""
    out = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for line in open(table).read().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            addr, p = local.rsplit(":", 1)
            if state == "0A" and int(p, 16) == port:
                out.add(addr)
    return out


LOOPBACK_HEX = {"0100007F", "00000000000000000000000001000000"}  # 127.0.0.1, ::1


@contextmanager
def _server(argv: list[str], cwd, env: dict, port: int, log_path):
    with open(log_path, "w") as log:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_http_ok(f"http://127.0.0.1:{port}/_stcore/health", 90, proc)
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
            sys.stderr.write(open(log_path).read()[-3000:])


def test_launcher_honours_the_host_from_any_directory_and_a_bare_start_is_refused(browser, tmp_path, _workspace):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    port = free_port()
    env = {**os.environ, "DATAROOM_WORKSPACE": str(_workspace), "DATAROOM_APP__PORT": str(port)}
    env.pop("DATAROOM_APP__HOST", None)
    with _server([sys.executable, str(REPO_ROOT / "app" / "launch.py")], elsewhere, env, port, tmp_path / "a.log"):
        assert _listening(port) and _listening(port) <= LOOPBACK_HEX  # loopback only
        ui = StreamlitUI(browser, f"http://127.0.0.1:{port}", timeout=90)
        ui.open("rooms")
        ui.wait_text("No data room yet")
        assert "Usage statistics are on" not in ui.body() and "no sign-in" not in ui.body()

    # `streamlit run` from another directory reads no project config (usage statistics on): main.py serves
    # nothing. (Its first visit must be the root URL: see app/serve.py for what a page URL does first.)
    port = free_port()
    argv = [sys.executable, "-m", "streamlit", "run", str(REPO_ROOT / "app" / "main.py"), "--server.address",
            "127.0.0.1", "--server.port", str(port), "--server.headless", "true"]
    with _server(argv, elsewhere, env, port, tmp_path / "b.log"):
        ui = StreamlitUI(browser, f"http://127.0.0.1:{port}", timeout=90)
        browser.get(f"http://127.0.0.1:{port}/")
        ui.wait_text("Usage statistics are on")
        assert "No data room yet" not in ui.body()  # the page itself never ran
