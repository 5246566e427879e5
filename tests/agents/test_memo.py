"""Memo sections and export: shaped like a diligence report, following the reviewer, untrusted text inert."""

from __future__ import annotations

from docx import Document as Docx
from markdown_it import MarkdownIt

from core.checklist import load_checklist
from core.types import Citation, Finding, Memo, ReviewerStatus, Severity

from agents import memo as m
from agents.memo import derive
from agents.memo.agreements import Agreement
from agents.store.models import Coverage, DocumentReview


def _f(cat: str, quote: str, path: str, page: int, sev=Severity.high, verified=True, start=0, **kw) -> Finding:
    return Finding(category=cat, severity=sev, summary=kw.pop("summary", f"{cat} in {path}"), quote=quote,
                   verified=verified, citation=Citation(document_id=path, document_path=path, page=page, chunk_id="c",
                                                        char_start=start, char_end=start + len(quote)), **kw)


AGREEMENTS = {
    "Commercial/acme.pdf": Agreement("Commercial/acme.pdf", "Commercial/acme.pdf", title="Supply Agreement",
                                     parties=[("Acme Corp.", "Supplier"), ("Target Inc.", "Customer")],
                                     dated="2021-02-02", law="New York", term="3 years"),
    "Commercial/beta.pdf": Agreement("Commercial/beta.pdf", "Commercial/beta.pdf", title="Distribution Agreement",
                                     parties=[("Beta LLC", "Distributor")]),
}


def _sections(settings, fs):
    items = load_checklist(settings.checklist_path)
    cov = Coverage(documents_reviewed=2, documents_total=2, tokens_reviewed=900, tokens_total=900,
                   documents_failed_parse=1, documents_skipped=2)
    docs = [DocumentReview(document_id="z", path="Commercial/scan.pdf", folder="Commercial", status="failed",
                           reason="no text layer"),
            DocumentReview(document_id="y", path="Commercial/copy.pdf", folder="Commercial", status="skipped",
                           reason="identical to Commercial/acme.pdf (same sha256); not parsed twice")]
    sections = [m.executive_summary(fs, items, cov, agreements=AGREEMENTS),
                m.consents_section(fs, AGREEMENTS),
                m.agreements_section(list(AGREEMENTS.values()), {"Commercial/acme.pdf": {"change_of_control"}})]
    sections += [m.item_section(i, fs, None, agreements=AGREEMENTS) for i in items[:3]]
    sections.append(m.scope_section(cov, docs, {"exclusivity": "exclusive dealing"}, items))
    return items, Memo(room="sample", run_id="r1", sections=sections)


def test_memo_docx_is_shaped_like_a_diligence_report(settings, tmp_path):
    fs = [_f("change_of_control", "18.4 Supplier may terminate this Agreement upon a Change of Control of Customer "
             "on thirty (30) days' written notice.", "Commercial/acme.pdf", 3),
          _f("anti_assignment", "Distributor shall not assign without the prior written consent of Beta.",
             "Commercial/beta.pdf", 1, Severity.medium),
          _f("anti_assignment", "Invented text.", "Commercial/beta.pdf", 2, verified=False, start=500)]
    _, memo = _sections(settings, fs)
    path = m.to_docx(memo, tmp_path / "memo.docx", {f.id: f for f in fs})

    doc = Docx(str(path))
    headings = [p.text for p in doc.paragraphs if p.style.name.startswith("Heading") or p.style.name == "Title"]
    assert headings[0] == "Due diligence memo — sample"
    assert {"Executive summary", "Consents and notices", "Agreements reviewed", "Change of control",
            "Scope and documents not reviewed", m.SCHEDULE_TITLE} <= set(headings)
    body = "\n".join(p.text for p in doc.paragraphs)
    assert "[Commercial/acme.pdf, p. 3]" in body
    assert "Invented text." not in body  # unverified: never in the memo
    # key issues: grouped by agreement, each with a recommended action, the termination right first
    summary = memo.section("executive_summary").text
    assert summary.index("**Supply Agreement**") < summary.index("**Distribution Agreement**")
    assert "Recommended action: Negotiate a waiver of the termination right before closing" in summary
    assert "Recommended action: Obtain the counterparty's consent before closing" in summary
    assert "1 file(s) could not be parsed; 2 file(s) skipped by design" in summary
    consents = doc.tables[0]
    assert [c.text for c in consents.rows[0].cells] == ["Agreement", "Parties", "Section", "Trigger", "Consequence",
                                                        "Notice", "Action", "Source"]
    rows = [[c.text for c in r.cells] for r in consents.rows[1:]]
    assert ["Supply Agreement", "Acme Corp. / Target Inc.", "§ 18.4", "change of control", "counterparty may terminate",
            "30 days' written notice", "Negotiate a waiver of the termination right before closing",
            "[p. 3]"] in rows
    agreements = [[c.text for c in r.cells] for r in doc.tables[1].rows]
    assert ["Supply Agreement", "acme.pdf", "Acme Corp. (“Supplier”); Target Inc. (“Customer”)", "2021-02-02",
            "3 years", "New York"] in agreements
    matrix = [[c.text for c in r.cells] for r in doc.tables[2].rows]
    assert matrix[1][:3] == ["Supply Agreement", "Yes", "No"]
    # failures and files skipped by design are reported apart
    assert "Commercial/scan.pdf: no text layer" in body
    assert "Skipped by design (not failures):" in body and "Commercial/copy.pdf" in body
    # the appendix starts on a page of its own
    xml = doc.element.body.xml
    assert xml.index('w:type="page"') < xml.index(m.SCHEDULE_TITLE)

    md = m.to_markdown(memo, {f.id: f for f in fs})
    assert md.startswith("# Due diligence memo — sample") and "## Scope and documents not reviewed" in md


