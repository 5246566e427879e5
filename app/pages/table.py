"""Review table: documents × questions with typed answers; open a cell's passage; verify, flag, correct,
assign; add your own question; download XLSX / CSV.

Untrusted text (file names, answers, passages, notes) reaches the page only as escaped st.html, widget
values, option labels and dataframe cells: never as markdown.
"""

import streamlit as st

from agents.store.table import ROW
from agents.table import export
from app.render import ui
from app.session import auth, services
from app.views import table_view as tv
from app.views.passage import passage_html

st.title("Review table")
ctx = ui.require_run()  # calls auth.guard; ctx.store is scoped to the signed-in user (a viewer's mark is refused)
items = services.checklist(ctx.settings)
author = auth.author(ctx.settings)
ro = not auth.can_write(ctx.settings, ctx.room)  # a viewer: the store refuses their marks; the buttons say so first


@st.cache_resource(show_spinner=False, max_entries=4)
def _grid(db: str, run_id: str, version: tuple):
    """The grid between reruns: reading 1,000 × 65 cells again for every click took most of a rerun. A new
    build or any reviewer action (the `version`) reads it afresh."""
    return tv.grid_of(ctx.store, run_id)


built = ctx.store.table_built(ctx.run.id)
grid = _grid(str(ctx.settings.db_path()), ctx.run.id,
             (built[1].isoformat() if built else "", len(ctx.store.actions(ctx.run.id))))
if grid is None:
    st.info("The table has not been built for this run yet: one row per document, one column per question, "
            "each answer with the passage it stands on.")
    if st.button("Build the table", type="primary", icon=":material/table:", disabled=ctx.live or ro):
        with st.spinner("Reading the answers from the review…"):
            tv.build(ctx.settings, ctx.store, ctx.run.id, items)
        st.rerun()
    st.stop()

titles = tv.headers(grid.columns)
DOC, COL, LAST = "table_doc", "table_col", "_table_last_cell"
top = st.columns([4, 2, 1, 1])
chosen = top[0].multiselect("Columns", [c.id for c in grid.columns], default=tv.default_columns(grid.columns),
                            format_func=titles.__getitem__, placeholder="Choose the questions to show")
df = tv.frame(grid, chosen)
where = top[1].selectbox("Filter on", ["any column", *df.columns[1:]])
contains = top[2].text_input("Contains")
order = top[3].selectbox("Sort by", [tv.FILE, *df.columns[1:]])
df = tv.sort_frame(tv.filter_frame(df, None if where == "any column" else where, contains), order,
                   descending=st.toggle("Descending", False))
n_pages = tv.pages(df)
number = st.number_input(f"Page (of {n_pages})", 1, n_pages, 1) if n_pages > 1 else 1
st.caption(f"{len(df)} of {len(grid.documents)} documents · {len(chosen)} of {len(grid.columns)} questions shown")
shown = tv.page(df, number)
event = st.dataframe(shown, hide_index=True, height=tv.grid_height(len(shown)), on_select="rerun",
                     selection_mode="single-cell", key="table_grid",
                     column_config={tv.FILE: st.column_config.TextColumn(width="medium")})
picked = tv.picked_cell(shown, event.selection.cells if event else [], grid)
if picked and picked != st.session_state.get(LAST):  # a click in the grid opens that cell below
    st.session_state[LAST] = picked
    st.session_state[DOC] = picked[0]
    if picked[1]:
        st.session_state[COL] = picked[1]
if st.session_state.get(DOC) not in df.index:
    st.session_state.pop(DOC, None)

