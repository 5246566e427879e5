"""Data rooms: upload a zip or choose a folder, ingest with live progress, per-file status."""

from pathlib import Path

import streamlit as st

from app import jobs, rooms_view, services, state, ui
from app import findings_view as fv
from app.palette import PARSE_COLORS

st.title("Data rooms")
settings = services.settings()

with st.expander("Add a data room", expanded=not services.room_names(settings), icon=":material/upload:"):
    source_kind = st.radio("Source", ["Upload a zip", "Folder on this machine"], horizontal=True)
    upload, folder = None, ""
    if source_kind == "Upload a zip":
        upload = st.file_uploader("Data room (.zip)", type=["zip"])
    else:
        folder = st.text_input("Folder path", placeholder="/path/to/dataroom")
    default = rooms_view.suggested_name(upload.name) if upload else (rooms_view.suggested_name(folder) if folder else "")
    name = st.text_input("Room name", value=default, help="Re-ingesting into an existing room only processes new or changed files.")
    if st.button("Ingest", type="primary", disabled=not (upload or folder) or not name):
        room = rooms_view.room_name(name)
        if upload is not None:
            source = rooms_view.stage_upload(settings, room, upload.name, upload.getvalue())
        else:
            source = Path(folder).expanduser()
        if upload is None and not source.is_dir():
            st.error(f"Not a folder: {fv.md_escape(str(source))}")
        else:
            jobs.start_ingest(settings, source, room)
            state.set_room(room)
            state.set_run(None)
            st.rerun()

room = state.room()
job = jobs.read_status(settings, room) if room else None
was_running = job is not None and job.running


@st.fragment(run_every=ui.LIVE_REFRESH_S if was_running else None)
def progress_panel() -> None:
    snap = jobs.read_status(settings, room)
    if snap.running:
        st.progress(min(snap.done / max(snap.total, 1), 1.0),
                    text=f"Ingesting {room}: {snap.done}/{snap.total} files · {snap.current or 'starting…'}")
        if snap.recent:
            st.caption("Just processed: " + " · ".join(fv.md_escape(p) for p in snap.recent[::-1]))
        if room in services.room_names(settings):  # the manifest fills in file by file
            st.dataframe(rooms_view.file_table(services.documents(settings, room)), hide_index=True)
    elif was_running:
        st.rerun(scope="app")  # ingest just finished: redraw the whole page with the manifest's table
    elif snap.error:
        st.error(f"Ingest of {fv.md_escape(room)} failed: {fv.md_escape(snap.error)}")


if job is not None and (was_running or job.error):
    progress_panel()

if room and not was_running and room in services.room_names(settings):
    docs = services.documents(settings, room)
    t = rooms_view.totals(docs)
    st.subheader(f"Room “{room}”")
    m = st.columns(5)
    m[0].metric("Files", t["files"])
    m[1].metric("Parsed", t["parsed"])
    m[2].metric("Failed / skipped", t["failed"] + t["skipped"])
    m[3].metric("Pages", t["pages"])
    m[4].metric("Tokens", f"{t['tokens']:,}")
    bad = rooms_view.failed(docs)
    if bad:
        with st.expander(f"{len(bad)} file(s) not parsed — reasons", expanded=True, icon=":material/warning:"):
            for d in bad:
                st.markdown(f"- **{fv.md_escape(d.path)}** ({d.status.value}): {fv.md_escape(d.reason)}")
    st.dataframe(ui.styled(rooms_view.file_table(docs), status=PARSE_COLORS), hide_index=True, key="file_table")
    if t["parsed"]:
        st.page_link("pages/run.py", label="Next: start a review run", icon=":material/play_circle:")
elif job is None:
    st.info("No data room yet. Upload a zip of the data room (or enter a folder path), name the room, and press **Ingest**.")
