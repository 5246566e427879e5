"""Live panels shared by pages: the coverage map with its headline numbers, and a document viewer."""

from __future__ import annotations

import html

import streamlit as st

from agents.store.models import DocumentReview

from app.render import ui
from app.session import services
from app.views import coverage, run_view, trace_view
from app.views.passage import passage_html

DOC_PICK = "coverage_doc"


def headline(ctx: ui.RunContext) -> None:
    cov = ctx.store.coverage(ctx.run.id)
    usage = ctx.store.token_usage(ctx.run.id)
    agents = trace_view.count_agents(ctx.store.assignment_tree(ctx.run.id))
    docs, docs_pct = run_view.coverage_text(cov.documents_reviewed, cov.documents_total)
    toks = (f"{ui.compact(cov.tokens_reviewed)} / {ui.compact(cov.tokens_total)}" if cov.tokens_total else "—")
    # assignments a stopped or killed worker left "running" in the store are not active: nobody works on them
    active = agents.get("running", 0) if ctx.live else 0
    m = st.columns(5)
    m[0].metric("Documents covered", docs, docs_pct, delta_color="off")
    m[1].metric("Tokens covered", toks, f"{cov.tokens_ratio:.0%}" if cov.tokens_total else None, delta_color="off")
    m[2].metric("Sub-agents active / finished", f"{active} / {agents.get('done', 0) + agents.get('failed', 0)}")
    m[3].metric("Root vs sub-agent tokens",
                f"{ui.compact(usage.root_in + usage.root_out)} / {ui.compact(usage.sub_in + usage.sub_out)}",
                f"root {usage.root_share:.1%}", delta_color="off")
    m[4].metric("Failed to parse", cov.documents_failed_parse)


def coverage_map(ctx: ui.RunContext) -> None:
    docs = ctx.store.document_status(ctx.run.id)
    if not docs:
        st.info("The run has not inventoried the room yet.")
        return
    st.html(coverage.legend_html())
    event = st.plotly_chart(coverage.treemap(docs, ctx.room), on_select="rerun", selection_mode="points",
                            key="coverage_map", config={"displaylogo": False})
    clicked = coverage.selected_document(event)
    by_id = {d.document_id: d for d in docs}
    if clicked in by_id and st.session_state.get("_last_click") != clicked:
        st.session_state["_last_click"] = st.session_state[DOC_PICK] = clicked
    extra = {} if DOC_PICK in st.session_state else {"index": None}
    pick = st.selectbox("Open document", list(by_id), key=DOC_PICK, placeholder="Click a tile or choose a document",
                        format_func=lambda i: f"{by_id[i].path} · {coverage.cell_status(by_id[i])}", **extra)
    if pick:
        document_view(ctx, by_id[pick])


def document_view(ctx: ui.RunContext, doc: DocumentReview) -> None:
    titles = services.titles(ctx.settings)
    with st.container(border=True):
        st.html(f"<b>{html.escape(doc.path)}</b> · {doc.pages} page(s) · {doc.tokens:,} tokens · "
                f"{coverage.cell_status(doc)}" + (f" · {html.escape(doc.reason)}" if doc.reason else ""))
        findings = ctx.store.findings(ctx.run.id, document_id=doc.document_id)
        for f in findings:
            st.html(f"{ui.severity_badge(f.severity.value)} <b>{html.escape(titles.get(f.category, f.category))}</b>"
                    f" — {html.escape(f.summary)} <i>(p. {f.citation.page})</i>")
        if not findings:
            st.caption("No findings in this document (yet).")
        if doc.status not in ("failed", "skipped") or doc.reason == "review failed":
            text = services.document_text(ctx.settings, ctx.room, doc.document_id)
            first = findings[0].citation if findings else None
            if first is not None and first.char_start >= 0:
                st.html(passage_html(text, first.char_start, first.char_end, context=1500))
            else:
                st.html(f'<div style="max-height:18rem;overflow-y:auto;white-space:pre-wrap;font-family:Georgia,serif">'
                        f"{html.escape(text[:20000])}</div>")
