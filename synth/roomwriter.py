"""Write files into a room folder and keep its ground truth in step.

Both the curated sample room and the benchmark generator go through this
class, so every planted sentence the truth file names was printed by the
same code that wrote the file.
"""

from __future__ import annotations

import random
from pathlib import Path

from synth import bank
from synth.contract import ContractSpec, Planted, build_contract
from synth.doc import Doc
from synth.model import ROOM_AS_OF, BadFile, Truth, TruthClause, TruthDocument
from synth.writers import docx_bytes, render_html, write_doc, write_eml

# A syntactically broken PDF: header and a few objects, then garbage where the xref should be.
CORRUPT_PDF = (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
               b"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R "
               b"/Contents 4 0 R >>\nstream\n\x8b\x13\xfe\x00\x9a\x7f garbled scan data \x00\x00\xff" * 3)


class RoomWriter:
    def __init__(self, out: Path, room: str, seed: int, target: str):
        self.out = Path(out)
        self.seed = seed
        self.truth = Truth(room=room, seed=seed, target=target, as_of=ROOM_AS_OF)
        self._n = 0

    def rng(self, path: str) -> random.Random:
        # One stream per file: adding a file to a plan does not change the others.
        return random.Random(f"{self.seed}/{path}")

    def _clause(self, path: str, pl: Planted, attachment: str = "") -> TruthClause:
        self._n += 1
        p = pl.plant
        return TruthClause(
            id=f"c{self._n:04d}", path=path, attachment=attachment, category=pl.category, severity=pl.severity,
            sentences=[pl.text], variant=pl.variant, key=p.key and p.kind == "positive",
            must_not_flag=p.kind != "positive", trap_categories=pl.trap_categories, also_accept=pl.also_accept,
            note=pl.note,
        )

    def add_clauses(self, path: str, planted: list[Planted], attachment: str = "") -> list[TruthClause]:
        out = [self._clause(path, pl, attachment) for pl in planted]
        self.truth.clauses.extend(out)
        return out

    def document(self, path: str, family: str, fmt: str, title: str, **kw) -> TruthDocument:
        d = TruthDocument(path=path, family=family, fmt=fmt, title=title, **kw)
        self.truth.documents.append(d)
        return d

    def contract(self, path: str, spec: ContractSpec, **doc_kw) -> list[Planted]:
        fmt = path.rsplit(".", 1)[1]
        doc, planted = build_contract(spec, self.rng(path))
        write_doc(doc, self.out / path, fmt)
        self.document(path, spec.family, fmt, spec.title, counterparty=spec.cp_name, **doc_kw)
        self.add_clauses(path, planted)
        return planted

    def write(self, path: str, doc: Doc, family: str, planted: list[Planted], counterparty: str = "") -> None:
        fmt = path.rsplit(".", 1)[1]
        write_doc(doc, self.out / path, fmt)
        self.document(path, family, fmt, doc.title, counterparty=counterparty)
        self.add_clauses(path, planted)

    def email(self, path: str, *, sender: str, to: str, date: str, subject: str, body_doc: Doc,
              body_planted: list[Planted], attachment: tuple[str, Doc, list[Planted]] | None = None) -> None:
        att = None
        if attachment:
            name, adoc, _ = attachment
            data = docx_bytes(adoc) if name.endswith(".docx") else adoc.plain_text().encode("utf-8") + b"\n"
            att = (name, data)
        write_eml(self.out / path, sender=sender, to=to, date=date, subject=subject,
                  body=body_doc.plain_text() + "\n", attachment=att)
        self.document(path, "email", "eml", subject)
        self.add_clauses(path, body_planted)
        if attachment:
            self.add_clauses(path, attachment[2], attachment=attachment[0])

    def raw(self, path: str, data: bytes, family: str, title: str) -> None:
        (self.out / path).parent.mkdir(parents=True, exist_ok=True)
        (self.out / path).write_bytes(data)
        self.document(path, family, path.rsplit(".", 1)[1], title)

    def bad(self, path: str, kind: str) -> None:
        data = {"corrupt": CORRUPT_PDF, "empty": b""}[kind]
        self.raw(path, data, "bad", Path(path).stem)
        self.truth.bad_files.append(BadFile(path=path, reason_kind=kind))

    def html_letter(self, path: str, doc: Doc, planted: list[Planted], counterparty: str = "") -> None:
        (self.out / path).parent.mkdir(parents=True, exist_ok=True)
        (self.out / path).write_text(render_html(doc), encoding="utf-8")
        self.document(path, "letter", "html", doc.title, counterparty=counterparty)
        self.add_clauses(path, planted)


def letter(title: str, head: list[str], paragraphs: list[str | Planted], sign: list[str]) -> tuple[Doc, list[Planted]]:
    """A letter: letterhead lines, body paragraphs (some planted), sign-off."""
    doc = Doc(title, footer=title)
    for line in head:
        doc.add("para", line)
    planted = []
    for p in paragraphs:
        if isinstance(p, str):
            doc.add("para", p)
        else:
            doc.add("para", p.text)
            planted.append(p)
    doc.add("signature", "\n".join(sign))
    return doc, planted


def plant_text(category: str, variant: int, ctx: dict, key: bool = False, kind: str = "positive") -> Planted:
    """A bank clause rendered outside a contract (letters, e-mails, minutes)."""
    from synth.contract import Plant

    c = bank.POSITIVE[category][variant]
    trap = [category] if kind != "positive" else []
    return Planted(Plant(category, kind, variant, key), category, c.severity.value, c.text.format(**ctx),
                   f"{category}/{variant}", trap, list(c.also_accept), c.note, c.heading)


def custom_plant(category: str, severity: str, text: str, note: str, key: bool = False) -> Planted:
    """A clause written for one document (amendments), recorded like a bank clause."""
    from synth.contract import Plant

    return Planted(Plant(category, "positive", None, key), category, severity, text, f"{category}/custom", [], [], note, "")