def test_the_memo_follows_the_reviewer(settings):
    """Rejected: out of every section; edited: the new text and severity; a note: shown with its finding."""
    rejected = _f("change_of_control", "Supplier may terminate upon a Change of Control.", "Commercial/acme.pdf", 3,
                  reviewer_status=ReviewerStatus.rejected)
    edited = _f("anti_assignment", "Distributor shall not assign without consent.", "Commercial/beta.pdf", 1,
                Severity.high, reviewer_status=ReviewerStatus.edited, summary="Beta's consent needed to assign.")
    noted = _f("change_of_control", "Customer shall notify Supplier of any change of control.", "Commercial/acme.pdf",
               4, Severity.low, start=900, reviewer_note="Confirm with the seller whether notice was given.")
    fs = [rejected, edited, noted]
    _, memo = _sections(settings, fs)
    md = m.to_markdown(memo, {f.id: f for f in fs})
    assert "Supplier may terminate upon a Change of Control" not in md and rejected.id not in md
    assert all(rejected.id not in s.finding_ids for s in memo.sections)
    assert "Beta's consent needed to assign. (edited by the reviewer)" in memo.section("executive_summary").text
    assert "**High** — Beta's consent needed to assign." in memo.section("anti_assignment").text
    assert "Reviewer note: Confirm with the seller whether notice was given." in memo.section("change_of_control").text
    assert md.count("Reviewer note: Confirm with the seller") == 2  # its section and the schedule


def test_untrusted_text_is_inert_in_markdown_and_literal_in_docx(settings, tmp_path):
    evil = "![x](http://127.0.0.1:9/p.png) <img src=x onerror=alert(1)> **bold** [a](javascript:alert(1)) www.x.com"
    f = _f("change_of_control", f"Supplier may terminate on a change of control. {evil}", "Comm/<b>x</b>_[1].pdf", 2,
           summary=f"Supplier may terminate. {evil}", reviewer_note=evil)
    _, memo = _sections(settings, [f])
    md = m.to_markdown(memo, {f.id: f for f in [f]})
    # rendered as a browser would get it (CommonMark with tables, raw HTML allowed: the strictest case)
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(md)
    assert "<img" not in html and "<a " not in html and "<strong>bold" not in html and "<b>" not in html
    assert html.count("![x](http://127.0.0.1:9/p.png) &lt;img src=x onerror=alert(1)&gt; **bold**") >= 3
    doc = Docx(str(m.to_docx(memo, tmp_path / "evil.docx", {f.id: f})))
    body = "\n".join(p.text for p in doc.paragraphs)
    assert f"Supplier may terminate. {evil}" in body  # Word shows the characters the document holds
    assert "Comm/<b>x</b>_[1].pdf" in body
    assert not any(r.bold for p in doc.paragraphs for r in p.runs if "bold" in r.text)


