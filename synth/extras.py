"""The non-contract files of a data room: registers, lists, a deck, minutes.

They carry no planted clauses (their truth is only that they exist and parse),
but they give ingest its spreadsheet, CSV and slide formats and give the
reviewer realistic material that must not produce findings.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import TYPE_CHECKING

from synth.doc import Doc
from synth.writers import freeze_zip, write_md

if TYPE_CHECKING:  # roomwriter imports nothing from here, but keep the runtime graph a tree
    from synth.roomwriter import RoomWriter

FIRST = "Alex Jordan Sam Taylor Morgan Casey Riley Jamie Avery Quinn Harper Rowan Emerson Elliot Kai Noor Mateo Lena Tomas Ines".split()
LAST = "Abernathy Baptiste Chen Duarte Eriksen Fairbanks Gallo Hoshino Ibarra Jansen Kowalski Lindqvist Mbeki Novak Osei Petrov Quintero Rahman Sato Varga".split()
DEPTS = ["Engineering", "Manufacturing", "Sales", "Finance", "Quality", "Operations", "Product", "Legal"]


def _csv_bytes(rows: list[list[str]]) -> bytes:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue().encode("utf-8")


def write_census(w: "RoomWriter", path: str, n: int = 48) -> None:
    rng = w.rng(path)
    rows = [["Employee ID", "Name", "Department", "Title", "Location", "Start date", "Base salary (USD)", "Full-time"]]
    for i in range(n):
        dept = rng.choice(DEPTS)
        rows.append([f"E{1001 + i}", f"{rng.choice(FIRST)} {rng.choice(LAST)}", dept,
                     rng.choice(["Engineer", "Senior Engineer", "Manager", "Analyst", "Technician", "Director"]),
                     rng.choice(["Cambridge, MA", "Nashua, NH", "Remote"]),
                     f"{rng.randint(2014, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                     str(rng.randrange(62_000, 240_000, 500)), rng.choice(["Y", "Y", "Y", "N"])])
    w.raw(path, _csv_bytes(rows), "census", "Employee census")


def write_customer_list(w: "RoomWriter", path: str, names: list[str] | None = None) -> None:
    rng = w.rng(path)
    names = names or ["Halberd Logistics Corporation", "Orinoco Health Systems, Inc.", "Pelham Retail Group plc",
             "Meridian Automation LLC", "Sundara Trading Pte. Ltd.", "Brookfield Water Authority", "Calloway Farms Cooperative",
             "Dunmore Rail Services", "Eastgate Cold Storage", "Galloway HVAC Controls"]
    rows = [["Customer", "Segment", "FY2025 revenue (USD)", "Share of revenue (%)", "Contract on file"]]
    revenues = [rng.randrange(400_000, 9_000_000, 1000) for _ in names]
    revenues[0] = max(revenues) + 2_500_000  # Halberd is the key customer
    total = sum(revenues)
    for name, rev in zip(names, revenues):
        rows.append([name, rng.choice(["Logistics", "Healthcare", "Retail", "Industrial", "Utilities"]), str(rev),
                     f"{100 * rev / total:.1f}", "Yes" if any(d.counterparty == name for d in w.truth.documents) else "Purchase orders only"])
    w.raw(path, _csv_bytes(rows), "customer_list", "Customer list FY2025")


def write_register(w: "RoomWriter", path: str) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Contracts"
    ws.append(["File", "Title", "Counterparty", "Family", "Status"])
    for d in sorted(w.truth.documents, key=lambda d: d.path):
        if d.family in ("bad", "census", "customer_list", "email", "letter"):
            continue
        ws.append([d.path, d.title, d.counterparty, d.family, "Expired" if d.expired else "In force"])
    for col, width in zip("ABCDE", (70, 40, 36, 14, 10)):
        ws.column_dimensions[col].width = width
    wb.properties.creator = "Kestrel Ridge Legal"
    wb.properties.created = wb.properties.modified = datetime(2025, 1, 1)
    buf = io.BytesIO()
    wb.save(buf)
    w.raw(path, freeze_zip(buf.getvalue()), "register", "Contracts register")


def write_deck(w: "RoomWriter", path: str) -> None:
    from pptx import Presentation

    slides = [
        ("Kestrel Ridge Technologies", ["Management presentation", "Project Falcon - October 2025"]),
        ("Company at a glance", ["Founded 2014, headquartered in Cambridge, Massachusetts", "Precision pressure, temperature and flow sensor modules",
                                 "FY2025 revenue USD 38.2m, gross margin 47%", "148 employees across Cambridge and Nashua"]),
        ("Customers", ["Top customer Halberd Logistics: 24% of FY2025 revenue", "Healthcare, logistics, retail cold chain and industrial automation",
                       "Distribution partner in South-East Asia since 2022"]),
        ("Technology", ["Embedded firmware built on a licensed real-time operating system", "Calibration algorithms developed in-house",
                        "Two pending patent families; exclusive licence from Harrowgate University"]),
        ("Operations", ["Sensing elements sourced from Corvane Components (Germany)", "Final assembly and calibration in Nashua, New Hampshire",
                        "ISO 9001 and ISO 13485 certified"]),
        ("Financing", ["USD 30m term loan from Ashgrove Bank, maturing 2029", "No other funded debt"]),
    ]
    prs = Presentation()
    prs.core_properties.author = ""
    prs.core_properties.created = prs.core_properties.modified = datetime(2025, 1, 1)
    for i, (title, bullets) in enumerate(slides):
        s = prs.slides.add_slide(prs.slide_layouts[0 if i == 0 else 1])
        s.shapes.title.text = title
        body = s.placeholders[1].text_frame
        body.text = bullets[0]
        for b in bullets[1:]:
            body.add_paragraph().text = b
    buf = io.BytesIO()
    prs.save(buf)
    w.raw(path, freeze_zip(buf.getvalue()), "presentation", "Management presentation 2025")


def write_minutes(w: "RoomWriter", path: str) -> None:
    doc = Doc("Minutes of a Meeting of the Board of Directors")
    doc.add("title", "Kestrel Ridge Technologies, Inc. - Minutes of a Meeting of the Board of Directors")
    doc.add("para", "Held at 200 Fresh Pond Parkway, Cambridge, Massachusetts on 18 September 2025 at 9:00 a.m.")
    doc.add("para", "Present: Dana Whitcombe (Chair), Rafael Okonjo, Helen Strand, Omar Castillo. In attendance: Priya Natarajan (items 3 and 4), Sofia Lind (Secretary).")
    items = [
        ("1. Quorum", "The Chair noted that a quorum was present and declared the meeting open."),
        ("2. Minutes", "The minutes of the meeting held on 19 June 2025 were approved as a correct record."),
        ("3. Trading update", "Ms Natarajan presented the trading update for the eight months to August 2025. Revenue was 4% ahead of budget, driven by stronger volumes in the HX pressure module family."),
        ("4. Project Falcon", "The Chair updated the Board on discussions with potential investors. The Board authorised management to make the data room available to bidders who had signed a confidentiality agreement."),
        ("5. Capital expenditure", "The Board approved capital expenditure of USD 1.2m for a second calibration line at the Nashua facility."),
        ("6. Any other business", "There being no other business, the meeting closed at 11:15 a.m."),
    ]
    for h, t in items:
        doc.add("heading", h)
        doc.add("para", t)
    doc.add("signature", "Chair\nDana Whitcombe")
    (w.out / path).parent.mkdir(parents=True, exist_ok=True)
    write_md(doc, w.out / path)
    w.document(path, "minutes", "md", doc.title)
