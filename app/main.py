"""Entry point: `streamlit run app/main.py`. Sets the page up and routes with st.navigation."""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run` puts app/ on sys.path, not the repo root that `core` lives in.
_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import streamlit as st  # noqa: E402

from app import services, state  # noqa: E402

# an emoji icon is drawn in the browser; a ":material/...:" page icon is fetched from fonts.gstatic.com
st.set_page_config(page_title="Dataroom RLM", page_icon="⚖️", layout="wide")

pages = [
    st.Page("pages/rooms.py", title="Data rooms", icon=":material/folder_open:", url_path="rooms", default=True),
    st.Page("pages/run.py", title="Review run", icon=":material/play_circle:", url_path="run"),
    st.Page("pages/findings.py", title="Findings", icon=":material/fact_check:", url_path="findings"),
    st.Page("pages/memo.py", title="Memo", icon=":material/description:", url_path="memo"),
    st.Page("pages/trace.py", title="Trace", icon=":material/account_tree:", url_path="trace"),
]
nav = st.navigation(pages)

with st.sidebar:
    st.markdown("### :material/balance: Dataroom RLM")
    state.sidebar_context(services.settings())

nav.run()
