"""Fixtures for the app tests: AppTest on the real entry point, and a real
`streamlit run` server driven by headless Chromium through Selenium."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from core.settings import REPO_ROOT

MAIN = REPO_ROOT / "app" / "main.py"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture(autouse=True)
def _hash_embeddings(_workspace, monkeypatch):
    """The app tests check the UI, not retrieval quality: the hashing embedder keeps
    ingest fast on a loaded 2-core machine (MiniLM in numpy is ~3 s per chunk batch there)."""
    from core.settings import get_settings

    monkeypatch.setenv("DATAROOM_EMBEDDING__MODEL", "hash")
    get_settings.cache_clear()
    yield


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http_ok(url: str, timeout: float, proc: subprocess.Popen) -> None:
    """Poll the server's health endpoint until it answers, or fail with its log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)  # polling interval of a health probe, not a sync point
    raise TimeoutError(f"{url} did not come up in {timeout}s")


@pytest.fixture
def app_server(_workspace, tmp_path):
    """`streamlit run app/main.py` on a free loopback port with this test's workspace."""
    port = free_port()
    log = open(tmp_path / "streamlit.log", "w")
    env = dict(os.environ, DATAROOM_WORKSPACE=str(_workspace), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        # app.serve: streamlit's command line without the pages-folder mode, as `python -m app` starts it
        [sys.executable, "-m", "app.serve", "run", str(MAIN), "--server.address", "127.0.0.1",
         "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http_ok(base + "/_stcore/health", 60, proc)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        # Surface the server log on failure: the browser only sees symptoms.
        sys.stderr.write((tmp_path / "streamlit.log").read_text()[-4000:])


@pytest.fixture
def browser(tmp_path):
    """Headless Debian Chromium via its chromedriver; nothing is downloaded."""
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("chromium/chromedriver not installed (scripts/setup.sh with WITH_BROWSER=1)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'chrome-profile'}",
                "--window-size=1500,1000"):
        opts.add_argument(arg)
    opts.add_experimental_option("prefs", {
        "download.default_directory": str(downloads), "download.prompt_for_download": False,
    })
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.downloads_dir = downloads
    try:
        yield driver
    finally:
        driver.quit()


class StreamlitUI:
    """Explicit waits and widget lookups for a Streamlit page in Selenium (no sleeps as sync)."""

    def __init__(self, driver, base: str, timeout: float = 60):
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait

        self.d, self.base, self.timeout = driver, base, timeout
        # Streamlit re-renders elements on every rerun; a stale handle just means "look again".
        self.wait = lambda t=None: WebDriverWait(driver, t or timeout, poll_frequency=0.25,
                                                 ignored_exceptions=[StaleElementReferenceException])

    def open(self, path: str = "", query: str = "") -> None:
        self.d.get(f"{self.base}/{path}" + (f"?{query}" if query else ""))
        self.wait_text("Dataroom RLM")

    def body(self) -> str:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By

        try:
            return self.d.find_element(By.TAG_NAME, "body").text
        except StaleElementReferenceException:
            return ""

    def wait_text(self, text: str, timeout: float | None = None) -> None:
        self.wait(timeout).until(lambda d: text in self.body(), f"text {text!r} never appeared")

    def wait_idle(self, timeout: float | None = None) -> None:
        """Until the script run finished (Streamlit's status widget shows 'Running' while it runs)."""
        from selenium.webdriver.common.by import By

        self.wait(timeout).until(lambda d: not d.find_elements(By.CSS_SELECTOR, '[data-testid="stStatusWidget"] *'))

    def button(self, label: str, timeout: float | None = None):
        from selenium.webdriver.common.by import By

        xp = f'//button[not(@disabled)][.//*[normalize-space(text())="{label}"] or normalize-space(.)="{label}"]'
        return self.wait(timeout).until(lambda d: next(iter(d.find_elements(By.XPATH, xp)), None),
                                        f"no enabled button {label!r}")

    def click(self, label: str, timeout: float | None = None) -> None:
        self.retry(lambda: self._click(self.button(label, timeout)))

    def _click(self, el) -> None:
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'});", el)
        el.click()

    @staticmethod
    def retry(action, tries: int = 5):
        """Run a find-and-act step again when a rerun replaced the element under it."""
        from selenium.common.exceptions import (ElementClickInterceptedException, ElementNotInteractableException,
                                                StaleElementReferenceException)

        for i in range(tries):
            try:
                return action()
            except (StaleElementReferenceException, ElementClickInterceptedException, ElementNotInteractableException):
                if i == tries - 1:
                    raise
                time.sleep(0.5)  # let the rerun that replaced the element finish drawing

    def click_until(self, label: str, text: str, tries: int = 3, timeout: float = 20) -> None:
        """Click, then wait for the effect; click again if a rerun swallowed the click (idempotent actions only)."""
        from selenium.common.exceptions import TimeoutException

        for i in range(tries):
            self.click(label)
            try:
                self.wait_text(text, timeout)
                return
            except TimeoutException:
                if i == tries - 1:
                    raise

    def input(self, aria_label: str, tag: str = "input"):
        from selenium.webdriver.common.by import By

        return self.wait().until(lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, f'{tag}[aria-label="{aria_label}"]')), None),
                                 f"no {tag} {aria_label!r}")

    def replace_text(self, aria_label: str, text: str, tag: str = "input", tries: int = 4) -> None:
        """Replace a text widget's content, and see that it holds it: a rerun can replace the element between the
        lookup and the keys (stale) or redraw it with its old value after they were typed."""
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.common.keys import Keys

        def typed() -> None:
            box = self.input(aria_label, tag)
            box.send_keys(Keys.CONTROL, "a")
            box.send_keys(text)

        for i in range(tries):
            self.retry(typed)
            try:
                self.wait(10).until(lambda d: self.input(aria_label, tag).get_attribute("value") == text)
                return
            except TimeoutException:
                if i == tries - 1:
                    raise

    def select(self, label: str, option_text: str) -> None:
        """Open a st.selectbox by its label, type to filter, pick the first match."""
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys

        xp = f'//div[@data-testid="stSelectbox"][.//label[normalize-space(.)="{label}"]]//input'
        box = self.wait().until(lambda d: next(iter(d.find_elements(By.XPATH, xp)), None), f"no selectbox {label!r}")
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'});", box)
        box.click()
        box.send_keys(option_text)
        opt = f'//*[@role="option"][contains(normalize-space(.), "{option_text}")]'
        self.wait().until(lambda d: d.find_elements(By.XPATH, opt), f"no option {option_text!r}")
        box.send_keys(Keys.ENTER)

    def choose(self, label: str, index: int) -> str:
        """Open a st.selectbox by its label and click its index-th option; returns the option's text."""
        return self.retry(lambda: self._choose(label, index))

    def _choose(self, label: str, index: int) -> str:
        opts = self._open_options(label)
        text = opts[index].text
        opts[index].click()
        return text

    def _open_options(self, label: str, tries: int = 6) -> list:
        """Click a selectbox until its list is open: a click can toggle a list that a key press had not yet
        closed, or land during a rerun, and then the list stays shut however long one waits."""
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.common.by import By

        xp = f'//div[@data-testid="stSelectbox"][.//label[normalize-space(.)="{label}"]]//input'
        for i in range(tries):
            box = self.wait().until(lambda d: next(iter(d.find_elements(By.XPATH, xp)), None), f"no selectbox {label!r}")
            self.d.execute_script("arguments[0].scrollIntoView({block: 'center'});", box)
            box.click()
            try:
                return self.wait(10).until(lambda d: d.find_elements(By.XPATH, '//*[@role="option"]') or None,
                                           f"selectbox {label!r} has no options")
            except TimeoutException:
                if i == tries - 1:
                    raise
        raise AssertionError("unreachable")

    def expand(self, summary: str, nth: int = 0) -> None:
        from selenium.webdriver.common.by import By

        xp = f'//details[.//summary[contains(normalize-space(.), "{summary}")]]'
        el = self.wait().until(lambda d: (d.find_elements(By.XPATH, xp) or [None] * (nth + 1))[nth], f"no expander {summary!r}")
        if el.get_attribute("open") is None:
            s = el.find_element(By.TAG_NAME, "summary")
            self.d.execute_script("arguments[0].scrollIntoView({block: 'center'});", s)
            s.click()

    def shot(self, name: str) -> Path:
        out = REPO_ROOT / "docs" / "screenshots" / f"{name}.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        self.d.save_screenshot(str(out))
        return out


@pytest.fixture
def ui(app_server, browser, tmp_path, _workspace):
    helper = StreamlitUI(browser, app_server, timeout=90)
    helper.workspace = _workspace
    yield helper
    # The last screen is the best clue when a wait times out.
    browser.save_screenshot(str(tmp_path / "last.png"))
    (tmp_path / "last.html").write_text(browser.page_source)
    sys.stderr.write(f"last screen: {tmp_path / 'last.png'}\n")
