"""Pages of a memo DOCX as LibreOffice lays them out: total, and the body before the appendix.

    python scripts/memo_pages.py workspace/runs/<run>/memo.docx

Needs LibreOffice, which the project does not install (Debian: apt-get install libreoffice-writer-nogui); the
tests bound the memo by its text instead (tests/agents/test_memo_shape.py).
Prints JSON {"pages": N, "body_pages": M}; body_pages counts the pages before the one the findings schedule
starts on.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

APPENDIX = "Appendix: findings schedule"


def memo_pages(docx: Path) -> dict[str, int]:
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTTextContainer

    soffice = shutil.which("soffice")
    if soffice is None:
        raise FileNotFoundError("LibreOffice (soffice) is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        # its own profile folder: a user's LibreOffice settings or a running instance must not interfere
        env = {**os.environ, "HOME": tmp}
        subprocess.run([soffice, "--headless", "--convert-to", "pdf", "--outdir", tmp, str(docx)], env=env,
                       check=True, capture_output=True, timeout=300)
        pages = list(extract_pages(str(Path(tmp) / (docx.stem + ".pdf"))))
        body = len(pages)
        for i, page in enumerate(pages):
            if APPENDIX in "".join(e.get_text() for e in page if isinstance(e, LTTextContainer)):
                body = i
                break
    return {"pages": len(pages), "body_pages": body}


if __name__ == "__main__":
    print(json.dumps(memo_pages(Path(sys.argv[1]))))
