"""The root's tools, executed by the harness: they answer with ids, counts and bounded snippets."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from core.types import MemoSection

from agents import memo
from agents.runtime.context import HarnessContext
from agents.root.instructions import default_instructions
from agents.memo.markup import prose
from agents.memo.writer import draft_item, memo_state_entry, write_section
from agents.runtime.observe import doc_review_state
from agents.runtime.plan import plan_batches, record, split_document
from agents.policy import ToolCall, ToolResult
from agents.state import AssignmentRecord, RunState
from agents.tools import (
    PEEK_MAX_CHARS,
    DelegateArgs,
    ListDocumentsArgs,
    PeekArgs,
    SearchArgs,
    WriteMemoSectionArgs,
    parse_arguments,
)


@dataclass
class StepEffects:
    """What one root step changes, collected across its tool calls."""

    results: list[ToolResult] = field(default_factory=list)
    assignments: dict[str, AssignmentRecord] = field(default_factory=dict)
    dispatch: list[AssignmentRecord] = field(default_factory=list)
    doc_passes: dict[str, str] = field(default_factory=dict)
    delegate_calls: dict[str, dict] = field(default_factory=dict)  # call id -> {"roots": [...], "refused": n}
    searched: dict[str, str] = field(default_factory=dict)
    memo: dict[str, dict] = field(default_factory=dict)
    finished: bool = False
    finish_reason: str = ""
    finish_call: str | None = None  # id of a finish() call (or "" for a step with no calls), judged at step end
    refusals: int = 0  # finish() calls refused so far in this run
    refused_now: bool = False


MAX_FINISH_REFUSALS = 2  # then a root that insists is let go; the scope section says what is missing


def unfinished_work(hc: HarnessContext, state: RunState, fx: StepEffects, followup_pending: list[str]) -> str:
    """What finish() would leave undone after this step's calls: undelegated documents (while the budget
    lasts) and items with no finding that were never searched for. Empty when the run may end."""
    from agents.runtime.observe import budget

    if budget(hc, state).exhausted:
        return ""
    passes = {**state.get("doc_passes", {}), **fx.doc_passes}
    left = sum(1 for d in hc.room.parsed() if d.id not in passes)
    total = len(hc.room.parsed()) or 1
    unsearched = [c for c in followup_pending if c not in fx.searched]
    parts = []
    if left and (total - left) / total < hc.settings.harness.coverage_target:
        parts.append(f"{left} document(s) never delegated")
    if unsearched:
        parts.append(f"{len(unsearched)} item(s) with no finding not searched for ({', '.join(unsearched[:5])})")
    return "; ".join(parts)


def judge_finish(hc: HarnessContext, state: RunState, fx: StepEffects, followup_pending: list[str]) -> None:
    """Let the run end, or answer the finish() call with what is still missing."""
    if fx.finish_call is None:
        return
    missing = unfinished_work(hc, state, fx, followup_pending)
    if missing and fx.refusals < MAX_FINISH_REFUSALS:
        fx.refused_now = True
        fx.results.append(ToolResult(call_id=fx.finish_call or "none", name="finish", ok=False, error=(
            f"finish refused: {missing}. Delegate the pending batches and, for every item in followup_pending, "
            "delegate(query=..., categories=[item]) first.")))
        return
    fx.finished = True
    fx.results.append(ToolResult(call_id=fx.finish_call or "none", name="finish", data={"finished": True}))


def run_tool(hc: HarnessContext, state: RunState, call: ToolCall, fx: StepEffects) -> None:
    try:
        args = parse_arguments(call.name, call.arguments)
    except KeyError:
        fx.results.append(ToolResult(call_id=call.id, name=call.name, ok=False, error=f"unknown tool {call.name!r}"))
        return
    except ValidationError as e:
        fx.results.append(ToolResult(call_id=call.id, name=call.name, ok=False, error=f"invalid arguments: {e}"[:600]))
        return
    handler = _HANDLERS.get(call.name)
    if handler is None:  # finish: judged once the step's other calls have run (they may complete the work)
        fx.finish_call, fx.finish_reason = call.id, getattr(args, "reason", "") or "finish() called"
        return
    try:
        data = handler(hc, state, args, call, fx)
    except (KeyError, ValueError) as e:
        fx.results.append(ToolResult(call_id=call.id, name=call.name, ok=False, error=str(e)[:600]))
        return
    if data is not None:
        fx.results.append(ToolResult(call_id=call.id, name=call.name, data=data))


def _list_documents(hc: HarnessContext, state: RunState, a: ListDocumentsArgs, call: ToolCall, fx: StepEffects):
    review = doc_review_state(state)
    prefix = a.folder.strip("/")
    rows = []
    for d in hc.room.documents():
        if prefix and not (d.folder == prefix or d.folder.startswith(prefix + "/")):
            continue
        r = review.get(d.id, "unreviewed")
        r = {"done": "reviewed", "running": "in_review"}.get(r, r)
        f = a.filters
        if (f.doc_type and d.doc_type != f.doc_type) or (f.status and d.status.value != f.status) or (f.review and r != f.review):
            continue
        rows.append({"id": d.id, "path": d.path, "type": d.doc_type, "pages": d.pages, "tokens": d.tokens,
                     "status": d.status.value, "review": r, **({"reason": d.reason} if d.reason else {})})
    return {"total": len(rows), "offset": a.offset, "documents": rows[a.offset:a.offset + a.limit]}


def _search(hc: HarnessContext, state: RunState, a: SearchArgs, call: ToolCall, fx: StepEffects):
    if a.for_category is not None and hc.item(a.for_category) is None:
        raise ValueError(f"unknown checklist item {a.for_category!r}")
    hits = hc.room.search(a.query, a.k, a.filters.model_dump(exclude_none=True))
    if a.for_category:
        fx.searched[a.for_category] = a.query
    return {"query": a.query, "for_category": a.for_category, "hits": hits}


def _peek(hc: HarnessContext, state: RunState, a: PeekArgs, call: ToolCall, fx: StepEffects):
    if hc.room.document(a.document_id) is None:
        raise ValueError(f"unknown document {a.document_id!r}")
    text = hc.room.text(a.document_id)
    end = min(max(a.start, a.end), a.start + PEEK_MAX_CHARS, len(text))
    return {"document_id": a.document_id, "start": a.start, "end": end, "chars": len(text), "text": text[a.start:end]}


_CITE = re.compile(r"\[F:([^\]\s]+)\]")
MIN_SECTION_CHARS = 40


def unusable_section_text(text: str, finding_ids: list[str], known: set[str], item_findings: int) -> str:
    """Why a model's section text cannot stand in for the drafted one ('' when it can)."""
    body = text.strip()
    if len(body) < MIN_SECTION_CHARS:
        return f"the text is shorter than {MIN_SECTION_CHARS} characters"
    if body[0] in "{[":
        return "the text is JSON, not memo prose"
    cited = set(finding_ids) | set(_CITE.findall(body))
    bad = sorted(cited - known)
    if bad:
        return f"it cites unknown or unverified finding ids {bad[:5]}: cite verified findings only"
    if item_findings and not cited:
        return f"it cites none of the item's {item_findings} verified finding(s)"
    return ""


