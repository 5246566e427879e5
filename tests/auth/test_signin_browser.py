"""Team sign-in in a real headless Chromium against a local OpenID Connect provider (oidc-provider-mock).

Alice (an admin by settings) signs in, sees the room and grants it to Bob as viewer only on the Access page.
Bob signs in and sees the room read-only (no decision buttons, no memo editor); his accept, tried against
the store the server uses, is refused there. Carol signs in and finds no trace of the room: not in the
sidebar, and a direct URL naming it gets the plain "no access" message. One browser; each person signs in
after the previous one's cookies are cleared.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys

import pytest

from core.settings import REPO_ROOT, EmbeddingSettings, Settings

from agents.store import ReviewStore
from agents.store.access import NO_ACCESS, AccessDenied, Principal, ScopedStore

from tests.app.conftest import MAIN, StreamlitUI, browser, free_port, wait_http_ok  # noqa: F401 (browser: fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not (REPO_ROOT / "assets" / "reviewer" / "model.zip").exists(),
                                 reason="offline reviewer weights (assets/reviewer/model.zip) not built yet")]
ROOM = "Falcon acquisition"
SAMPLE = REPO_ROOT / "assets" / "sample_room"
PEOPLE = {"alice": "alice@firm.example", "bob": "bob@firm.example", "carol": "carol@firm.example"}


@pytest.fixture
def provider():
    mock = pytest.importorskip("oidc_provider_mock")
    users = [mock.User(sub=sub, claims={"email": email, "email_verified": True}) for sub, email in PEOPLE.items()]
    with mock.run_server_in_thread(user_claims=users) as server:
        yield f"http://localhost:{server.server_port}"


@pytest.fixture
def room(_workspace, tmp_path) -> str:
    """One room with a finished offline review, made before the server starts."""
    from agents.run.harness import run_review
    from ingest.pipeline import ingest_room

    src = tmp_path / "room" / "Commercial"
    src.mkdir(parents=True)
    for name in ("Supply_Agreement_Westmark_Foods_2019.txt",):
        shutil.copy(SAMPLE / "Commercial" / "Customers" / name, src / name)
    settings = Settings(workspace=_workspace, embedding=EmbeddingSettings(model="hash"))
    ingest_room(src.parent, ROOM, settings)
    return asyncio.run(run_review(settings, ROOM))["run_id"]


@pytest.fixture
def signin_server(_workspace, tmp_path, provider, room):
    """The app as `python -m app` starts it, with sign-in configured through a secrets file."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    secrets = tmp_path / "secrets.toml"
    secrets.write_text(f'[auth]\nredirect_uri = "{base}/oauth2callback"\ncookie_secret = "{os.urandom(32).hex()}"\n'
                       f'client_id = "dataroom"\nclient_secret = "test-secret"\n'
                       f'server_metadata_url = "{provider}/.well-known/openid-configuration"\n')
    env = dict(os.environ, DATAROOM_WORKSPACE=str(_workspace), PYTHONUNBUFFERED="1", DATAROOM_EMBEDDING__MODEL="hash",
               DATAROOM_AUTH__ADMINS=f'["{PEOPLE["alice"]}"]', DATAROOM_AUTH__SECRETS_FILE=str(secrets),
               AUTHLIB_INSECURE_TRANSPORT="1")  # the test provider speaks http on loopback
    log = open(tmp_path / "streamlit.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.serve", "run", str(MAIN), "--secrets.files", str(secrets),
         "--server.address", "127.0.0.1", "--server.port", str(port), "--server.headless", "true",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
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
        sys.stderr.write((tmp_path / "streamlit.log").read_text()[-4000:])


def sign_in(ui: StreamlitUI, who: str) -> None:
    """Clear the previous person's cookies, press Sign in, and pick `who` on the provider's page."""
    from selenium.webdriver.common.by import By

    ui.d.get(ui.base)
    ui.d.delete_all_cookies()
    ui.d.get(ui.base)
    ui.wait_text("Sign in with your firm account")
    ui.click("Sign in")
    button = f'//button[@name="sub" and @value="{who}"]'
    ui.wait().until(lambda d: d.find_elements(By.XPATH, button), "the provider's sign-in page did not open")
    ui.d.find_element(By.XPATH, button).click()
    ui.wait_text(f"Signed in as {PEOPLE[who]}")


def test_admin_grants_viewer_access_viewer_reads_only_and_a_third_person_sees_nothing(
        signin_server, browser, room, _workspace, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By

    ui = StreamlitUI(browser, signin_server, timeout=90)
    try:
        # Alice, admin: sees the room and grants it to Bob as viewer
        sign_in(ui, "alice")
        ui.wait_text(ROOM)
        ui.d.get(f"{signin_server}/access")
        ui.wait_text("People with access")
        ui.input("E-mail address").send_keys(PEOPLE["bob"])
        ui.click("Grant")
        ui.wait().until(lambda d: PEOPLE["bob"] in ui.body() or d.find_elements(By.CSS_SELECTOR, '[data-testid="stDataFrame"]'))
        store = ReviewStore(Settings(workspace=_workspace).db_path())
        assert store.grants(ROOM) == {PEOPLE["bob"]: "viewer"}

        # Bob, viewer: the room is in his sidebar; findings and memo are read-only
        sign_in(ui, "bob")
        ui.wait_text(ROOM)
        assert "viewer of this room" in ui.body()
        ui.d.get(f"{signin_server}/findings")
        ui.wait_text("Findings")
        ui.choose("Open finding", 0)
        ui.wait_text("Read only: your role on this room is viewer")
        assert not ui.d.find_elements(By.XPATH, '//button[.//*[normalize-space(text())="Accept"]]')
        ui.d.get(f"{signin_server}/memo")
        ui.wait_text("Read only: your role on this room is viewer")
        assert "Edit section" not in ui.body()
        ui.shot("signin-viewer")
        # ... and what the page hides, the store refuses: Bob's accept through the store the server uses
        bob = ScopedStore(store, Principal(PEOPLE["bob"]))
        finding = next(f for f in bob.findings(room) if f.reviewer_status.value != "accepted")
        before = store.actions(room)
        with pytest.raises(AccessDenied, match="viewer"):
            bob.set_finding_review(finding.id, "accepted", "", PEOPLE["bob"], run_id=room)
        assert store.finding(finding.id, room).reviewer_status == finding.reviewer_status
        assert store.actions(room) == before

        # Carol, no grant: no trace of the room, and a direct URL naming it is refused
        sign_in(ui, "carol")
        ui.wait_text("No data room has been shared with you yet")
        assert ROOM not in ui.body()
        ui.d.get(f"{signin_server}/findings?room={ROOM.replace(' ', '+')}&run_id={room}")
        ui.wait_text(NO_ACCESS)
        assert ROOM not in ui.body() and room not in ui.body()
    finally:
        browser.save_screenshot(str(tmp_path / "last.png"))
        (tmp_path / "last.html").write_text(browser.page_source)
