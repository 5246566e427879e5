"""How the LLM path's claim check (agents.verify) would read the offline reviewer's findings.

Why it exists: the check is applied only to summaries a model wrote; this measures what it would do to
the offline reviewer's label-like summaries (the reason it is not applied to them), and whether the
absence detector ever fires on a real finding. Contracts are split into two fixed halves by the CRC-32
of the file name, so a figure read on one half can be checked on the other.

    python -m devtools.claim_check --half dev --n 15
    python -m devtools.claim_check --half held --n 15
"""

from __future__ import annotations

import argparse
import hashlib
import zlib
from pathlib import Path

from agents.offline import OfflineReviewer
from agents.verify import claims_absence, quote_backs_claim
from core.checklist import load_checklist
from core.settings import Settings
from core.text import count_tokens
from core.types import Document
from devtools.textroom import paragraphs_to_chunks

CUAD_TXT = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "cuad-dev" / "txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=["dev", "held"], default="dev")
    ap.add_argument("--n", type=int, default=15, help="contracts of that half, in file-name order")
    ap.add_argument("--txt", type=Path, default=CUAD_TXT)
    a = ap.parse_args()
    files = [f for f in sorted(a.txt.glob("*.txt")) if (zlib.crc32(f.name.encode()) % 2 == 0) == (a.half == "dev")]
    items = load_checklist(Settings().checklist_path)
    reviewer = OfflineReviewer()
    total = no_word = absent = 0
    for f in files[:a.n]:
        text = f.read_text(errors="replace")
        doc = Document(room="x", path=f.name, doc_type="txt", sha256=hashlib.sha256(text.encode()).hexdigest(),
                       pages=1, tokens=count_tokens(text), chars=len(text))
        for fd in reviewer.review(doc, paragraphs_to_chunks(doc.id, text), items):
            total += 1
            no_word += not quote_backs_claim(fd.quote, fd.summary)
            absent += claims_absence(fd.summary)
    print(f"{a.half}: {min(a.n, len(files))} contracts, {total} offline findings, {no_word} share no content word "
          f"with their summary, {absent} summaries read as absence claims")


if __name__ == "__main__":
    main()
