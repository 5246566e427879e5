"""Score agents.facts.extract_facts against CUAD's `-Answer` columns, on two halves of the contracts.

    python -m agents.evaluation.facts [--labels DIR/labels.csv] [--json OUT] [--errors FIELD]

The contracts are split once, before any rule was written, by the sha256 of their `Filename`: an even last
byte puts a contract in the development half, an odd one in the held-out half. Rules were tuned on the
development half's errors only; `--errors` prints mistakes of the development half and refuses the other.

Scoring (per contract, then the mean over contracts of each half):
- Parties: bag-of-tokens F1 between the predicted parties (each name, defined term and alias) and CUAD's
  `Parties-Answer` (names with their defined terms). Tokens: text NFKD-folded to ASCII, lower-cased, split
  into runs of [a-z0-9]; the articles a/an/the are dropped (SQuAD's answer normalisation), and so are the
  words "party", "parties", "individually", "collectively"; CUAD's answers carry the clause "(each a
  "Party" and together the "Parties")" for some contracts and not others, so it is removed from the answer
  first (`without_party_clause`). Both empty: 1. `parties_strict` scores the raw answer (reported, no
  target).
- Agreement / Effective / Expiration Date: exact match of ISO dates. CUAD's M/D/YYYY becomes ISO; an
  answer listing several dates ("09/01/2006; 8/31/2007") is matched by any of them; an answer with a blank
  ("09/[]/2019", the contract leaves the day unfilled) and "perpetual" both mean no complete date is stated
  and are scored as "not found". Not found counts both ways: a date where CUAD has none is wrong, and so
  is none where CUAD has one; none where CUAD has none is right.
- Governing Law: jurisdiction match. Both sides lower-cased, accents folded, "State/Commonwealth of" and
  articles dropped; CUAD's answer is split at ';' and ',' ("England; Wales", "Ontario, Canada") and the
  prediction matches when its tokens equal, contain or are contained in one part's tokens. Not found
  counts both ways as for dates.
- Document Name (reported, no target): token F1 of the title against `Document Name-Answer`.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import re
import sys
import time
import unicodedata
from collections import Counter
from datetime import date
from pathlib import Path

from agents.evaluation import labels as _labels  # noqa: F401  (raises csv's field limit for long cells)
from agents.facts import AgreementFacts, extract_facts
from core.settings import REPO_ROOT

DEFAULT_LABELS = REPO_ROOT.parent / "shared" / "datasets" / "cuad-dev" / "labels.csv"
FIELDS = ("parties", "parties_strict", "agreement_date", "effective_date", "expiration_date", "governing_law", "document_name")
TARGETS = {"parties": 0.85, "agreement_date": 0.85, "effective_date": 0.85, "expiration_date": 0.85,
           "governing_law": 0.95}
HALVES = ("dev", "held_out")
_ARTICLES = {"a", "an", "the"}
# Words of the "(each a "Party" and together the "Parties")" clause that CUAD's answers include for some
# contracts and not for others: they name no party, so `parties` leaves them out; `parties_strict` keeps them.
_PARTY_CLAUSE = {"party", "parties", "individually", "collectively"}
# The clause itself: an opener ("individually as a", "each a", "and together with Licensor, the") and the
# quoted "Party" / "Parties" terms.
_CLAUSE_RE = re.compile(r"""(?ix)
    (?:\b(?:individually|each|collectively|together|hereinafter|both|and|or)\b[^"\u201c\u201d()]{0,60}?)?
    ["\u201c]\s*part(?:y|ies)\s*[.,:]?\s*(?:["\u201d]|(?=[\s,)]))
    (?:[^"\u201c\u201d()]{0,60}?["\u201c]\s*parties\s*[.,:]?\s*["\u201d]?)?""")
_QUOTED_TERM = re.compile(r"[\"\u201c][^\"\u201c\u201d]+[\"\u201d]")


def without_party_clause(answer: str) -> str:
    """CUAD's Parties answer less its collective-definition clause: an entry ("; "-separated) that is only
    that clause ("Shipper and Transporter (individually as a "Party" or collectively as the "Parties")")
    goes whole, since the names it repeats are listed already; in an entry that also defines a term of its
    own ('HERTZ GROUP REALTY TRUST, INC. ("Licensee" and together with Licensor, the "Parties")') only the
    clause goes."""
    kept = []
    for entry in answer.split(";"):
        if not _CLAUSE_RE.search(entry):
            kept.append(entry)
            continue
        rest = _CLAUSE_RE.sub(" ", entry)
        if _QUOTED_TERM.search(rest):
            kept.append(rest)
    return ";".join(kept)


def party_f1(pred: str, answer: str) -> float:
    """The `parties` score: token F1 against the answer without its "Party"/"Parties" clause."""
    return token_f1(pred, without_party_clause(answer), _PARTY_CLAUSE)


def half(filename: str) -> str:
    """'dev' or 'held_out', fixed by the file name alone."""
    return "dev" if hashlib.sha256(filename.encode("utf-8")).digest()[-1] % 2 == 0 else "held_out"


def tokens(s: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower()
    return [t for t in re.findall(r"[a-z0-9]+", folded) if t not in _ARTICLES]


def token_f1(pred: str, gold: str, drop: frozenset[str] | set[str] = frozenset()) -> float:
    p = Counter(t for t in tokens(pred) if t not in drop)
    g = Counter(t for t in tokens(gold) if t not in drop)
    if not p and not g:
        return 1.0
    common = sum((p & g).values())
    if not common:
        return 0.0
    precision, recall = common / sum(p.values()), common / sum(g.values())
    return 2 * precision * recall / (precision + recall)


def gold_dates(answer: str) -> set[str]:
    """ISO dates of a CUAD date answer; empty when it states none ('', 'perpetual', a date with a blank)."""
    out = set()
    for part in answer.split(";"):
        m = re.fullmatch(r"\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*", part)
        if m:
            try:
                out.add(date(int(m.group(3)), int(m.group(1)), int(m.group(2))).isoformat())
            except ValueError:
                continue
    return out


def date_match(pred: str | None, answer: str) -> bool:
    gold = gold_dates(answer)
    return pred in gold if gold else pred is None


def _place_tokens(s: str) -> set[str]:
    s = re.sub(r"\b(?:state|commonwealth|province|republic)\s+of\b", " ", s, flags=re.I)
    return set(tokens(s)) - {"of", "laws", "law"}


def law_match(pred: str, answer: str) -> bool:
    parts = [_place_tokens(p) for p in re.split(r"[;,]", answer) if _place_tokens(p)]
    guess = _place_tokens(pred)
    if not parts:
        return not guess
    return bool(guess) and any(guess <= part or part <= guess for part in parts)


def party_string(facts: AgreementFacts) -> str:
    return "; ".join(" ".join([p.name, *([p.role] if p.role else []), *p.aliases]) for p in facts.parties)


def score_one(facts: AgreementFacts, row: dict[str, str]) -> dict[str, float]:
    return {
        "parties": party_f1(party_string(facts), row.get("Parties-Answer", "")),
        "parties_strict": token_f1(party_string(facts), row.get("Parties-Answer", "")),
        "agreement_date": float(date_match(facts.agreement_date, row.get("Agreement Date-Answer", ""))),
        "effective_date": float(date_match(facts.effective_date, row.get("Effective Date-Answer", ""))),
        "expiration_date": float(date_match(facts.expiration, row.get("Expiration Date-Answer", ""))),
        "governing_law": float(law_match(facts.governing_law, row.get("Governing Law-Answer", ""))),
        "document_name": token_f1(facts.title, row.get("Document Name-Answer", "")),
    }


def _predicted(field: str, f: AgreementFacts) -> str:
    return {"parties": party_string(f), "parties_strict": party_string(f), "agreement_date": str(f.agreement_date),
            "effective_date": str(f.effective_date), "expiration_date": f"{f.expiration} ({f.term})",
            "governing_law": f.governing_law, "document_name": f.title}[field]


_GOLD_COLUMN = {"parties": "Parties", "parties_strict": "Parties", "agreement_date": "Agreement Date", "effective_date": "Effective Date",
                "expiration_date": "Expiration Date", "governing_law": "Governing Law", "document_name": "Document Name"}


def evaluate(labels_csv: Path, errors: str | None = None, out=None) -> dict:
    """Scores per field (mean over contracts) for both halves and all; `errors` prints the development half's
    mistakes on that field to `out` (default: stdout)."""
    out = out or sys.stdout
    root = labels_csv.parent
    with labels_csv.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    per: dict[str, dict[str, list[float]]] = {h: {f: [] for f in FIELDS} for h in HALVES}
    cpu: list[float] = []
    for row in rows:
        text = (root / row["txt_path"]).read_text(encoding="utf-8", errors="replace")
        t0 = time.process_time()
        facts = extract_facts(text)
        cpu.append(time.process_time() - t0)
        h = half(row["Filename"])
        scores = score_one(facts, row)
        for f in FIELDS:
            per[h][f].append(scores[f])
        if errors and h == "dev" and scores[errors] < 1.0:
            gold = row.get(_GOLD_COLUMN[errors] + "-Answer", "")
            print(f"[{scores[errors]:.2f}] {row['Filename']}\n   gold: {gold[:300]}\n   pred: "
                  f"{_predicted(errors, facts)[:300]}", file=out)
    result = {}
    for f in FIELDS:
        both = per["dev"][f] + per["held_out"][f]
        result[f] = {"score": _mean(both), "n": len(both),
                     **{h: {"score": _mean(per[h][f]), "n": len(per[h][f])} for h in HALVES}}
    result["_cpu_ms_per_document"] = {"mean": 1000 * _mean(cpu), "max": 1000 * max(cpu, default=0.0), "n": len(cpu)}
    return result


def _mean(xs: list[float]) -> float:
    return round(sum(xs) / len(xs), 4) if xs else 0.0


def table(result: dict, halves: tuple[str, ...] = (*HALVES, "all")) -> str:
    lines = [f"{'field':<17} " + " ".join(f"{h.replace('_', '-'):>12}" for h in halves) + "   target"]
    for f in FIELDS:
        r = {**result[f], "all": result[f]}
        cells = [f"{r[h]['score']:.3f} ({r[h]['n']})" for h in halves]
        target = f">= {TARGETS[f]:.2f}" if f in TARGETS else "-"
        lines.append(f"{f:<17} " + " ".join(f"{c:>12}" for c in cells) + f"   {target}")
    c = result["_cpu_ms_per_document"]
    lines.append(f"extract_facts CPU per document: mean {c['mean']:.1f} ms, max {c['max']:.1f} ms over {c['n']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    ap.add_argument("--json", type=Path, help="write {field: {score, n, dev, held_out}} here")
    ap.add_argument("--errors", choices=FIELDS, help="print the development half's mistakes on one field")
    ap.add_argument("--half", choices=("dev", "all"), default="all",
                    help="dev: print the development half only (while rules are being written)")
    args = ap.parse_args(argv)
    if not args.labels.exists():
        print(f"no labels at {args.labels}", file=sys.stderr)
        return 2
    result = evaluate(args.labels, errors=args.errors)
    print(table(result, ("dev",) if args.half == "dev" else (*HALVES, "all")))
    if args.json and args.half == "all":
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
