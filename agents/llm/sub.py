"""The LLM sub-reviewer: one document's chunks in, verified findings out.

The prompt keeps document text out of the system message and wraps each
chunk in a DATA block tagged with chunk id, page and a per-request nonce, so
text inside a document cannot close its block or pose as instructions. The
output is constrained by a JSON schema built per request (categories and
chunk ids are enums of what was actually sent), then every quote is checked
against the chunk it cites: a quote that is not there is kept but marked
verified=False, never shown as a citation.
"""

from __future__ import annotations

import json
import secrets
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agents.llm.budget import BudgetExceeded, RunBudget
from agents.llm.caller import Completion, LLMCaller, LLMError, OutputInvalid
from agents.llm.client import get_client
from agents.llm.jsonout import first_json_object
from agents.llm.prompts import Template, load_template
from agents.policy import SubResult, SubReviewerError
from agents.verify import claim_problem, claims_absence
from core.checklist import load_checklist
from core.settings import Settings
from core.text import locate_quote
from core.types import Assignment, ChecklistItem, Chunk, Citation, Document, Finding, Severity


MIN_QUOTE_CHARS = 20  # shorter is a heading or a defined term ("Effective Date"), never a clause
MIN_SUMMARY_CHARS = 10


class LLMFinding(BaseModel):
    """One finding as the model reports it (before verification). Length limits are checked per finding
    (`usable`), so one empty quote costs that finding, not the whole reply."""

    model_config = ConfigDict(extra="forbid")
    category: str = Field(description="Checklist item id.")
    severity: Literal["high", "medium", "low", "info"] = Field(description="From the item's severity rules.")
    summary: str = Field(description=f"One or two sentences for the memo (>= {MIN_SUMMARY_CHARS} characters).")
    quote: str = Field(description=f"Verbatim text of the cited chunk (>= {MIN_QUOTE_CHARS} characters).")
    chunk_id: str = Field(description="Id of the DATA block the quote is from.")


class LLMSubOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")
    findings: list[LLMFinding] = Field(default_factory=list, description="Clauses found, one per clause.")
    not_found: list[str] = Field(default_factory=list, description="Items looked for and not in the document.")
    report: str = Field("", description="Short report to the lead reviewer.")


class SubReview(SubResult):
    """SubResult plus what only the LLM path knows: unverified quotes, retry reasons, output mode."""

    unverified: int = Field(0, description="Findings whose quote was not found in the cited chunk, or whose quote "
                            "shares no content word with its summary.")
    not_found: list[str] = Field(default_factory=list, description="Items the model answered 'not found' (its "
                                 "not_found list, and findings whose summary only says the item is absent).")
    dropped: list[str] = Field(default_factory=list, description="Findings discarded, with why (empty or short quote "
                               "or summary).")
    tokens_estimated: bool = Field(False, description="Some response had no `usage`; its tokens were estimated.")
    errors: list[str] = Field(default_factory=list, description="What retries were needed for (no secrets).")
    mode: str = Field("native", description="'fallback' when the server lacked structured output.")


def output_schema(item_ids: list[str], chunk_ids: list[str]) -> dict:
    """Strict JSON schema of the reply: every property required, no extras, ids as enums."""
    finding = {
        "type": "object",
        "properties": {
            "category": {"type": "string", "enum": item_ids, "description": "Checklist item id."},
            "severity": {"type": "string", "enum": [s.value for s in Severity]},
            "summary": {"type": "string", "minLength": MIN_SUMMARY_CHARS,
                        "description": "One or two sentences for the memo: what the clause provides."},
            "quote": {"type": "string", "minLength": MIN_QUOTE_CHARS,
                      "description": "Exact text copied from the cited DATA block: the whole sentence or clause."},
            "chunk_id": {"type": "string", "enum": chunk_ids, "description": "Id of the quoted DATA block."},
        },
        "required": ["category", "severity", "summary", "quote", "chunk_id"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"findings": {"type": "array", "items": finding,
                                    "description": "Only clauses that are in the document."},
                       "not_found": {"type": "array", "items": {"type": "string", "enum": item_ids},
                                     "description": "Item ids looked for and not in the document."},
                       "report": {"type": "string", "description": "At most two sentences for the lead."}},
        "required": ["findings", "not_found", "report"],
        "additionalProperties": False,
    }