def _write_memo(hc: HarnessContext, state: RunState, a: WriteMemoSectionArgs, call: ToolCall, fx: StepEffects):
    key = a.category
    known = set(state.get("findings", {}))
    if key == memo.EXEC_KEY:
        if not a.text:
            raise ValueError("executive_summary needs text (the harness keeps its own summary otherwise)")
        why = unusable_section_text(a.text, a.finding_ids, known, 0)
        if why:
            hc.emit(state["run_id"], "memo_fallback", {"key": key, "why": why})
            raise ValueError(f"executive summary not written: {why}; the harness's summary stays")
        section = MemoSection(key=key, title="Executive summary", text=prose(a.text), finding_ids=a.finding_ids)
    elif hc.item(key) is None:
        raise ValueError(f"unknown memo section {key!r}: use a checklist item id or 'executive_summary'")
    elif a.text:
        n = sum(1 for c in state.get("findings", {}).values() if c == key)
        why = unusable_section_text(a.text, a.finding_ids, known, n)
        if why:
            # a model that cannot write the section leaves the deterministic one: drafted from the findings
            _write_memo(hc, state, a.model_copy(update={"text": "", "finding_ids": []}), call, fx)
            hc.emit(state["run_id"], "memo_fallback", {"key": key, "why": why})
            raise ValueError(f"section {key} not written: {why}; the drafted section stays")
        section = MemoSection(key=key, title=hc.item(key).title, text=prose(a.text), finding_ids=a.finding_ids)  # type: ignore[union-attr]
    else:
        section = draft_item(hc, {**state, "searched": {**state.get("searched", {}), **fx.searched}}, key)
    stored, changed = write_section(hc, state["run_id"], section)
    fx.memo[key] = memo_state_entry(hc, state, key, stored, drafted=not a.text)
    return {"key": key, "version": stored.version, "changed": changed, "proposal": stored.proposal,
            "cited": len(stored.finding_ids)}