def test_key_issues_are_at_most_twelve_ranked_by_consequence_for_the_deal(settings):
    items = load_checklist(settings.checklist_path)
    notice = _f("change_of_control", "Customer shall give notice of a change of control.", "A/n.pdf", 1)
    consent = _f("change_of_control", "A change of control requires the prior written consent of Supplier.",
                 "A/c.pdf", 1)
    capped = _f("cap_on_liability", "Liability is limited to the fees paid.", "A/cap.pdf", 1)
    uncapped = _f("uncapped_liability", "Nothing limits liability for breach of confidentiality.", "A/u.pdf", 1)
    many = [_f("exclusivity", f"Exclusive supplier in region {n}.", f"B/e{n}.pdf", 1, Severity.medium)
            for n in range(20)]
    again = _f("change_of_control", "Supplier may terminate on a change of control of Customer.", "A/c.pdf", 3)
    issues = m.sections.key_issues([capped, many[0], uncapped, notice, consent, again, *many[1:]], items)
    assert len(issues) == m.KEY_ISSUES
    # one issue per agreement and item; a damages cap, however severe, never crowds out a restriction
    assert [f.id for f in issues[:3]] == [again.id, notice.id, uncapped.id] or \
        [f.id for f in issues[:3]] == [consent.id, notice.id, uncapped.id]
    assert capped not in issues and sum(f.citation.document_id == "A/c.pdf" for f in issues) == 1
    assert m.sections.key_issues([capped, notice], items) == [notice, capped]


def test_a_key_issue_says_what_the_clause_does_or_shows_its_words(settings):
    """Of one agreement's passages on an item, the one whose sentence says who may do what is the key issue;
    a key issue whose sentence only names the kind of clause is followed by the clause's own words."""
    items = load_checklist(settings.checklist_path)
    vague = _f("ip_ownership", "All Work Product shall be the sole property of Acme Corp.", "Commercial/acme.pdf", 2,
               summary="The agreement allocates ownership of intellectual property (§ 9).", confidence=0.9)
    clear = _f("ip_ownership", "Customer shall own all Deliverables.", "Commercial/acme.pdf", 3, start=500,
               summary="Target Inc. owns the Deliverables (§ 9.2).", confidence=0.5)
    assert m.sections.key_issues([vague, clear], items) == [clear]
    text = m.executive_summary([vague], items, Coverage(), agreements=AGREEMENTS).text
    line = text.split("The agreement allocates ownership of intellectual property (§ 9).", 1)[1].splitlines()
    assert line[1] == "  > “All Work Product shall be the sole property of Acme Corp.”"
    headed = vague.model_copy(update={"quote": "ARTICLE IV RESTRICTIVE COVENANT 4.1 Exclusivity. Except as provided "
                                               "in the Distribution Agreement, Conformis shall be prohibited from selling"})
    text = m.executive_summary([headed], items, Coverage(), agreements=AGREEMENTS).text
    assert "  > “…Except as provided in the Distribution Agreement, Conformis shall be prohibited from selling”" in text
    text = m.executive_summary([clear], items, Coverage(), agreements=AGREEMENTS).text
    assert "Customer shall own" not in text  # a sentence that says it all needs no quote in the summary
    # a sentence that knows who but not what: the words where that party is the one that "shall"
    listed = vague.model_copy(update={
        "category": "exclusivity", "items": ["exclusivity"],
        "summary": "Company (Acme Corp.) may not deal with third parties in the field the clause covers (§ 5).",
        "quote": "5. Exclusivity. During the Term, (i) the Reseller shall have the exclusive right to commission "
                 "for any referrals, (ii) the Company shall not sell Company Products other than through the Reseller."})
    text = m.executive_summary([listed], items, Coverage(), agreements=AGREEMENTS).text
    assert "  > “…(ii) the Company shall not sell Company Products other than through the Reseller.”" in text
    item = next(i for i in items if i.id == "exclusivity")
    assert "  > “…(ii) the Company shall not sell" in m.item_section(item, [listed], None).text