def render_checklist(items: list[ChecklistItem]) -> str:
    lines = []
    for it in items:
        rules = "; ".join(f"{r.get('if')} -> {r.get('severity')}" for r in it.severity_rules)
        lines.append(
            f"- id: {it.id} ({it.title})\n  What it is: {it.description}\n  Red flag: {it.red_flag}\n"
            f"  Severity rules (first match wins): {rules or 'none'}; otherwise {it.default_severity.value}"
        )
    return "\n".join(lines)


def render_blocks(chunks: list[Chunk], nonce: str) -> str:
    return "\n\n".join(
        f"<<<DATA chunk_id={c.id} page={c.page} nonce={nonce}>>>\n{c.text}\n<<<END DATA nonce={nonce}>>>"
        for c in chunks
    )


def build_messages(template: Template, assignment: Assignment, document: Document, chunks: list[Chunk],
                   items: list[ChecklistItem], nonce: str) -> list[dict]:
    part = ""
    if assignment.chunk_range is not None:
        lo, hi = assignment.chunk_range
        part = f", part: chunks {lo}-{hi - 1}"
    return template.render(
        checklist=render_checklist(items), nonce=nonce, document_path=document.path, doc_type=document.doc_type,
        pages=str(document.pages), part=part, instructions=assignment.instructions or "Review for every item.",
        data_blocks=render_blocks(chunks, nonce),
    )


def parse_output(comp: Completion, item_ids: set[str], chunk_ids: set[str],
                 other_ids: set[str] = frozenset()) -> LLMSubOutput:
    """Reply text -> validated output; OutputInvalid (so the caller retries) when it is not usable.

    `other_ids`: checklist items this assignment did not ask about; findings for them are left out (a
    model without the schema's enum answers for every item it knows), not a reason to retry.
    """
    text = comp.content.strip()
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        obj = first_json_object(text)
    if not isinstance(obj, dict):
        raise OutputInvalid("the reply is not a JSON object")
    try:
        out = LLMSubOutput.model_validate(obj)
    except ValidationError as e:
        raise OutputInvalid(f"the JSON does not match the schema: {e.errors()[:3]}") from None
    out.findings = [f for f in out.findings if f.category not in other_ids]
    out.not_found = [c for c in out.not_found if c not in other_ids]
    for f in out.findings:
        if f.category not in item_ids:
            raise OutputInvalid(f"unknown category {f.category!r}; use one of {sorted(item_ids)}")
        if f.chunk_id not in chunk_ids:
            raise OutputInvalid(f"unknown chunk_id {f.chunk_id!r}; cite the chunk_id of a DATA block")
    unknown = [c for c in out.not_found if c not in item_ids]
    if unknown:
        raise OutputInvalid(f"unknown item ids in not_found {unknown[:3]}; use ids from {sorted(item_ids)}")
    return out


def sort_answers(out: LLMSubOutput) -> tuple[list[LLMFinding], list[str], list[str]]:
    """(findings, not-found item ids, dropped reasons): a finding that only says its item is absent is a
    'not found' answer, never a finding; one with an empty or too short quote or summary is dropped."""
    findings, not_found, dropped = [], list(dict.fromkeys(out.not_found)), []
    for f in out.findings:
        if claims_absence(f.summary) or claims_absence(f.quote):
            not_found.append(f.category)
        elif len(f.quote.strip()) < MIN_QUOTE_CHARS:
            dropped.append(f"{f.category}: quote shorter than {MIN_QUOTE_CHARS} characters")
        elif len(f.summary.strip()) < MIN_SUMMARY_CHARS:
            dropped.append(f"{f.category}: summary shorter than {MIN_SUMMARY_CHARS} characters")
        else:
            findings.append(f)
    found = {f.category for f in findings}
    return findings, [c for c in dict.fromkeys(not_found) if c not in found], dropped


