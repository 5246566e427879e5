"""Responders for devtools.fakeopenai that derive their answer from the request itself.

They read the prompts the way a model would (the DATA blocks of
agents/prompts/subagent.md, the observation block of root.md), so a run of
any size is simulated without scripting each call; the regexes below are the
prompt format, and break loudly (no findings, no tool call) if it changes.
"""

from __future__ import annotations

import json
import re

from core.text import sentence_spans
from devtools.fakeopenai import Reply, text, tool_calls

DATA_BLOCK_RE = re.compile(
    r"<<<DATA chunk_id=(?P<cid>\S+) page=(?P<page>\d+) nonce=(?P<nonce>\w+)>>>\n(?P<text>.*?)\n<<<END DATA nonce=(?P=nonce)>>>",
    re.S,
)


def _summary(category: str, sentence: str) -> str:
    """What a model's summary does: names the item and restates the clause in its own words (a few of them)."""
    return f"Contains a {category.replace('_', ' ')} clause: {' '.join(sentence.split()[:10])}."


class ScriptedReviewer:
    """Sub-agent double: quotes the first sentence of each data block that contains a category keyword.

    Categories are read from the request's JSON schema when there is one (so
    it answers only for the items it was asked about), else from `keywords`.
    Without response_format it wraps the JSON in prose, as chatty local
    models do, to exercise the text fallback.
    """

    def __init__(self, keywords: dict[str, list[str]], severity: str = "medium"):
        self.keywords = {k: [w.lower() for w in v] for k, v in keywords.items()}
        self.severity = severity

    def __call__(self, body: dict) -> Reply:
        user = "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")
        cats = list(self.keywords)
        schema = (body.get("response_format") or {}).get("json_schema", {}).get("schema")
        if schema:
            enum = schema["properties"]["findings"]["items"]["properties"]["category"].get("enum")
            cats = [c for c in cats if enum is None or c in enum]
        findings = []
        for m in DATA_BLOCK_RE.finditer(user):
            chunk = m.group("text")
            for cat in cats:
                for s, e in sentence_spans(chunk):
                    sent = chunk[s:e]
                    if len(sent.strip()) >= 20 and any(w in sent.lower() for w in self.keywords[cat]):
                        findings.append({"category": cat, "severity": self.severity, "chunk_id": m.group("cid"),
                                         "quote": sent, "summary": _summary(cat, sent)})
                        break
        out = json.dumps({"findings": findings, "report": f"Reviewed {len(DATA_BLOCK_RE.findall(user))} chunks."})
        return text(out if schema else f"Here is my review.\n```json\n{out}\n```\nDone.")


OBSERVATION_RE = re.compile(r"<<<DATA observation nonce=(?P<nonce>\w+)>>>\n(?P<obs>.*)\n<<<END DATA nonce=(?P=nonce)>>>", re.S)


class ScriptedRoot:
    """Root double: reads the observation in the request and acts by its phase, as the prompt asks.

    review: delegate every listed pending batch, or, when more are pending
    than the observation lists, all of them with delegate(all_pending=true); followup: search each pending
    item (for_category set) and delegate the hits' documents; memo: write each
    stale section citing its findings, then the executive summary; done:
    finish. `steps` counts the decisions it made.
    """

    def __init__(self, search_k: int = 5):
        self.search_k = search_k
        self.steps = 0

    def __call__(self, body: dict) -> Reply:
        self.steps += 1
        user = "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")
        m = OBSERVATION_RE.search(user)
        if m is None:
            return text("I cannot see an observation.")  # no tool call: the policy must reject this
        obs = json.loads(m.group("obs"))
        calls = self.decide(obs)
        if "tools" in body:
            return tool_calls(*calls)
        return text(json.dumps({"tool_calls": [{"name": n, "arguments": a} for n, a in calls]}))

    def decide(self, obs: dict) -> list[tuple[str, dict]]:
        phase = obs.get("phase", "review")
        if phase == "review":
            listed = [d["id"] for r in obs.get("last_results", []) if r.get("name") == "list_documents" and r.get("ok")
                      for d in (r.get("data") or {}).get("documents", []) if d.get("review") == "unreviewed"]
            if listed:
                return [("delegate", {"document_ids": listed, "instructions": "Review for every checklist item."})]
            plan = obs["plan"]
            batches = [b["id"] for b in plan.get("next_batches", [])]
            if plan.get("pending_batches", 0) > len(batches):
                # more pending than the observation lists: all of them in one call, as the prompt says
                return [("delegate", {"all_pending": True, "instructions": "Review for every checklist item."})]
            if batches:
                return [("delegate", {"batches": batches, "instructions": "Review for every checklist item."})]
            retry = obs.get("retryable_documents", [])
            if retry:
                return [("delegate", {"document_ids": retry, "instructions": "Second attempt after a failure."})]
            return [("finish", {"reason": "no batch pending and nothing to retry"})]
        if phase == "followup":
            pending = obs.get("followup_pending", [])
            hits = [r for r in obs.get("last_results", []) if r.get("name") == "search" and r.get("ok")]
            if hits:
                ids = sorted({h["document_id"] for r in hits for h in (r.get("data") or {}).get("hits", [])
                              if isinstance(h, dict) and "document_id" in h})
                if ids:
                    return [("delegate", {"document_ids": ids, "categories": pending,
                                          "instructions": "Second look for: " + ", ".join(pending)})]
            return [("search", {"query": c.replace("_", " "), "k": self.search_k, "for_category": c})
                    for c in pending] or [("finish", {"reason": "follow-up done"})]
        if phase == "memo":
            calls = [("write_memo_section", {"category": c["category"], "finding_ids": [f["id"] for f in c["findings"]]})
                     for c in obs.get("categories", []) if c.get("memo_stale")]
            top = [f["id"] for c in obs.get("categories", []) for f in c.get("findings", []) if f["severity"] == "high"]
            summary = f"{len(top)} high-severity findings; see the sections below."
            return calls + [("write_memo_section", {"category": "executive_summary", "text": summary,
                                                    "finding_ids": top[:10]})]
        return [("finish", {"reason": f"coverage {obs['coverage'].get('documents_reviewed')} documents reviewed"})]