def test_item_section_is_concise_and_the_schedule_lists_every_finding(settings, tmp_path):
    """One bullet per agreement (further passages cited by page); the appendix lists them all."""
    item = next(i for i in load_checklist(settings.checklist_path) if i.id == "governing_law")
    fs = [_f("governing_law", f"This Agreement is governed by the laws of State {n}.", f"Legal/doc{n % 5:03}.txt", n,
             Severity.medium if n < 5 else Severity.low, start=100 * n) for n in range(25)]
    fs.append(_f("governing_law", "Governed by the laws of Nowhere.", "Legal/bad.txt", 1, verified=False))
    section = m.item_section(item, fs, None)
    assert section.text.startswith("25 finding(s) in 5 document(s).")
    assert section.text.count("\n- ") == 5 and section.text.count("  - Further passages: ") == 5
    assert len(section.finding_ids) == 25
    memo = Memo(room="big", run_id="r", sections=[section])
    md = m.to_markdown(memo, {f.id: f for f in fs})
    schedule = md.split(f"## {m.SCHEDULE_TITLE}", 1)[1]
    assert f"### {item.title} (25)" in schedule
    assert all(f"{m.cite(f)} · finding {f.id}" in schedule for f in fs if f.verified)
    assert "Nowhere" not in md  # unverified: neither quoted nor scheduled


def test_consents_and_scope_during_the_run_are_bounded_and_say_what_is_left():
    fs = [_f("change_of_control", f"Consent of Lender required on a change of control ({n}).", f"Debt/l{n}.pdf", 1)
          for n in range(3)]
    sec = m.consents_section(fs[:2], total=3)
    assert sec.text.count("| l") == 2 and "1 more finding(s), less severe" in sec.text
    assert "more finding" not in m.consents_section(fs, total=3).text
    cov = Coverage(documents_reviewed=0, documents_total=60, tokens_reviewed=0, tokens_total=6000)
    docs = [DocumentReview(document_id=str(n), path=f"A/{n}.txt", folder="A", status="unreviewed") for n in range(60)]
    text = m.scope_section(cov, docs, {}, [], limit=derive.SCOPE_LIMIT).text
    assert text.count("- A/") == derive.SCOPE_LIMIT and f"and {60 - derive.SCOPE_LIMIT} more" in text
    assert m.scope_section(cov, docs, {}, []).text.count("- A/") == 60


def test_llm_section_refs_resolve_to_bracketed_citations():
    f = _f("change_of_control", "q", "A/x.pdf", 7)
    assert m.resolve_refs(f"Terminable on CoC [F:{f.id}].", {f.id: f}) == "Terminable on CoC [A/x.pdf, p. 7]."
    assert m.resolve_refs("[F:deadbeef00]", {}) == "[F:deadbeef00]"


def test_model_prose_keeps_its_paragraphs_bullets_and_refs_but_no_markup(tmp_path):
    from agents.memo.markup import plain, prose

    f = _f("change_of_control", "q", "A/x.pdf", 7)
    written = (f"Two consents are needed [F:{f.id}].\n\n- Cisco may terminate ![x](http://127.0.0.1:9/p.png)\n"
               "# Not a heading\n2020. Not a list\n---\n<script>alert(1)</script> see https://x.example")
    text = m.resolve_refs(prose(written), {f.id: f})
    html = MarkdownIt("commonmark", {"html": True, "linkify": False}).render(text)
    assert "<img" not in html and "<h1" not in html and "<hr" not in html and "<ol" not in html
    assert "<script" not in html and "<a " not in html
    assert "<li>Cisco may terminate ![x](http://127.0.0.1:9/p.png)\n# Not a heading" in html
    assert "<p>Two consents are needed [A/x.pdf, p. 7].</p>" in html
    assert plain(prose(written)).replace(f"[F:{f.id}]", "") == written.replace(f"[F:{f.id}]", "")


