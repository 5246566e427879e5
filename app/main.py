"""Entry point: `streamlit run app/main.py`. Sets the page up and routes with st.navigation."""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run` puts app/ on sys.path, not the repo root that `core` lives in.
_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import streamlit as st  # noqa: E402

from agents.store.access import AccessDenied  # noqa: E402

from app import launch  # noqa: E402
from app.session import auth, services, state  # noqa: E402

# an emoji icon is drawn in the browser; a ":material/...:" page icon is fetched from fonts.gstatic.com
st.set_page_config(page_title="Dataroom RLM", page_icon="⚖️", layout="wide")

# however the server was started (python -m app, or streamlit run from any directory), it serves nothing
# while listening beyond loopback without an explicit override, or with usage statistics on
_problem = launch.runtime_problem(st.get_option("server.address"), st.get_option("browser.gatherUsageStats"),
                                  services.settings(), signin=auth.signin_enabled())
if _problem:
    st.error(_problem)
    st.stop()

pages = [
    # the default page is served at the app's root URL; its url_path is only reserved, never served, so
    # /rooms is a hidden second page on the same script (st.page_link("pages/rooms.py") finds the first)
    st.Page("pages/rooms.py", title="Data rooms", icon=":material/folder_open:", url_path="data-rooms", default=True),
    st.Page("pages/run.py", title="Review run", icon=":material/play_circle:", url_path="run"),
    st.Page("pages/findings.py", title="Findings", icon=":material/fact_check:", url_path="findings"),
    st.Page("pages/table.py", title="Review table", icon=":material/table_view:", url_path="table"),
    st.Page("pages/memo.py", title="Memo", icon=":material/description:", url_path="memo"),
    st.Page("pages/trace.py", title="Trace", icon=":material/account_tree:", url_path="trace"),
    st.Page("pages/rooms.py", title="Data rooms", icon=":material/folder_open:", url_path="rooms", visibility="hidden"),
    st.Page("pages/access.py", title="Access", icon=":material/group:", url_path="access",
            visibility="visible" if auth.is_admin(services.settings()) else "hidden"),
]
# signed in (or local mode), and the room / run in the URL is the user's to see; before the sidebar lists rooms
auth.guard(services.settings())
nav = st.navigation(pages)

with st.sidebar:
    st.markdown("### :material/balance: Dataroom RLM")
    state.sidebar_context(services.settings())
    auth.sidebar_user(services.settings())  # after the pickers: the role shown is on the room they settled on

try:
    nav.run()
except AccessDenied as e:  # the store refused (a viewer's write, a room not granted): its message is plain
    st.error(str(e), icon=":material/block:")