with st.container(border=True):
    st.subheader("Open a cell")
    c = st.columns(2)
    paths = dict(grid.documents)
    doc = c[0].selectbox("Document", list(df.index), format_func=paths.__getitem__, index=None, key=DOC,
                         placeholder="Choose a document, or click a cell above")
    col = c[1].selectbox("Question", [x.id for x in grid.columns], format_func=titles.__getitem__, index=None,
                         key=COL, placeholder="Choose a question")
    if doc and col:
        d = tv.cell_detail(ctx.store, grid, doc, col)
        st.html(tv.detail_html(d))
        text = services.document_text(ctx.settings, ctx.room, doc)
        for q in d.answer.quotes if d.answer else []:
            st.html(passage_html(text, q.start, q.end, context=300))
        b = st.container(horizontal=True)
        m = grid.marks.get((doc, col))
        if b.button("Unverify" if m and m.verified else "Verify", icon=":material/verified:", disabled=ro):
            tv.mark(ctx.store, ctx.run.id, items, doc, col, author, verified=not (m and m.verified))
            st.rerun()
        if b.button("Unflag" if m and m.flagged else "Flag", icon=":material/flag:", disabled=ro):
            tv.mark(ctx.store, ctx.run.id, items, doc, col, author, flagged=not (m and m.flagged))
            st.rerun()
        with st.form(f"correct_{doc}_{col}"):
            corrected = st.text_input("Corrected answer", d.corrected or "")
            note = st.text_input("Note on this answer", m.note if m else "")
            if st.form_submit_button("Save correction", disabled=ro):
                tv.mark(ctx.store, ctx.run.id, items, doc, col, author, corrected=corrected or None,
                        clear_correction=not corrected.strip(), note=note)
                st.rerun()
    if doc:
        with st.form(f"assign_{doc}"):
            who = st.text_input("Assign this document to", grid.assignee(doc))
            if st.form_submit_button("Assign", disabled=ro):
                tv.mark(ctx.store, ctx.run.id, items, doc, ROW, author, assignee=who)
                st.rerun()

dl = st.container(horizontal=True)
dl.download_button("Table (XLSX)", lambda: export.to_xlsx(tv.load_grid(ctx.store, ctx.run.id)),
                  f"table-{ctx.run.id}.xlsx", mime=export.XLSX_MIME, on_click="ignore", icon=":material/download:")
dl.download_button("Table (CSV)", lambda: export.to_csv(tv.load_grid(ctx.store, ctx.run.id)),
                  f"table-{ctx.run.id}.csv", mime="text/csv", on_click="ignore", icon=":material/download:")
if dl.button("Rebuild the table", icon=":material/refresh:", disabled=ctx.live or ro,
            help="Read the answers again from the run (your marks and corrections are kept)"):
    tv.build(ctx.settings, ctx.store, ctx.run.id, items)
    st.rerun()

with st.expander("Add your own question"):
    with st.form("question"):
        q = st.text_input("Question in plain words", placeholder="Is there a most-favoured-customer price clause?")
        kind = st.selectbox("Answer type", tv.TYPES)
        if st.form_submit_button("Add question", disabled=ro) and q.strip():
            column = tv.add_question(ctx.store, ctx.room, q, kind, author)
            tv.build(ctx.settings, ctx.store, ctx.run.id, items)
            if not ctx.settings.llm.offline:
                with st.spinner("Asking the model, document by document…"):
                    tv.answer_with_model(ctx.settings, ctx.store, ctx.run.id, column)
            st.rerun()
    st.caption("With a model endpoint configured, the model answers it for every document from the document's "
               "best passages, and each quote is checked against the document. Without one, each document's "
               "answer is its best-matching passages, marked “passages only — needs a model to answer”; no "
               "answer is made up.")

own = ctx.store.table_columns(ctx.room)
if own:
    with st.expander("Remove one of your questions"):
        with st.form("remove_question"):
            gone = st.selectbox("Question", own, format_func=lambda c: c.title)
            if st.form_submit_button("Remove question", disabled=ro) and gone is not None:
                tv.remove_question(ctx.settings, ctx.store, ctx.run.id, ctx.room, gone.id, items)
                st.rerun()
        st.caption("Its marks and corrections are kept: ask the same question again and they come back.")

st.subheader("Table activity")
log = tv.activity(ctx.store.actions(ctx.run.id), grid)
if log.empty:
    st.caption("No marks yet. Verify, flag, correct or assign and it is recorded here with time and author.")
else:
    st.dataframe(log, hide_index=True)