def test_agreements_are_named_by_title_else_by_the_kind_their_file_name_states():
    from agents.memo.agreements import agreement_of, name_from_file, unique_labels

    assert name_from_file("a/AtnInc_20191108_10-Q_EX-10.1_118_Maintenance Agreement.pdf") == "Maintenance Agreement (AtnInc)"
    assert name_from_file("x/Bell_2019_S-1_Manufacturing Agreement1.pdf") == "Manufacturing Agreement (Bell)"
    assert name_from_file("Commercial/acme_supply.pdf") == "acme supply"
    generic = agreement_of("d", "LinkPlus_2005_EX-10_Affiliate Agreement.pdf", {"title": "AGREEMENT"})
    assert generic.label == "Affiliate Agreement (LinkPlus)"
    assert agreement_of("d", "x.pdf", {"title": "ENDORSEMENT AGREEMENT"}).label == "Endorsement Agreement"
    twins = [agreement_of("1", "A/one.pdf", {"title": "Supply Agreement"}),
             agreement_of("2", "B/two.pdf", {"title": "Supply Agreement"})]
    unique_labels(twins)
    assert [a.label for a in twins] == ["Supply Agreement (one.pdf)", "Supply Agreement (two.pdf)"]
    # told apart by who they are with, where the parties differ
    parted = [agreement_of("1", "A/one.pdf", {"title": "Strategic Alliance Agreement", "parties": [
                  {"name": "The University of Texas M. D. Anderson Cancer Center", "role": "MD Anderson"},
                  {"name": "Adaptimmune LLC", "role": "Adaptimmune"}]}),
              agreement_of("2", "B/two.pdf", {"title": "Strategic Alliance Agreement", "parties": [
                  {"name": "Lightbridge Corporation", "role": "Company"}, {"name": "Lloyds Register FNMA", "role": "Lloyds"}]})]
    unique_labels(parted)
    assert [a.label for a in parted] == ["Strategic Alliance Agreement (MD Anderson / Adaptimmune)",
                                         "Strategic Alliance Agreement (Lightbridge / Lloyds)"]


def test_scope_lists_the_built_in_searches_in_one_line_and_shows_a_models_own_query(settings):
    items = [i for i in load_checklist(settings.checklist_path) if i.id in ("non_solicit", "most_favored_nation", "source_code_escrow")]
    own = {i.id: f"{i.title}: {i.description}" for i in items}
    cov = Coverage(documents_reviewed=2, documents_total=2, tokens_reviewed=10, tokens_total=10)
    text = m.scope_section(cov, [], {**own, "most_favored_nation": "pricing no worse than any other customer"}, items).text
    assert "(follow-up pass): Non-solicitation; Source code escrow." in text  # the item's description is not repeated
    assert "- Most favoured nation: “pricing no worse than any other customer”" in text


def test_docx_tables_fit_each_columns_longest_word_and_repeat_their_header(tmp_path):
    from docx.shared import Cm

    from agents.memo import render

    rows = [["Agreement", "Parties", "Section", "Trigger", "Consequence", "Notice", "Action", "Source"],
            ["Distribution Agreement", "Halvorsen Pumps, Inc. / Blue Ridge Trading LLC", "§ 10.2",
             "assignment or transfer", "prior consent required", "—",
             "Obtain the counterparty's consent before closing", "[§ 10.2, p. 24]"]]
    widths = render._column_widths(rows, render.CHAR_CM * 8.0 / 8.5)
    assert abs(sum(w.cm for w in widths) - render.TEXT_WIDTH_CM) < 0.01
    for column, width in zip(zip(*rows), widths):
        longest = max(len(w) for t in column for w in t.replace("§ ", "§\u00a0").split())
        assert width >= Cm(min(longest, 11) * render.CHAR_CM * 8.0 / 8.5 + render.PAD_CM) * 0.999, column
    memo = Memo(run_id="run-1", room="r", sections=[m.consents_section([_f("change_of_control", "Consent of Lender is required on a "
                                                                   "change of control.", "Debt/loan.pdf", 2)])])
    doc = Docx(str(render.to_docx(memo, tmp_path / "memo.docx")))
    header = doc.tables[0].rows[0]._tr
    assert header.xpath("./w:trPr/w:tblHeader")  # repeats on the next page, never alone at a page's foot
    assert all(p.paragraph_format.keep_with_next for c in doc.tables[0].rows[0].cells for p in c.paragraphs)