def verify(raw: LLMFinding, chunk: Chunk, document: Document, agent: str) -> Finding:
    """A Finding whose citation span is set only when the quote is in the cited chunk and backs the summary
    (agents.verify.claim_problem: a model's summary must share a content word with its quote)."""
    cit = Citation(document_id=document.id, document_path=document.path, page=chunk.page, chunk_id=chunk.id)
    f = Finding(category=raw.category, severity=Severity(raw.severity), summary=raw.summary, quote=raw.quote,
                citation=cit, verified=False, agent=agent, extra={"summary_by": "model"})
    why = claim_problem(f)
    span = None if why else locate_quote(raw.quote, chunk.text)
    if span is not None:
        cit.char_start, cit.char_end = chunk.char_start + span[0], chunk.char_start + span[1]
    elif not why:
        why = "the quote is not in the cited chunk"
    return f.model_copy(update={"verified": span is not None, "citation": cit,
                                "extra": {**f.extra, **({"unverified": why} if why else {})}})


class LLMSubReviewer:
    """agents.policy.SubReviewer over an OpenAI-compatible endpoint (settings.llm, role 'sub').

    Build one per run and share it across sub-agents: its caller learns once
    whether the server supports structured output, and its budget is the run's.
    """

    def __init__(self, settings: Settings, *, caller: LLMCaller | None = None, budget: RunBudget | None = None,
                 template: Template | None = None):
        if caller is None:
            budget = budget if budget is not None else RunBudget.from_settings(settings.harness)
            caller = LLMCaller(get_client(settings.llm, "sub"), settings.llm, "sub", budget=budget)
        self.caller = caller
        self.template = template or load_template("subagent")
        # every checklist id: a finding for an item this assignment did not ask about is left out, not retried
        self.known_ids = {i.id for i in load_checklist(settings.checklist_path)}
        self.name = f"llm:{caller.model}"
        self.metered = True

    async def aclose(self) -> None:
        await self.caller.aclose()

    async def review(self, assignment: Assignment, document: Document, chunks: list[Chunk],
                     items: list[ChecklistItem]) -> SubResult:
        try:
            r = await self.review_document(assignment, document, chunks, items)
        except (LLMError, BudgetExceeded) as e:
            raise SubReviewerError(f"{assignment.agent}: {e}") from None
        report = r.report
        if r.not_found:
            report += f" Not found: {', '.join(r.not_found)}."
        if r.unverified:
            report += f" ({r.unverified} quote(s) not found in the cited chunk; marked unverified.)"
        if r.dropped:
            report += f" ({len(r.dropped)} finding(s) dropped: {r.dropped[0]}.)"
        return SubResult(**r.model_dump(include=set(SubResult.model_fields)) | {"report": report.strip()})

    async def review_document(self, assignment: Assignment, document: Document, chunks: list[Chunk],
                              items: list[ChecklistItem]) -> SubReview:
        every = self.known_ids | {i.id for i in items}
        if assignment.categories:
            items = [i for i in items if i.id in assignment.categories] or items
        if not chunks:
            return SubReview(report=f"{document.path}: no text to review.")
        nonce = secrets.token_hex(6)
        messages = build_messages(self.template, assignment, document, chunks, items, nonce)
        ids = [i.id for i in items]
        by_id = {c.id: c for c in chunks}
        comp = await self.caller.call(
            messages, json_schema=output_schema(ids, list(by_id)), schema_name="sub_review",
            parse=lambda c: parse_output(c, set(ids), set(by_id), every - set(ids)),
        )
        out: LLMSubOutput = comp.parsed
        kept, not_found, dropped = sort_answers(out)
        findings = [verify(f, by_id[f.chunk_id], document, assignment.agent) for f in kept]
        return SubReview(
            findings=findings, report=out.report[:1000], tokens_in=comp.prompt_tokens,
            tokens_out=comp.completion_tokens, calls=comp.calls, seconds=comp.seconds,
            unverified=sum(not f.verified for f in findings), errors=comp.errors, mode=comp.mode,
            transcript=comp.transcript, not_found=not_found, dropped=dropped,
            tokens_estimated=comp.tokens_estimated,
        )
