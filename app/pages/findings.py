"""Findings: filter, open the cited passage, accept / reject / edit (and move on), activity log, exports.

Untrusted text (summaries, quotes, paths, notes, agent names) reaches the page only as
escaped st.html, widget values, option labels and dataframe cells: never as markdown.
"""

import zlib

import streamlit as st

from agents.memo import derive
from agents.store import Conflict
from app.render import ui
from app.session import auth, services
from app.views import exports
from app.views import findings_view as fv
from app.views.palette import REVIEWER_COLORS, SEVERITY_COLORS
from app.views.passage import passage_html

st.title("Findings")
ctx = ui.require_run()  # calls auth.guard: signed in, and the room is theirs; ctx.store is scoped to them
titles = services.titles(ctx.settings)
author = auth.author(ctx.settings)
writable = auth.can_write(ctx.settings, ctx.room)  # the store refuses a viewer's decision; this only hides buttons
PICK = "finding_pick"
CURRENT = "_finding_current"  # the open finding's id, kept apart from the picker's (changing) key
TABLE_GEN = "_findings_table_gen"  # bumped to clear the table's row selection after such an action
CONFLICT = "_finding_conflict"  # (finding id, why a decision was not saved), shown once the page has reloaded it
SEEN = "_finding_seen"  # {open finding id: the version this page last drew}
SEVERITIES = ["high", "medium", "low", "info"]
W = fv.COLUMN_WIDTHS
COLUMNS = {
    "review": st.column_config.TextColumn("review", width=W["review"], help="Your decision: open / accepted / rejected / edited"),
    "severity": st.column_config.TextColumn("severity", width=W["severity"]),
    "file": st.column_config.TextColumn("file", width=W["file"], help="File name, with as many parent folders as it "
                                        "takes to tell documents apart; the full folder is in the folder column"),
    "category": st.column_config.TextColumn("category", width=W["category"]),
    "summary": st.column_config.TextColumn("summary", width=W["summary"]),
    "page": st.column_config.NumberColumn("page", width=W["page"]),
    "confidence": st.column_config.NumberColumn("confidence", width=W["confidence"], format="percent",
                                                help="The model's confidence in the classification"),
    "folder": st.column_config.TextColumn("folder", width=W["folder"]),
    "verified": st.column_config.CheckboxColumn("verified", width=W["verified"]),
    "agent": None,
    "id": None,
}


@st.fragment(run_every=ui.refresh_every(ctx.live))
def findings_panel() -> None:
    findings = ctx.store.findings(ctx.run.id)
    if not findings:
        st.info("No findings yet. They appear here as sub-agents report them; start or resume the run on **Review run**.")
        return
    opts = fv.options(findings)
    c = st.columns([2, 1, 2, 2, 1, 1])
    filters = fv.Filters(
        categories=set(c[0].multiselect("Category", opts["categories"], format_func=lambda k: titles.get(k, k))),
        severities=set(c[1].multiselect("Severity", opts["severities"])),
        folders=set(c[2].multiselect("Folder", opts["folders"], format_func=lambda f: f or "(top level)")),
        documents=set(c[3].multiselect("Document", opts["documents"])),
        statuses=set(c[4].multiselect("Reviewer status", opts["statuses"])),
        verified={"all": None, "verified": True, "unverified": False}[c[5].selectbox("Verified", ["all", "verified", "unverified"])],
    )
    shown = fv.apply(findings, filters)
    st.caption(f"{len(shown)} of {len(findings)} findings · select a row (or pick below) to open it · "
               f"review progress: {fv.progress_line(findings)}")
    table = ui.styled(fv.table(shown, titles), severity=SEVERITY_COLORS, review=REVIEWER_COLORS)
    event = st.dataframe(table, hide_index=True, on_select="rerun", selection_mode="single-row", height=420,
                         key=f"findings_table_{st.session_state.get(TABLE_GEN, 0)}", column_config=COLUMNS)
    rows = event.selection.rows if event else []
    ids = [f.id for f in shown]
    if rows and rows[0] < len(ids) and st.session_state.get("_last_row") != ids[rows[0]]:
        st.session_state["_last_row"] = st.session_state[CURRENT] = ids[rows[0]]
    by_id = {f.id: f for f in findings}
    short = fv.short_paths([f.citation.document_path for f in shown])
    labels = {i: fv.label(by_id[i], titles, short) for i in ids}
    current = st.session_state.get(CURRENT)
    current = current if current in labels else None
    # The browser keeps showing a keyed selectbox's old label after its options are relabelled
    # (a severity edit did not show), so the key follows the open finding and its label: a
    # changed label is a new widget, drawn from `index`.
    key = f"{PICK}_{zlib.crc32(f'{current}|{labels.get(current)}'.encode())}"
    fid = st.selectbox("Open finding", ids, key=key, index=ids.index(current) if current else None,
                       format_func=labels.__getitem__, placeholder="Choose a finding to review")
    st.session_state[CURRENT] = fid
    if fid:
        detail(by_id[fid], shown)
    elif not any(f.reviewer_status.value == "open" for f in shown):
        st.caption("No open finding left in this view.")
    d = st.container(horizontal=True)
    d.download_button("Findings (XLSX)", lambda: exports.findings_xlsx(ctx.store.findings(ctx.run.id)),
                       f"findings-{ctx.run.id}.xlsx", mime=exports.XLSX_MIME, on_click="ignore", icon=":material/download:")
    d.download_button("Findings (CSV)", lambda: exports.findings_csv(ctx.store.findings(ctx.run.id)),
                       f"findings-{ctx.run.id}.csv", mime="text/csv", on_click="ignore", icon=":material/download:")
    st.subheader("Activity log")
    log = fv.activity(ctx.store.actions(ctx.run.id), by_id, titles)
    if log.empty:
        st.caption("No reviewer actions yet. Accept, reject or edit a finding and it is recorded here with time and author.")
    else:
        st.dataframe(log, hide_index=True, column_config={
            "when (UTC)": st.column_config.TextColumn(width=150), "author": st.column_config.TextColumn(width=110),
            "action": st.column_config.TextColumn(width=80), "finding": st.column_config.TextColumn(width=330)})