def test_two_passages_that_read_the_same_at_the_same_place_are_one_schedule_line():
    same = "Licensee has exclusive rights granted by Licensor."
    fs = [_f("exclusivity", "3.6 Licensor grants Licensee an exclusive licence.", "IP/lic.pdf", 7, summary=same),
          _f("exclusivity", "The licence in 3.6 is exclusive worldwide.", "IP/lic.pdf", 7, summary=same, start=200),
          _f("exclusivity", "The licence is exclusive in Canada.", "IP/lic.pdf", 9, summary=same, start=900),
          _f("exclusivity", "It is exclusive in Mexico.", "IP/lic.pdf", 7, summary=same, start=400, reviewer_note="check")]
    memo = Memo(room="r", run_id="r", sections=[])
    lines = dict(m.findings_schedule(memo, {f.id: f for f in fs}))["exclusivity (4)"]
    assert len(lines) == 4 and sum(line.count(same) for line in lines) == 3
    joined = [line for line in lines if " · findings " in line]
    assert len(joined) == 1 and {fs[0].id, fs[1].id} == set(joined[0].rsplit(" · findings ", 1)[1].split(", "))
    assert any(line.endswith(f"p. 9] · finding {fs[2].id}") for line in lines)  # another page: its own line
    noted = lines.index(next(line for line in lines if line.endswith(f"· finding {fs[3].id}")))
    assert lines[noted + 1] == "  - Reviewer note: check"  # a finding with a note keeps its own line


def _section_lead(settings, item_id: str, fs: list[Finding]) -> tuple[str, str]:
    """(the first agreement's lead line, the whole section) of `item_id`'s memo section over `fs`."""
    item = next(i for i in load_checklist(settings.checklist_path) if i.id == item_id)
    text = m.item_section(item, fs, None, agreements=AGREEMENTS).text
    return next(line for line in text.splitlines() if line.startswith("- ")), text


def test_of_equally_severe_passages_a_read_sentence_leads_the_agreement(settings):
    fallback = _f("exclusivity", "EXCLUSIVE DISTRIBUTOR AGREEMENT", "Commercial/acme.pdf", 1, Severity.medium,
                  summary="The agreement contains an exclusivity commitment.")
    read = _f("exclusivity", "1. Acme appoints Target as its exclusive distributor.", "Commercial/acme.pdf", 1,
              Severity.medium, start=500, summary="Customer has exclusive rights granted by Supplier.")
    lead, text = _section_lead(settings, "exclusivity", [fallback, read])
    assert "Customer has exclusive rights granted by Supplier." in lead and "Further passages" in text


def test_of_equally_read_passages_the_sentence_of_the_item_itself_leads(settings):
    """A clause's other duty restated ("that party must bear all costs") does not lead the indemnity section over
    the indemnity ("Vertex must indemnify Bunker One"), whichever comes first in the document."""
    other = _f("indemnification", "Should any taxes occur because of one party's failure to pay, that party shall bear "
               "all costs.", "Commercial/acme.pdf", 9, Severity.medium,
               summary="Should any taxes occur because of one party's failure to pay, that party must bear all costs.")
    own = _f("indemnification", "11.1 Supplier shall indemnify Customer against all claims.", "Commercial/acme.pdf", 10,
             Severity.medium, start=500, summary="Supplier must indemnify Customer against claims and losses.")
    lead, text = _section_lead(settings, "indemnification", [other, own])
    assert "Supplier must indemnify Customer" in lead and "Further passages" in text


def test_a_passage_filed_under_the_item_leads_its_section_over_one_filed_under_another(settings):
    other = _f("indemnification", "Supplier shall indemnify Customer; liability under this section is capped.",
               "Commercial/acme.pdf", 3, Severity.medium, summary="Supplier must indemnify Customer against claims.",
               also=["cap_on_liability"])
    own = _f("cap_on_liability", "Supplier's liability shall not exceed the fees paid.", "Commercial/acme.pdf", 4,
             Severity.medium, start=900, summary="Supplier's liability is capped at the fees paid.")
    lead, text = _section_lead(settings, "cap_on_liability", [other, own])
    assert "liability is capped" in lead and "Further passages" in text