def _delegate(hc: HarnessContext, state: RunState, a: DelegateArgs, call: ToolCall, fx: StepEffects):
    from agents.runtime.observe import budget

    if budget(hc, state).exhausted:
        raise ValueError("run budget exhausted: no more delegation; write the memo and finish()")
    plan = {b["id"]: b for b in state.get("plan", {}).get("batches", [])}
    if a.all_pending or a.next_pending:
        if a.all_pending and a.next_pending:
            raise ValueError("give all_pending or next_pending, not both")
        if a.batches or a.document_ids or a.chunk_ids or a.chunk_range is not None or a.query is not None:
            raise ValueError("all_pending/next_pending cannot be combined with batches, document_ids, chunk_ids, "
                             "chunk_range or query")
        # the same definition as the observation's pending_batches; what this step already delegated is not pending
        passes = {**state.get("doc_passes", {}), **fx.doc_passes}
        pending = [b for b, rec in plan.items() if any(d not in passes for d in rec["document_ids"])]
        a = a.model_copy(update={"all_pending": False, "next_pending": 0,
                                 "batches": pending if a.all_pending else pending[:a.next_pending]})
        if not a.batches:
            raise ValueError("no planned batch is pending")
    unknown = [b for b in a.batches if b not in plan]
    if unknown:
        raise ValueError(f"unknown batch ids {unknown[:5]}")
    for d in a.document_ids:
        if hc.room.document(d) is None or hc.room.document(d).status.value != "parsed":  # type: ignore[union-attr]
            raise ValueError(f"document {d!r} is unknown or was not parsed")
    if a.chunk_range is not None and len(a.document_ids) != 1:
        raise ValueError("chunk_range needs exactly one document id")
    bad_cats = [c for c in a.categories if hc.item(c) is None]
    if bad_cats:
        raise ValueError(f"unknown checklist items {bad_cats}")
    if a.query is not None:
        if a.chunk_ids or a.chunk_range is not None or a.document_ids or a.batches or not a.categories:
            raise ValueError("query needs categories and cannot be combined with batches, document_ids, chunk_ids or chunk_range")
        hits = hc.room.search(a.query, a.k)
        fx.searched.update({c: a.query for c in a.categories})
        if not hits:
            return {"assignments": 0, "findings": 0, "note": "the search found nothing to re-review"}
        a = a.model_copy(update={"chunk_ids": [h["chunk_id"] for h in hits], "query": None})
    if a.chunk_ids and (a.chunk_range is not None or a.document_ids or a.batches):
        raise ValueError("chunk_ids cannot be combined with batches, document_ids or chunk_range")
    if a.chunk_ids:
        return _delegate_chunks(hc, state, a, call, fx)
    doc_ids = [d for b in a.batches for d in plan[b]["document_ids"]] + list(a.document_ids)
    groups: dict[str, list[str]] = {}
    refused: list[str] = []
    review = doc_review_state(state)
    passes = {**state.get("doc_passes", {}), **fx.doc_passes}
    for d in dict.fromkeys(doc_ids):
        prev = passes.get(d)
        if prev is None:
            groups.setdefault("review", []).append(d)
        elif a.categories or a.chunk_range:
            groups.setdefault("followup", []).append(d)
        elif prev == "review" and review.get(d) == "failed":
            groups.setdefault("retry", []).append(d)
        else:
            refused.append(d)
    roots = _build(hc, state, a, groups, fx)
    if not roots:
        raise ValueError(f"nothing to delegate: {len(refused)} document(s) already reviewed or in review"
                         " (give categories or a chunk_range for a second look)")
    fx.delegate_calls[call.id] = {"roots": [r["id"] for r in roots], "refused": len(refused)}
    return None  # answered by integrate once the sub-agents are back