def record(f, version: int, status: str, note: str, summary: str | None = None, severity: str | None = None) -> bool:
    """The decision over the version shown, and the memo it implies at once (agents.memo.derive.review_finding).
    False when a colleague decided meanwhile: theirs stays, and the page says so instead of writing over it."""
    try:
        derive.review_finding(ctx.store, ctx.run.id, services.checklist(ctx.settings), f.id, status, note, author,
                              summary=summary, severity=severity, expected_version=version)
    except Conflict as e:
        st.session_state[CONFLICT] = (f.id, str(e))
        return False
    st.session_state.pop(CONFLICT, None)
    return True


def decide(f, version: int, status: str | None, shown) -> None:
    """Record the decision (none for a skip), then open the next open finding of the view (or stay, refused)."""
    if status and not record(f, version, status, f.reviewer_note):
        st.rerun()
    st.session_state[CURRENT] = fv.next_open(shown, f.id)
    st.session_state[TABLE_GEN] = st.session_state.get(TABLE_GEN, 0) + 1
    st.session_state.pop("_last_row", None)
    st.rerun()


def detail(f, shown) -> None:
    f, now = ctx.store.finding_for_edit(f.id, ctx.run.id) or (f, 0)
    # A click reaches the script in a run that reads the finding again: the decision must name the version the
    # reviewer was looking at, the one the previous run drew, or a colleague's decision made meanwhile is lost.
    version = st.session_state.get(SEEN, {}).get(f.id, now)
    st.session_state[SEEN] = {f.id: now}
    carried_from = f.extra.get("carried_from", "")
    carried = ""
    if carried_from:
        earlier = ctx.store.run(carried_from)
        carried = fv.carried_line(carried_from, earlier.started_at if earlier else None)
    with st.container(border=True):
        st.html(f"{ui.severity_badge(f.severity.value)} {ui.reviewer_badge(f.reviewer_status.value)} "
                + fv.detail_html(f, titles, carried))
        text = services.document_text(ctx.settings, ctx.room, f.citation.document_id)
        st.html(passage_html(text, f.citation.char_start, f.citation.char_end))
        if not writable:
            st.caption("Read only: your role on this room is viewer. An admin can make you a reviewer.")
            return
        refused = st.session_state.get(CONFLICT)
        if refused and refused[0] == f.id:
            ui.text(refused[1], error=True)  # names a colleague's e-mail: escaped text, never markdown
        b = st.container(horizontal=True)  # buttons sized to their labels and shortcut hints
        if b.button("Accept & next", key=f"accn_{f.id}", type="primary", icon=":material/done_all:", shortcut="A"):
            decide(f, version, "accepted", shown)
        if b.button("Reject & next", key=f"rejn_{f.id}", icon=":material/close:", shortcut="X"):
            decide(f, version, "rejected", shown)
        if b.button("Next open", key=f"skip_{f.id}", icon=":material/skip_next:", shortcut="N"):
            decide(f, version, None, shown)
        if b.button("Accept", key=f"acc_{f.id}", icon=":material/check:"):
            record(f, version, "accepted", f.reviewer_note)
            st.rerun()
        if b.button("Reject", key=f"rej_{f.id}", icon=":material/block:"):
            record(f, version, "rejected", f.reviewer_note)
            st.rerun()
        with st.form(f"edit_{f.id}"):
            summary = st.text_area("Summary", f.summary)
            sev = st.selectbox("Severity", SEVERITIES, index=SEVERITIES.index(f.severity.value))
            note = st.text_input("Note", f.reviewer_note)
            if st.form_submit_button("Save edit"):
                status = fv.status_after_edit(f, summary, sev)
                record(f, version, status, note, summary=summary, severity=sev)
                st.rerun()


findings_panel()