def test_a_passage_filed_under_another_item_says_in_this_items_section_what_it_read_for_it(settings):
    from agents.passages import join_same_passages

    item = next(i for i in load_checklist(settings.checklist_path) if i.id == "cap_on_liability")
    quote = "Supplier shall indemnify Customer, and Supplier's liability shall not exceed the fees paid."
    indemnity = _f("indemnification", quote, "Commercial/acme.pdf", 3, Severity.medium,
                   summary="Supplier must indemnify Customer against claims.")
    cap = _f("cap_on_liability", quote, "Commercial/acme.pdf", 3, Severity.medium,
             summary="Supplier's liability is capped at the fees paid.")
    [joined] = join_same_passages([indemnity, cap])
    assert joined.category == "indemnification" and joined.also == ["cap_on_liability"]
    text = m.item_section(item, [joined], None, agreements=AGREEMENTS).text
    assert "liability is capped at the fees paid" in text and "must indemnify" not in text
    # a reviewer's edit is the finding's text everywhere
    edited = joined.model_copy(update={"summary": "Indemnity with a fee cap.", "reviewer_status": ReviewerStatus.edited})
    assert "Indemnity with a fee cap." in m.item_section(item, [edited], None, agreements=AGREEMENTS).text
    # an informational reading beside a graded one is most often a look-alike, and the item's fallback sentence says
    # nothing: with neither, the passage is cited under the item it is filed with, not quoted with that item's
    # sentence ("Supplier must indemnify Customer" says nothing under Cap on liability)
    low = cap.model_copy(update={"severity": Severity.info})
    fallback = cap.model_copy(update={"summary": "The agreement limits liability."})
    for other in (low, fallback):
        [j] = join_same_passages([indemnity, other])
        text = m.item_section(item, [j], None, agreements=AGREEMENTS, titles={"indemnification": "Indemnification"}).text
        assert "must indemnify" not in text and "passages filed under Indemnification bear on this item too" in text
        assert "[p. 3]" in text


def test_a_reading_of_more_than_the_shown_quote_does_not_speak_for_it(settings):
    from agents.passages import join_same_passages

    item = next(i for i in load_checklist(settings.checklist_path) if i.id == "license_grant")
    doc = "Vendor hereby assigns all right, title and interest in the Data to AT&T. AT&T grants Vendor a licence to it."
    assign = _f("ip_ownership", doc[:71], "Commercial/acme.pdf", 3, Severity.high,
                summary="Vendor assigns the data to AT&T.")
    licence = _f("license_grant", doc[10:95], "Commercial/acme.pdf", 3, Severity.medium, start=10,
                 summary="AT&T grants Vendor a licence.")
    [joined] = join_same_passages([assign, licence])
    assert joined.quote == doc[:71] and "AT&T grants Vendor a licence." not in m.item_section(
        item, [joined], None, agreements=AGREEMENTS).text


def test_a_high_findings_excerpt_is_the_sentence_its_summary_restates(settings):
    # the passage opens with the sub-clause before the one the sentence reads; the excerpt beside the sentence shows
    # the words it restates, not the passage's opening
    quote = ("(c) No other reseller shall have the right to use, copy, modify or alter any Software whatsoever, and Beta "
             "shall take all necessary steps to ensure that all acts of any other reseller are consistent with this "
             "Agreement. 2.3 NON-COMPETITION. Beta shall not obtain the Software for sale from any Entity other than Acme.")
    f = _f("non_compete", quote, "Commercial/beta.pdf", 4,
           summary="Distributor (Beta LLC) may not obtain the software for sale from any entity other than Acme.")
    item = next(i for i in load_checklist(settings.checklist_path) if i.id == "non_compete")
    assert "  > “…2.3 NON-COMPETITION. Beta shall not obtain the Software for sale from any Entity other than Acme.”" in (
        m.item_section(item, [f], None).text)


def test_a_passage_filed_under_another_item_carries_its_own_grade_for_this_one(settings):
    from agents.store.models import with_reading

    quote = ("If Customer disagrees with any such changes, Customer may terminate this Agreement without the payment of "
             "termination charges upon thirty (30) days' notice.")
    f = _f("termination_for_convenience", quote, "Commercial/acme.pdf", 7,
           summary="Customer (Target Inc.) may terminate for convenience, on 30 days' notice.",
           also=["liquidated_damages"],
           extra=with_reading({}, "liquidated_damages", "Customer (Target Inc.) may terminate without paying a "
                                                        "termination fee.", "low"))
    items = {i.id: i for i in load_checklist(settings.checklist_path)}
    fees = m.item_section(items["liquidated_damages"], [f], None, agreements=AGREEMENTS).text
    # the high is the termination right's; for termination fees the passage rules one out, which is no red flag
    assert "high severity" not in fees and "**High**" not in fees
    assert "Also found, low or informational: Supply Agreement" in fees
    tfc = m.item_section(items["termination_for_convenience"], [f], None, agreements=AGREEMENTS).text
    assert "1 high severity" in tfc and "**High** — Customer (Target Inc.) may terminate for convenience" in tfc


