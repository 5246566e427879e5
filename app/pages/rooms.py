"""Data rooms: upload a zip or documents (or choose a folder), ingest with live progress, per-file status.

The decisions (name, new room or added files, what the upload may be) are rooms_view's; this page asks and shows.
"""

from pathlib import Path

import streamlit as st

from app.background import jobs
from app.render import ui
from app.session import auth, services, state
from app.views import rooms_view
from app.views import findings_view as fv
from app.views.palette import PARSE_COLORS

st.title("Data rooms")
settings = services.settings()

admin = auth.is_admin(settings)  # calls auth.guard; only admins create rooms or add files
if admin:
    with st.expander("Add a data room", expanded=not services.room_names(settings), icon=":material/upload:"):
        folder_root = jobs.folder_ingest_root(settings)  # None: folder ingest is off (the default)
        kinds = ["Upload files", "Folder on this machine"] if folder_root else ["Upload files"]
        source_kind = st.radio("Source", kinds, horizontal=True)
        uploads, folder = [], ""
        if source_kind == "Upload files":
            uploads = st.file_uploader("A zip of the data room, or one or more documents", type=rooms_view.UPLOAD_TYPES,
                                       accept_multiple_files=True) or []
        else:
            folder = st.text_input("Folder path", placeholder=str(folder_root), help=f"A folder inside {folder_root}.")
        existing = services.room_names(settings)
        first = uploads[0].name if uploads else folder
        name = st.text_input("Room name", value=rooms_view.suggested_name(first, existing) if first else "",
                             help="The name of a new room. To add files to a room that exists, give its name and tick the box.")
        room = rooms_view.room_name(name) if name else ""
        add = rooms_view.room_taken(settings, room) and st.checkbox(
            f"Add the files to “{fv.md_escape(room)}” (nothing in it is removed or replaced)")
        if st.button("Ingest", type="primary", disabled=not (uploads or folder) or not name):
            files = [(u.name, u.getvalue()) for u in uploads]
            try:
                mode = rooms_view.ingest_mode(settings, room, add)
                if files:
                    rooms_view.check_upload(settings, files)
                source = rooms_view.stage_upload(settings, room, files) if files else Path(folder).expanduser()
                jobs.start_ingest(settings, source, room, mode)
            except (rooms_view.UploadRefused, jobs.SourceNotAllowed) as e:
                st.error(f"Ingest of {fv.md_escape(room)} failed: {fv.md_escape(str(e))}", icon=":material/error:")
            else:
                state.set_room(room)
                state.set_run(None)
                st.rerun()

room = state.room()
if room:
    jobs.resume_embedding(settings, room)  # a room whose embedding was cut off (crash, restart) goes on
job = jobs.read_status(settings, room) if room else None
was_running = job is not None and job.running
reviewable = bool(room) and rooms_view.reviewable(settings, room)  # the room's table shows while vectors fill in


@st.fragment(run_every=ui.LIVE_REFRESH_S if was_running else None)
def progress_panel() -> None:
    snap = jobs.read_status(settings, room)
    if snap.running:
        frac, line = rooms_view.stage_line(snap)
        st.progress(frac, text=f"{fv.md_escape(room)}: {line}")
        if snap.stage == "embedding" and not reviewable:
            st.rerun(scope="app")  # just became reviewable: draw the room below
        if snap.recent and snap.stage == "parsing":
            st.caption("Just processed: " + " · ".join(fv.md_escape(p) for p in snap.recent[::-1]))
        if snap.stage != "embedding" and room in services.room_names(settings):  # the manifest fills in file by file
            st.dataframe(rooms_view.file_table(services.documents(settings, room)), hide_index=True)
    elif was_running:
        st.rerun(scope="app")  # ingest just finished: redraw the whole page with the manifest's table
    elif snap.error:
        st.error(f"Ingest of {fv.md_escape(room)} failed: {fv.md_escape(snap.error)}")


if job is not None and (was_running or job.error):
    progress_panel()

if room and (not was_running or reviewable) and room in auth.room_names(settings):
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
elif job is None and not admin:
    st.info("No data room has been shared with you yet. An admin of this installation grants access to rooms.")
elif job is None:
    st.info("No data room yet. Upload a zip of the data room or its documents (or enter a folder path), name the room, "
            "and press **Ingest**.")
