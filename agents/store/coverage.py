"""Coverage and per-document review status, derived from the run's leaf assignments."""

from __future__ import annotations

import json

from agents.store.models import Coverage, DocumentReview, FolderCoverage


class CoverageMixin:
    """Needs `_q` and `run_documents` from ReviewStore."""

    def _doc_review_states(self, run_id: str) -> dict[str, str]:
        """Per document: running / done / failed, from its leaf assignments of the review passes.

        A retry pass re-reviews a whole document, so the latest pass that touched it decides."""
        passes: dict[str, dict[str, set[str]]] = {}
        for r in self._q("SELECT document_ids, status, pass FROM assignments WHERE run_id=? AND leaf=1"
                         " AND pass IN ('review', 'retry')", (run_id,)):
            for d in json.loads(r["document_ids"]):
                passes.setdefault(d, {}).setdefault(r["pass"], set()).add(r["status"])
        out: dict[str, str] = {}
        for d, by_pass in passes.items():
            statuses = by_pass.get("retry") or by_pass["review"]
            if statuses & {"running", "pending"}:
                out[d] = "running"
            elif statuses == {"done"}:
                out[d] = "done"
            else:
                out[d] = "failed"
        return out

    def document_status(self, run_id: str) -> list[DocumentReview]:
        review = self._doc_review_states(run_id)
        counts = {r["document_id"]: (r["n"], r["h"]) for r in self._q(
            "SELECT document_id, COUNT(*) AS n, SUM(CASE WHEN severity='high' THEN 1 ELSE 0 END) AS h FROM findings WHERE run_id=? AND verified=1"
            " GROUP BY document_id", (run_id,))}
        out = []
        for r in self.run_documents(run_id):
            n, h = counts.get(r["document_id"], (0, 0))
            state = review.get(r["document_id"])
            if r["status"] != "parsed":
                status = "skipped" if r["status"] == "skipped" else "failed"
            elif state == "done":
                status = "flagged" if h else "reviewed"
            elif state == "running":
                status = "in_review"
            elif state == "failed":
                status = "failed"
            else:
                status = "unreviewed"
            reason = r["reason"] or ""
            if state == "failed" and not reason:
                reason = "review failed"
            out.append(DocumentReview(document_id=r["document_id"], path=r["path"], folder=r["folder"],
                                      doc_type=r["doc_type"] or "", pages=r["pages"] or 0, tokens=r["tokens"] or 0,
                                      status=status, reason=reason, findings=n, high=h or 0))
        return out

    def coverage(self, run_id: str) -> Coverage:
        review = self._doc_review_states(run_id)
        cov = Coverage()
        folders: dict[str, FolderCoverage] = {}
        for r in self.run_documents(run_id):
            fc = folders.setdefault(r["folder"], FolderCoverage(folder=r["folder"]))
            if r["status"] != "parsed":
                # skipped (duplicates, junk, out-of-scope types, refused links) is not a failure
                if r["status"] == "failed":
                    cov.documents_failed_parse += 1
                    fc.failed_parse += 1
                else:
                    cov.documents_skipped += 1
                continue
            tokens = r["tokens"] or 0
            cov.documents_total += 1
            cov.tokens_total += tokens
            fc.documents_total += 1
            fc.tokens_total += tokens
            state = review.get(r["document_id"])
            if state == "done":
                cov.documents_reviewed += 1
                cov.tokens_reviewed += tokens
                fc.documents_reviewed += 1
                fc.tokens_reviewed += tokens
            elif state == "running":
                cov.documents_in_review += 1
            elif state == "failed":
                cov.documents_failed_review += 1
        cov.by_folder = [folders[k] for k in sorted(folders)]
        return cov
