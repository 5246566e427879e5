"""Memo: sections as the root writes them; reviewer edits, versions with diffs, restore, exports."""

import streamlit as st

from app.render import ui
from app.session import auth, services
from app.views import exports, memo_view
from app.views.findings_view import md_escape

st.title("Diligence memo")
ctx = ui.require_run()  # calls auth.guard; ctx.store is scoped to the signed-in user
author = auth.author(ctx.settings)
writable = auth.can_write(ctx.settings, ctx.room)  # the store refuses a viewer's edit; this only hides the editor


def conflict_key(s) -> str:  # (message, the text that was not saved), kept across reruns until saved or dismissed
    return f"_memo_conflict_{ctx.run.id}_{s.key}"


def save(s, text: str) -> None:
    """Save over version `s` (bound when the widget was drawn, so it is the version the reviewer saw): a save by
    someone else meanwhile is kept and this one reported, never written over. Runs as a widget callback."""
    refused = memo_view.save_edit(ctx.store, ctx.run.id, s, text, author)
    if refused:
        st.session_state[conflict_key(s)] = (refused, text)
    else:
        st.session_state.pop(conflict_key(s), None)


def edited(s, widget: str) -> None:
    if st.session_state[widget] != s.text:
        save(s, st.session_state[widget])


def conflict(s) -> None:
    refused = st.session_state.get(conflict_key(s))
    if not refused:
        return
    ui.text(refused[0], error=True)  # names a colleague's e-mail: escaped text, never markdown
    with st.expander("Your text that was not saved (copy it before you edit again)"):
        st.code(refused[1], language=None)
    if st.button("Dismiss", key=f"dismiss_{s.key}"):
        st.session_state.pop(conflict_key(s), None)
        st.rerun()


def editor(s) -> None:
    with st.expander("Edit section"):
        # The key carries the version, so an agent update gives a fresh editor instead of the stale text of an
        # old one; the save is a callback bound to the version drawn, so an edit of an editor that a newer
        # version replaced meanwhile is reported as a conflict, not dropped or saved over the newer one.
        widget = f"edit_{s.key}_v{s.version}"
        st.text_area("Markdown", s.text, key=widget, height=220, on_change=edited, args=(s, widget),
                     help="Saved when you leave the box (or press Save). Leaving the page with an unsaved edit asks first.")
        st.button("Save", key=f"save_{s.key}_v{s.version}")


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
            st.button("Adopt the agent's revision", key=f"adopt_{s.key}", on_click=save, args=(s, proposal.text))
        if writable:
            conflict(s)
            editor(s)
        versions = ctx.store.memo_versions(ctx.run.id, s.key)
        if len(versions) > 1:
            with st.expander(f"Versions ({len(versions)})"):
                old = st.selectbox("Compare with", versions[:-1][::-1], key=f"ver_{s.key}_v{s.version}",
                                   format_func=memo_view.version_label)
                st.code(memo_view.diff(old.text, s.text, f"v{old.version}", f"v{s.version} (current)"), language="diff")
                if writable:
                    st.button(f"Restore v{old.version}", key=f"restore_{s.key}_{old.version}", on_click=save,
                              args=(s, old.text))


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
