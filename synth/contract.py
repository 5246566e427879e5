"""Assemble an agreement from neutral articles and planted clauses.

A `ContractSpec` says who the parties are, which family the agreement
belongs to and what is planted where; `build_contract` returns the `Doc`
and, for every planted clause, the exact text it printed (the ground truth).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from synth import bank
from synth.boilerplate import ARTICLES, COC_DEFINITION, GENERIC_DEFINITIONS, SCHEDULE_PARAGRAPHS
from synth.doc import Doc, money, period

# Families -> operative articles, in print order (plant articles slot in by ORDER).
FAMILY_ARTICLES: dict[str, list[str]] = {
    "supply": ["supply", "orders", "delivery", "price", "quality", "warranty", "compliance", "liability", "term", "general"],
    "customer": ["supply", "orders", "price", "quality", "warranty", "governance", "compliance", "liability", "term", "general"],
    "services": ["services", "governance", "price", "warranty", "compliance", "liability", "term", "general"],
    "distribution": ["orders", "price", "delivery", "warranty", "compliance", "term", "general"],
    "licence": ["ip", "term", "general"],
    "development": ["services", "ip", "price", "term", "general"],
    "lease": ["premises", "term", "general"],
    "employment": ["employment", "term", "general"],
    "nda": ["nda", "general"],
    "loan": ["loan", "loan_reps", "loan_covenants", "default", "general"],
}

# Where each checklist item's clause is printed: (article key, article heading if created).
PLACE: dict[str, tuple[str, str]] = {
    "change_of_control": ("term", "Term and Termination"),
    "termination_for_convenience": ("term", "Term and Termination"),
    "term_renewal": ("term", "Term and Termination"),
    "anti_assignment": ("general", "General"),
    "governing_law": ("general", "General"),
    "exclusivity": ("commercial", "Commercial Terms"),
    "non_compete": ("commercial", "Commercial Terms"),
    "most_favored_nation": ("commercial", "Commercial Terms"),
    "rofr_rofo": ("commercial", "Commercial Terms"),
    "minimum_commitment": ("commercial", "Commercial Terms"),
    "non_solicit": ("covenants", "Restrictive Covenants"),
    "cap_on_liability": ("liability", "Limitations"),
    "uncapped_liability": ("liability", "Limitations"),
    "indemnification": ("indemnity", "Indemnities"),
    "ip_ownership": ("ip", "Intellectual Property"),
    "license_grant": ("ip", "Intellectual Property"),
    "source_code_escrow": ("ip", "Intellectual Property"),
    "audit_rights": ("records", "Records, Audit and Insurance"),
    "insurance": ("records", "Records, Audit and Insurance"),
    "confidentiality": ("confidentiality", "Confidentiality"),
    "lease_assignment": ("premises", "The Premises"),
    "debt_change_of_control": ("default", "Events of Default"),
    "key_employee": ("severance", "Termination of Employment"),
}
ORDER = ["definitions", "nda", "supply", "services", "premises", "loan", "loan_reps", "loan_covenants", "employment", "orders", "delivery", "price",
         "commercial", "quality", "warranty", "governance", "compliance", "ip", "records", "indemnity", "liability", "confidentiality",
         "covenants", "default", "severance", "term", "general", "schedule_terms"]


@dataclass
class Plant:
    """What to plant: a checklist clause, or a near-miss, in a given state."""

    category: str  # checklist id, or a near-miss group name when kind == 'near_miss'
    kind: str = "positive"  # positive | near_miss | expired | superseded
    variant: int | None = None  # index in the bank; None = drawn from the rng
    key: bool = False
    place: str = ""  # override the article key, e.g. 'schedule_terms' to bury it late in a long agreement


@dataclass
class Planted:
    """A clause as printed: the ground truth for one Plant."""

    plant: Plant
    category: str
    severity: str
    text: str
    variant: str
    trap_categories: list[str]
    also_accept: list[str]
    note: str
    section: str
    number: str = ""  # section number once printed, e.g. '8.3'; amendments refer to it


@dataclass
class ContractSpec:
    family: str
    title: str
    tgt_role: str
    cp_role: str
    tgt_name: str
    cp_name: str
    date: str
    tgt_desc: str = "a Delaware corporation"
    cp_desc: str = "a company incorporated in England and Wales"
    law: str = "the State of New York"
    forum: str = "New York, New York"
    city: str = "New York"
    territory: str = "the United States of America and Canada"
    recitals: list[str] = field(default_factory=list)
    plants: list[Plant] = field(default_factory=list)
    schedule_items: int = 0  # product specifications in Schedule 1; makes a long agreement
    ctx: dict = field(default_factory=dict)  # extra placeholders


def _fmt(template: str, ctx: dict) -> str:
    return template.format(**ctx)


def _context(spec: ContractSpec, rng: random.Random) -> dict:
    buyer_first = spec.family in ("supply", "development")
    ctx = {
        "tgt": spec.tgt_role, "cp": spec.cp_role, "tgt_name": spec.tgt_name, "cp_name": spec.cp_name,
        "law": spec.law, "forum": spec.forum, "city": spec.city, "territory": spec.territory,
        "notice": period(rng.choice([30, 60, 90, 120, 180])),
        "amount": money(rng.choice([250_000, 500_000, 750_000, 1_000_000, 2_500_000, 5_000_000])),
        "years": rng.choice(["three (3)", "five (5)", "two (2)", "four (4)"]),
        "ref": str(rng.randint(9, 14)) + "." + str(rng.randint(1, 4)),
        "seller": spec.cp_role if buyer_first else spec.tgt_role,
        "buyer": spec.tgt_role if buyer_first else spec.cp_role,
        "position": "Chief Executive Officer", "reports_to": "Board", "salary": "USD 450,000",
        "bonus_pct": "sixty (60)", "royalty": "four (4)",
    }
    ctx.update(spec.ctx)
    return ctx


def _resolve(p: Plant, rng: random.Random, ctx: dict) -> Planted:
    if p.kind == "near_miss":
        options = bank.NEAR_MISSES[p.category]
        i = p.variant if p.variant is not None else rng.randrange(len(options))
        nm = options[i]
        # A pure near-miss is filed under the item it imitates, so every truth row names a checklist id.
        return Planted(p, nm.category or nm.trap_categories[0], nm.severity.value, _fmt(nm.text, ctx), f"{p.category}/{i}",
                       list(nm.trap_categories), [], nm.note, _fmt(nm.heading, ctx))
    options = bank.POSITIVE[p.category]
    i = p.variant if p.variant is not None else rng.randrange(len(options))
    c = options[i]
    trap = [p.category] if p.kind in ("expired", "superseded") else []
    note = c.note
    if p.kind == "expired":
        note = "The agreement has expired, so this is no longer a live issue. " + note
    elif p.kind == "superseded":
        note = "Deleted by a later amendment, so this is no longer a live issue. " + note
    return Planted(p, p.category, c.severity.value, _fmt(c.text, ctx), f"{p.category}/{i}",
                   trap, list(c.also_accept), note, _fmt(c.heading, ctx))


def _party_block(spec: ContractSpec) -> list[str]:
    return [
        f"(1) {spec.cp_name.upper()}, {spec.cp_desc} (\"{spec.cp_role}\"); and",
        f"(2) {spec.tgt_name.upper()}, {spec.tgt_desc} (\"{spec.tgt_role}\").",
    ]


def _schedule_products(doc: Doc, n: int, rng: random.Random, ctx: dict) -> None:
    forms = ["surface-mount", "panel-mount", "DIN-rail", "board-level", "sealed", "ruggedised"]
    kinds = ["pressure transducer", "temperature sensor module", "flow meter head", "signal conditioner",
             "vibration sensor", "humidity probe", "load cell amplifier", "optical encoder", "gas detector cell"]
    apps = ["process automation lines", "cold-chain monitoring", "water treatment plants", "HVAC controllers",
            "rail vehicle subsystems", "agricultural telemetry units", "laboratory instruments", "wind turbine nacelles"]
    tests = ["insulation resistance", "zero-point drift", "full-scale accuracy", "thermal cycling", "burn-in",
             "vibration endurance", "leak rate", "electromagnetic compatibility"]
    packs = ["anti-static trays of 50 units", "tape and reel of 1,000 units", "individual cartons", "foam-lined crates of 20 units"]
    doc.add("heading", "SCHEDULE 1 - PRODUCTS AND SPECIFICATIONS")
    doc.add("para", "This Schedule sets out the Products and their principal Specifications. The full drawings, "
                    "bills of materials and test procedures referred to below are held in the document control system "
                    "of " + ctx["buyer"] + " and form part of the Specifications.")
    rows = [["Part number", "Description", "Unit price (USD)", "Lead time (weeks)"]]
    for k in range(n):
        pn = f"KR-{4100 + k * 7}"
        kind, form, app = rng.choice(kinds), rng.choice(forms), rng.choice(apps)
        t1, t2 = rng.choice([-40, -25, -20, 0]), rng.choice([70, 85, 105, 125])
        t_a, t_b = rng.sample(tests, 2)
        name = f"{form} {kind}"
        doc.add("para", lead=f"1.{k + 1} Part number {pn}.",
                text=f"The {name} (revision {rng.choice('ABCDE')}{rng.randint(1, 9)}) is intended for use in {app}. "
                     f"Operating temperature range: {t1} to {t2} degrees Celsius; supply voltage {rng.choice(['5', '12', '24', '3.3'])} V DC; "
                     f"ingress protection IP{rng.choice([54, 65, 67, 68])}; accuracy {rng.choice(['0.1', '0.25', '0.5', '1.0'])} percent of full scale. "
                     f"Each unit shall be tested for {t_a} and {t_b} before shipment, and the results shall be recorded against the unit's serial number. "
                     f"The acceptable quality level for cosmetic defects is {rng.choice(['0.65', '1.0', '1.5'])} percent. "
                     f"Packaging: {rng.choice(packs)}.")
        rows.append([pn, name, f"{rng.randint(18, 950)}.{rng.randint(0, 99):02d}", str(rng.randint(4, 16))])
    doc.add("pagebreak")
    doc.add("heading", "SCHEDULE 2 - PRICE SCHEDULE")
    doc.add("para", "Prices are stated per unit, exclusive of taxes, for delivery on the terms set out in Section 4, and are fixed for the first Contract Year.")
    for start in range(1, len(rows), 40):
        doc.add("table", rows=[rows[0]] + rows[start:start + 40])
    doc.add("pagebreak")
    doc.add("heading", "SCHEDULE 3 - QUALITY REQUIREMENTS")
    for j, para in enumerate(SCHEDULE_PARAGRAPHS):
        doc.add("para", lead=f"3.{j + 1}", text=_fmt(para, ctx))


def build_contract(spec: ContractSpec, rng: random.Random) -> tuple[Doc, list[Planted]]:
    ctx = _context(spec, rng)
    planted = [_resolve(p, rng, ctx) for p in spec.plants]
    articles: dict[str, tuple[str, list[tuple[str, str, Planted | None]]]] = {}
    for key in FAMILY_ARTICLES[spec.family]:
        heading, subs = ARTICLES[key]
        articles[key] = (heading, [(_fmt(h, ctx), _fmt(t, ctx), None) for h, t in subs])
    for pl in planted:
        key, heading = PLACE.get(pl.category, ("general", "General"))
        if pl.plant.kind == "near_miss" and pl.plant.category == "mutual_consent":
            key, heading = "general", "General"
        key = pl.plant.place or key
        if key == "schedule_terms":
            heading = "SCHEDULE 4 - SUPPLEMENTAL COMMERCIAL TERMS"
        articles.setdefault(key, (heading, []))
        entry = (pl.section, pl.text, pl)
        # Term clauses lead their article; others follow the neutral text.
        subs = articles[key][1]
        subs.insert(0, entry) if pl.category == "term_renewal" else subs.append(entry)

    doc = Doc(spec.title, footer=f"{spec.title} - Confidential")
    doc.add("title", spec.title.upper())
    doc.add("para", f"THIS {spec.title.upper()} (this \"Agreement\") is dated {spec.date} and is made BETWEEN:")
    for line in _party_block(spec):
        doc.add("para", line)
    if spec.recitals:
        doc.add("heading", "RECITALS")
        for i, r in enumerate(spec.recitals):
            doc.add("para", lead=f"({chr(65 + i)})", text=_fmt(r, ctx))
    doc.add("para", "NOW, THEREFORE, in consideration of the mutual covenants set out below, and for other good and valuable "
                    "consideration, the receipt and sufficiency of which are acknowledged, the Parties agree as follows:")
    n = 1
    defs = list(GENERIC_DEFINITIONS)
    if any("Change of Control" in p.text for p in planted):
        defs.insert(1, COC_DEFINITION)
    doc.add("heading", f"{n}. DEFINITIONS AND INTERPRETATION")
    doc.add("para", lead=f"{n}.1", text="In this Agreement the following words and expressions have the following meanings:")
    for term, meaning in defs:
        doc.add("para", f"\"{term}\" {_fmt(meaning, ctx)};")
    doc.add("para", lead=f"{n}.2", text="Headings do not affect the interpretation of this Agreement, and references to Sections and Schedules are to the sections of and schedules to this Agreement.")
    for key in ORDER:
        if key not in articles or key == "schedule_terms":
            continue
        n += 1
        heading, subs = articles[key]
        doc.add("heading", f"{n}. {heading.upper()}")
        for k, (sub_h, text, pl) in enumerate(subs, start=1):
            doc.add("para", lead=f"{n}.{k} {sub_h}.", text=text)
            if pl is not None:
                pl.number = f"{n}.{k}"
    doc.add("para", "IN WITNESS WHEREOF the Parties have caused this Agreement to be executed by their duly authorised representatives on the date first written above.")
    for name in (spec.cp_name, spec.tgt_name):
        doc.add("signature", f"Signed for and on behalf of {name}\nBy: ______________________\nName:\nTitle:\nDate:")
    if spec.schedule_items:
        doc.add("pagebreak")
        _schedule_products(doc, spec.schedule_items, rng, ctx)
    if "schedule_terms" in articles:
        heading, subs = articles["schedule_terms"]
        doc.add("pagebreak")
        doc.add("heading", heading)
        for k, (sub_h, text, pl) in enumerate(subs, start=1):
            doc.add("para", lead=f"4.{k} {sub_h}.", text=text)
            if pl is not None:
                pl.number = f"Schedule 4, paragraph 4.{k}"
    return doc, planted


def build_amendment(spec: ContractSpec, original_title: str, original_date: str,
                    items: list[tuple[str, Planted | str]]) -> tuple[Doc, list[Planted]]:
    """An amendment: recitals naming the original agreement, then numbered changes (some planted)."""
    doc = Doc(spec.title, footer=f"{spec.title} - Confidential")
    doc.add("title", spec.title.upper())
    doc.add("para", f"THIS {spec.title.upper()} (this \"Amendment\") is dated {spec.date} and is made BETWEEN:")
    for line in _party_block(spec):
        doc.add("para", line)
    doc.add("heading", "RECITALS")
    doc.add("para", lead="(A)", text=f"The Parties are parties to the {original_title} dated {original_date} (the \"Agreement\").")
    doc.add("para", lead="(B)", text="The Parties wish to amend the Agreement on the terms of this Amendment.")
    doc.add("heading", "IT IS AGREED as follows:")
    planted = []
    for k, (heading, item) in enumerate(items, start=1):
        text = item if isinstance(item, str) else item.text
        doc.add("para", lead=f"{k}. {heading}.", text=text)
        if not isinstance(item, str):
            item.number = str(k)
            planted.append(item)
    n = len(items) + 1
    doc.add("para", lead=f"{n}. Continuation.", text="Save as amended by this Amendment, the Agreement shall continue in full force and effect, and the Agreement and this Amendment shall be read and construed as one instrument.")
    doc.add("para", "IN WITNESS WHEREOF the Parties have executed this Amendment on the date first written above.")
    for name in (spec.cp_name, spec.tgt_name):
        doc.add("signature", f"Signed for and on behalf of {name}\nBy: ______________________\nName:\nTitle:")
    return doc, planted
