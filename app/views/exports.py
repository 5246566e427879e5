"""Downloads: memo as DOCX / Markdown (the harness's exporter), findings as XLSX / CSV.

Exports carry findings and memo text only; settings (and so API keys) never
go into them.
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pandas as pd

from core.types import Finding, Memo

from agents import memo as memo_export

DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
COLUMNS = ["id", "category", "severity", "summary", "quote", "document", "section", "page", "char_start", "char_end",
           "verified", "reviewer_status", "reviewer_note", "agent", "confidence"]


def findings_frame(findings: list[Finding]) -> pd.DataFrame:
    rows = [
        {
            "id": f.id, "category": f.category, "severity": f.severity.value, "summary": f.summary,
            "quote": f.quote, "document": f.citation.document_path,
            "section": f.citation.section, "page": f.citation.page,
            "char_start": f.citation.char_start, "char_end": f.citation.char_end, "verified": f.verified,
            "reviewer_status": f.reviewer_status.value, "reviewer_note": f.reviewer_note, "agent": f.agent,
            "confidence": f.confidence,
        }
        for f in findings
    ]
    return pd.DataFrame(rows, columns=COLUMNS)


def findings_csv(findings: list[Finding]) -> bytes:
    return findings_frame(findings).to_csv(index=False).encode("utf-8")


def findings_xlsx(findings: list[Finding]) -> bytes:
    buf = io.BytesIO()
    with pd.ExcelWriter(buf, engine="openpyxl") as xw:
        findings_frame(findings).to_excel(xw, sheet_name="Findings", index=False)
        sheet = xw.sheets["Findings"]
        sheet.freeze_panes = "A2"
        for col, width in zip("ABCDEFG", (18, 22, 10, 60, 80, 40, 6)):
            sheet.column_dimensions[col].width = width
    return buf.getvalue()


def memo_markdown(memo: Memo, findings: list[Finding]) -> bytes:
    return memo_export.to_markdown(memo, {f.id: f for f in findings}).encode("utf-8")


def memo_docx(memo: Memo, findings: list[Finding]) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        path = memo_export.to_docx(memo, Path(tmp) / "memo.docx", {f.id: f for f in findings})
        return path.read_bytes()