def _delegate_chunks(hc: HarnessContext, state: RunState, a: DelegateArgs, call: ToolCall, fx: StepEffects):
    """Second look at specific chunks: one sub-agent per contiguous run of chunks in a document."""
    by_doc: dict[str, set[int]] = {}
    for cid in dict.fromkeys(a.chunk_ids):
        c = hc.room.chunk(cid)
        if c is None:
            raise ValueError(f"unknown chunk {cid!r}")
        by_doc.setdefault(c.document_id, set()).add(c.index)
    passes = {**state.get("doc_passes", {}), **fx.doc_passes}
    roots: list[AssignmentRecord] = []
    for doc_id, idx in by_doc.items():
        pass_ = "followup" if doc_id in passes else "review"
        runs: list[list[int]] = []
        for i in sorted(idx):
            if runs and i == runs[-1][1]:
                runs[-1][1] = i + 1
            else:
                runs.append([i, i + 1])
        for rng in runs:
            sub = a.model_copy(update={"chunk_ids": [], "document_ids": [doc_id], "chunk_range": rng})
            roots += _build(hc, state, sub, {pass_: [doc_id]}, fx)
    if not roots:
        raise ValueError("nothing to delegate: these chunks were already delegated with the same categories")
    fx.delegate_calls[call.id] = {"roots": [r["id"] for r in roots], "refused": 0}
    return None


def _build(hc: HarnessContext, state: RunState, a: DelegateArgs, groups: dict[str, list[str]],
           fx: StepEffects) -> list[AssignmentRecord]:
    h = hc.settings.harness
    existing = {**state.get("assignments", {}), **fx.assignments}
    n_root = sum(1 for x in existing.values() if x["parent_id"] is None)
    roots: list[AssignmentRecord] = []
    for pass_, docs in groups.items():
        documents = [hc.room.document(d) for d in docs]
        if a.chunk_range is not None:
            units = [{"document_ids": docs, "tokens": sum(c.tokens for c in hc.room.chunks(docs[0])[a.chunk_range[0]:a.chunk_range[1]])}]
        else:
            units = plan_batches([d for d in documents if d is not None], h)
        items = [i for i in hc.enabled_items() if not a.categories or i.id in a.categories]
        for u in units:
            instructions = a.instructions or default_instructions(
                pass_, [d for d in documents if d is not None and d.id in u["document_ids"]], u["tokens"], items,
                error=_last_error(state, u["document_ids"]))
            rec = record(agent=f"sub-{n_root + len(roots) + 1}", pass_=pass_, document_ids=u["document_ids"],
                         chunk_range=list(a.chunk_range) if a.chunk_range else None, categories=a.categories,
                         instructions=instructions, depth=0, parent_id=None, tokens=u["tokens"], leaf=True)
            if rec["id"] in existing:
                continue  # the same unit was already delegated (stable ids): do not run it twice
            tree = [rec]
            if len(rec["document_ids"]) == 1:
                tree += split_document(rec, list(hc.room.chunks(rec["document_ids"][0])), h)
            for r in tree:
                fx.assignments[r["id"]] = r
                hc.store.put_assignment(state["run_id"], _as_assignment(r), r["parent_id"], r["pass_"], r["leaf"])
                if r["leaf"]:
                    fx.dispatch.append(r)
            roots.append(rec)
            if pass_ != "followup":  # a second look does not change whether a document counts as reviewed
                fx.doc_passes.update({d: pass_ for d in rec["document_ids"]})
    return roots


def _last_error(state: RunState, document_ids: list[str]) -> str:
    errors = [a["error"] for a in state.get("assignments", {}).values()
              if a["status"] == "failed" and a["leaf"] and set(document_ids) & set(a["document_ids"])]
    return errors[-1] if errors else ""


def _as_assignment(r: AssignmentRecord):
    from core.types import Assignment

    return Assignment(id=r["id"], agent=r["agent"], document_ids=r["document_ids"],
                      chunk_range=tuple(r["chunk_range"]) if r["chunk_range"] else None,
                      instructions=r["instructions"], categories=r["categories"], depth=r["depth"])


_HANDLERS: dict[str, Any] = {
    "list_documents": _list_documents,
    "search": _search,
    "peek": _peek,
    "write_memo_section": _write_memo,
    "delegate": _delegate,
}