def test_a_vague_key_issue_shows_the_operative_sentence_it_is_about(settings):
    items = load_checklist(settings.checklist_path)
    quote = ("Buyer warrants that its performance hereunder shall comply with all applicable law 7. Assignment: The rights "
             "and obligations of the parties under this Agreement shall not be assignable unless consent to the assignment "
             "is in writing and signed by the parties.")
    f = _f("anti_assignment", quote, "Commercial/acme.pdf", 13, sev=Severity.medium,
           summary="The agreement restricts assignment without consent.")
    text = m.executive_summary([f], items, Coverage(), agreements=AGREEMENTS).text
    assert "  > “…The rights and obligations of the parties under this Agreement shall not be assignable" in text


def test_of_one_agreements_assignment_passages_the_key_issue_is_one_whose_consequence_was_read(settings):
    items = load_checklist(settings.checklist_path)
    void = _f("anti_assignment", "Any assignment of this Agreement in violation of this Section 9.8 will be null and "
              "void.", "Commercial/acme.pdf", 11, sev=Severity.medium, start=900,
              summary="Any assignment made in breach of the clause is void (§ 9.8).")
    carve = _f("anti_assignment", "Neither Party may assign this Agreement without the prior written consent of the other "
               "Party, except that either Party may assign this Agreement without such consent to an entity that acquires "
               "all or substantially all of its business, whether by merger or otherwise.", "Commercial/acme.pdf", 11,
               sev=Severity.medium, start=500, summary="Neither party may assign the agreement without the other's prior "
               "written consent, except to a successor to its business (including by merger) (§ 9.8).")
    assert m.sections.key_issues([void, carve], items) == [carve]


def test_a_successors_and_assigns_clause_has_no_row_in_the_consents_schedule():
    quote = ("This Agreement shall be binding upon, and inure to the benefit of, the parties and their respective "
             "successors and assigns.")
    f = _f("anti_assignment", quote, "Commercial/acme.pdf", 30, sev=Severity.low,
           summary="The agreement binds and benefits the parties' successors and assigns; the clause does not restrict "
                   "assignment.")
    assert "No consent or notice requirement was identified" in m.consents_section([f], AGREEMENTS).text


def test_the_count_of_agreements_needing_consent_agrees_with_the_consents_schedule(settings):
    # the key issues rank a pool of the most severe findings; the line counting consents reads the schedule's
    items = load_checklist(settings.checklist_path)
    high = _f("change_of_control", "18.4 Supplier may terminate this Agreement upon a Change of Control of Customer.",
              "Commercial/acme.pdf", 3)
    outside_pool = _f("anti_assignment", "Distributor shall not assign this Agreement without the prior written consent "
                      "of the other party.", "Commercial/beta.pdf", 1, sev=Severity.medium)
    text = m.executive_summary([high], items, Coverage(), agreements=AGREEMENTS,
                               consent_findings=[high, outside_pool]).text
    assert "consent or waiver under 2 agreement(s): Supply Agreement; Distribution Agreement" in text


def test_a_consortiums_parties_are_named_a_few_at_a_time_in_the_memo_tables():
    from agents.memo.agreements import Agreement

    many = Agreement(document_id="d", path="cable.pdf", parties=[(f"Carrier {i} Ltd.", "") for i in range(1, 34)])
    assert many.party_names() == "Carrier 1 Ltd. / Carrier 2 Ltd. / Carrier 3 Ltd. / Carrier 4 Ltd. and 29 other parties"
    assert many.party_line().endswith("Carrier 6 Ltd. and 27 other parties")
    two = Agreement(document_id="e", path="supply.pdf", parties=[("Orchard Labs, Inc.", "Orchard"), ("Pine Co.", "")])
    assert (two.party_names(), two.party_line()) == ("Orchard Labs, Inc. / Pine Co.", "Orchard Labs, Inc. (“Orchard”); Pine Co.")
