"""Findings: filter, open the cited passage, accept / reject / edit, activity log, exports."""

import streamlit as st

from app import exports, services, ui
from app import findings_view as fv
from app.palette import REVIEWER_COLORS, SEVERITY_COLORS
from app.passage import passage_html

st.title("Findings")
ctx = ui.require_run()
titles = services.titles(ctx.settings)
author = ctx.settings.app.author
PICK = "finding_pick"


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
    event = st.dataframe(table, hide_index=True, on_select="rerun", selection_mode="single-row",
                         key="findings_table", column_config={"id": None, "verified": st.column_config.CheckboxColumn()})
    rows = event.selection.rows if event else []
    ids = [f.id for f in shown]
    if rows and rows[0] < len(ids) and st.session_state.get("_last_row") != ids[rows[0]]:
        st.session_state["_last_row"] = st.session_state[PICK] = ids[rows[0]]
    if st.session_state.get(PICK) not in ids:
        st.session_state.pop(PICK, None)
    by_id = {f.id: f for f in findings}
    # index only when the pick is not already in session state (else Streamlit warns about two sources)
    extra = {} if PICK in st.session_state else {"index": None}
    fid = st.selectbox("Open finding", ids, key=PICK, format_func=lambda i: fv.label(by_id[i], titles),
                       placeholder="Choose a finding to review", **extra)
    if fid:
        detail(by_id[fid])
    d1, d2, _ = st.columns([1, 1, 4])
    d1.download_button("Findings (XLSX)", lambda: exports.findings_xlsx(ctx.store.findings(ctx.run.id)),
                       f"findings-{ctx.run.id}.xlsx", mime=exports.XLSX_MIME, on_click="ignore", icon=":material/download:")
    d2.download_button("Findings (CSV)", lambda: exports.findings_csv(ctx.store.findings(ctx.run.id)),
                       f"findings-{ctx.run.id}.csv", mime="text/csv", on_click="ignore", icon=":material/download:")
    st.subheader("Activity log")
    log = fv.activity(ctx.store.actions(ctx.run.id), by_id, titles)
    if log.empty:
        st.caption("No reviewer actions yet. Accept, reject or edit a finding and it is recorded here with time and author.")
    else:
        st.dataframe(log, hide_index=True)


def detail(f) -> None:
    with st.container(border=True):
        st.html(f"{ui.severity_badge(f.severity.value)} {ui.reviewer_badge(f.reviewer_status.value)} "
                f"<b>{fv.html_escape(titles.get(f.category, f.category))}</b> · {fv.html_escape(f.citation.document_path)}"
                f" · p. {f.citation.page} · {'quote verified in the source' if f.verified else 'QUOTE NOT VERIFIED'}")
        st.markdown(f"**Summary.** {fv.md_escape(f.summary)}")
        text = services.document_text(ctx.settings, ctx.room, f.citation.document_id)
        st.html(passage_html(text, f.citation.char_start, f.citation.char_end))
        a, r, _ = st.columns([1, 1, 4])
        if a.button("Accept", key=f"acc_{f.id}", type="primary", icon=":material/check:"):
            ctx.store.set_finding_review(f.id, "accepted", f.reviewer_note, author, run_id=ctx.run.id)
            st.rerun()
        if r.button("Reject", key=f"rej_{f.id}", icon=":material/close:"):
            ctx.store.set_finding_review(f.id, "rejected", f.reviewer_note, author, run_id=ctx.run.id)
            st.rerun()
        with st.form(f"edit_{f.id}"):
            summary = st.text_area("Summary", f.summary)
            sev = st.selectbox("Severity", ["high", "medium", "low", "info"], index=["high", "medium", "low", "info"].index(f.severity.value))
            note = st.text_input("Note", f.reviewer_note)
            if st.form_submit_button("Save edit"):
                status = fv.status_after_edit(f, summary, sev)
                ctx.store.set_finding_review(f.id, status, note, author, summary=summary, severity=sev, run_id=ctx.run.id)
                st.rerun()


findings_panel()
