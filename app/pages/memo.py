"""Memo: sections as the root writes them; reviewer edits, versions with diffs, restore, exports."""

import streamlit as st

from app import auth, exports, memo_view, services, ui
from app.findings_view import md_escape

st.title("Diligence memo")
ctx = ui.require_run()  # calls auth.guard; ctx.store is scoped to the signed-in user
author = auth.author(ctx.settings)
writable = auth.can_write(ctx.settings, ctx.room)  # the store refuses a viewer's edit; this only hides the editor


def editor(s) -> None:
    with st.expander("Edit section"):
        # The key carries the version, so an agent update gives a fresh editor instead of
        # the stale text of an old one being saved over it.
        new = st.text_area("Markdown", s.text, key=f"edit_{s.key}_v{s.version}", height=220,
                           help="Saved when you leave the box (or press Save). Leaving the page with an "
                                "unsaved edit asks first.")
        st.button("Save", key=f"save_{s.key}_v{s.version}")
        if new != s.text:
            ctx.store.save_reviewer_edit(ctx.run.id, s.key, new, author)
            st.rerun()


def section_panel(s, findings) -> None:
    with st.container(border=True):
        head, tag = st.columns([5, 1])
        head.subheader(s.title)
        tag.caption(("reviewer edit" + (f" by {md_escape(s.editor)}" if s.editor else "") if s.author.value == "reviewer"
                     else "agent draft") + f" · v{s.version}")
        st.markdown(memo_view.rendered(s, findings))
        links = memo_view.linked_findings(s, findings)
        if links:
            with st.expander(f"Cites {len(links)} finding(s)"):
                for fid, text in links:
                    if st.button(text, key=f"cite_{s.key}_{fid}", type="tertiary"):
                        st.session_state["finding_pick"] = fid
                        st.switch_page("pages/findings.py")
        proposal = ctx.store.memo_proposal(ctx.run.id, s.key)
        if proposal is not None and writable:
            st.warning("The agent revised this section after your edit. Its revision is offered here, not applied.")
            st.code(memo_view.diff(s.text, proposal.text, "your text", "agent revision"), language="diff")
            if st.button("Adopt the agent's revision", key=f"adopt_{s.key}"):
                ctx.store.save_reviewer_edit(ctx.run.id, s.key, proposal.text, author)
                st.rerun()
        if writable:
            editor(s)
        versions = ctx.store.memo_versions(ctx.run.id, s.key)
        if len(versions) > 1:
            with st.expander(f"Versions ({len(versions)})"):
                old = st.selectbox("Compare with", versions[:-1][::-1], key=f"ver_{s.key}_v{s.version}",
                                   format_func=memo_view.version_label)
                st.code(memo_view.diff(old.text, s.text, f"v{old.version}", f"v{s.version} (current)"), language="diff")
                if writable and st.button(f"Restore v{old.version}", key=f"restore_{s.key}_{old.version}"):
                    ctx.store.save_reviewer_edit(ctx.run.id, s.key, old.text, author)
                    st.rerun()


# Exports are built on click from the store, so they carry the latest edits and idle refreshes cost nothing.
def docx_bytes() -> bytes:
    return exports.memo_docx(ctx.store.memo(ctx.run.id), ctx.store.findings(ctx.run.id))


def markdown_bytes() -> bytes:
    return exports.memo_markdown(ctx.store.memo(ctx.run.id), ctx.store.findings(ctx.run.id))


@st.fragment(run_every=ui.refresh_every(ctx.live))
def memo_panel() -> None:
    memo = ctx.store.memo(ctx.run.id)
    findings = ctx.store.findings(ctx.run.id)
    if not memo.sections:
        st.info("The memo is empty so far. Sections appear here as the root agent writes them during the run.")
        return
    by_id = {f.id: f for f in findings}
    d1, d2, _ = st.columns([1, 1, 4])
    d1.download_button("Memo (DOCX)", docx_bytes, f"memo-{ctx.run.id}.docx", mime=exports.DOCX_MIME,
                       on_click="ignore", icon=":material/download:")
    d2.download_button("Memo (Markdown)", markdown_bytes, f"memo-{ctx.run.id}.md", mime="text/markdown",
                       on_click="ignore", icon=":material/download:")
    for s in memo.sections:
        section_panel(s, by_id)


if not writable:
    st.caption("Read only: your role on this room is viewer. An admin can make you a reviewer.")
st.html(memo_view.UNSAVED_GUARD, unsafe_allow_javascript=True)
memo_panel()
