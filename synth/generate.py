"""Benchmark rooms of any size (10 to 5,000+ documents) from a seed.

Contract families are drawn with realistic weights; each agreement gets
two to five clauses from its family's pool (the phrasing drawn from the
bank), governing law and term; a share get near-misses: mutual-consent
wording, capped liability, permitted successor transfers, expired terms and
exclusivity deleted by an amendment. Large rooms are mostly TXT/HTML/DOCX
so that 5,000 documents generate in well under a minute or two.
"""

from __future__ import annotations

import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from synth import bank
from synth.contract import ContractSpec, Plant, build_amendment
from synth.extras import write_customer_list, write_register
from synth.model import Truth
from synth.roomwriter import RoomWriter, custom_plant, letter, plant_text


@dataclass(frozen=True)
class Family:
    name: str  # ContractSpec family
    folder: str
    title: str
    tgt_role: str
    cp_role: str
    weight: float
    pool: tuple[tuple[str, tuple[int, ...]], ...]  # (checklist id, allowed bank variants)


FAMILIES = [
    Family("customer", "Commercial/Customers", "Customer Supply Agreement", "Supplier", "Customer", 0.20,
           (("change_of_control", (0, 1, 2, 3)), ("termination_for_convenience", (0, 1, 2)), ("most_favored_nation", (0, 1)),
            ("cap_on_liability", (0, 1, 2)), ("uncapped_liability", (0, 2)), ("indemnification", (0, 1, 2)),
            ("anti_assignment", (0, 1, 2, 3)), ("confidentiality", (0,)), ("non_solicit", (0,)))),
    Family("services", "Commercial/Customers", "Master Services Agreement", "Provider", "Customer", 0.10,
           (("change_of_control", (0, 2)), ("termination_for_convenience", (0, 1)), ("uncapped_liability", (0, 1)),
            ("indemnification", (1, 2)), ("confidentiality", (2,)), ("audit_rights", (2,)), ("non_solicit", (0,)),
            ("cap_on_liability", (0, 1)))),
    Family("supply", "Commercial/Supply", "Supply Agreement", "Buyer", "Supplier", 0.14,
           (("exclusivity", (0,)), ("minimum_commitment", (0, 2)), ("anti_assignment", (0, 1, 2)), ("cap_on_liability", (0, 1)),
            ("indemnification", (2,)), ("insurance", (0,)), ("audit_rights", (1,)), ("change_of_control", (0, 3)))),
    Family("distribution", "Commercial/Distribution", "Distribution Agreement", "Company", "Distributor", 0.07,
           (("exclusivity", (1, 2)), ("non_compete", (0, 1)), ("rofr_rofo", (0,)), ("minimum_commitment", (1,)),
            ("anti_assignment", (1,)), ("termination_for_convenience", (2,)))),
    Family("licence", "IP/Licences", "Software Licence Agreement", "Licensee", "Licensor", 0.07,
           (("license_grant", (0, 2)), ("change_of_control", (0, 2)), ("anti_assignment", (0, 3)), ("audit_rights", (0, 2)),
            ("ip_ownership", (1,)), ("rofr_rofo", (1,)))),
    Family("licence", "IP/Licences", "Technology Licence Agreement", "Licensor", "Licensee", 0.05,
           (("license_grant", (1,)), ("source_code_escrow", (0, 1)), ("most_favored_nation", (2,)), ("ip_ownership", (1,)))),
    Family("development", "IP/Development", "Development Agreement", "Developer", "Client", 0.04,
           (("ip_ownership", (0,)), ("non_solicit", (0,)), ("confidentiality", (0,)))),
    Family("lease", "Real Estate", "Lease", "Tenant", "Landlord", 0.06,
           (("lease_assignment", (0, 1, 2)), ("insurance", (1,)), ("rofr_rofo", (2,)))),
    Family("employment", "Employment", "Employment Agreement", "Company", "Executive", 0.12,
           (("key_employee", (0, 1, 2)), ("non_compete", (2,)), ("non_solicit", (2,)))),
    Family("nda", "Corporate/NDAs", "Confidentiality Agreement", "Discloser", "Recipient", 0.10,
           (("confidentiality", (1,)), ("non_solicit", (1,)))),
    Family("loan", "Finance", "Credit Agreement", "Borrower", "Administrative Agent", 0.03,
           (("debt_change_of_control", (0, 1, 2)), ("insurance", (0,)))),
]

_A = "Alder Birch Cedar Dorn Elm Fallow Garnet Heron Iris Juniper Kingfisher Larch Marlow Nettle Oriel Pike Quarry Rook Sable Thistle Umber Vale Wren Yarrow Ashby Bramley Colby Denholm Eskdale Farrow Glenmore Hadley Ingram Jessop Kirkby Lowther Melrose Norwood Oakham Penrith".split()
_B = "Analytics Components Controls Devices Dynamics Engineering Foods Health Holdings Industries Instruments Logistics Materials Networks Partners Polymers Retail Robotics Semiconductors Services Software Systems Technologies Trading Ventures Works Labs Capital Energy Medical".split()
_E = ["Inc.", "LLC", "Ltd", "GmbH", "plc", "Corporation", "B.V.", "Pte. Ltd.", "S.A.", "AB"]
_FIRST = "Alex Jordan Sam Taylor Morgan Casey Riley Jamie Avery Quinn Harper Rowan Emerson Elliot Noor Mateo Lena Tomas Ines Priya".split()
_LAST = "Abernathy Baptiste Chen Duarte Eriksen Fairbanks Gallo Hoshino Ibarra Jansen Kowalski Lindqvist Mbeki Novak Osei Petrov Quintero Rahman Sato Varga".split()
_LAWS = [("the State of New York", "New York, New York", "New York"), ("the State of Delaware", "Wilmington, Delaware", "Wilmington"),
         ("England and Wales", "London", "London"), ("the State of California", "San Francisco, California", "San Francisco"),
         ("Singapore", "Singapore", "Singapore"), ("the Commonwealth of Massachusetts", "Boston, Massachusetts", "Boston")]
_MONTHS = "January February March April May June July August September October November December".split()


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")


def _formats(n_docs: int) -> tuple[list[str], list[float]]:
    if n_docs <= 200:
        return ["pdf", "docx", "html", "txt", "md"], [0.25, 0.25, 0.15, 0.25, 0.10]
    return ["pdf", "docx", "html", "txt", "md"], [0.02, 0.04, 0.26, 0.53, 0.15]


class _Names:
    def __init__(self, rng: random.Random):
        self.rng, self.used = rng, set()

    def company(self) -> str:
        for _ in range(1000):
            n = f"{self.rng.choice(_A)} {self.rng.choice(_B)} {self.rng.choice(_E)}"
            if n not in self.used:
                self.used.add(n)
                return n
        n = f"{self.rng.choice(_A)} {self.rng.choice(_B)} {len(self.used)} {self.rng.choice(_E)}"
        self.used.add(n)
        return n

    def person(self) -> str:
        return f"{self.rng.choice(_FIRST)} {self.rng.choice(_LAST)}"


def _date(rng: random.Random, y0: int, y1: int) -> str:
    return f"{rng.randint(1, 28)} {rng.choice(_MONTHS)} {rng.randint(y0, y1)}"


class _Gen:
    def __init__(self, out: Path, n_docs: int, seed: int, room: str):
        self.rng = random.Random(seed)
        self.names = _Names(self.rng)
        self.target = self.names.company().replace(" LLC", ", Inc.").replace(" Ltd", ", Inc.")
        self.w = RoomWriter(out, room=room, seed=seed, target=self.target)
        self.n_docs, self.paths = n_docs, set()
        self.fmts, self.fweights = _formats(n_docs)

    def path(self, folder: str, stem: str, fmt: str) -> str:
        sub = folder if self.n_docs <= 300 else f"{folder}/{stem[0].upper()}"  # big rooms nest one level deeper
        p, k = f"{sub}/{_slug(stem)}.{fmt}", 2
        while p in self.paths:
            p, k = f"{sub}/{_slug(stem)}_{k}.{fmt}", k + 1
        self.paths.add(p)
        return p

    def contract(self) -> int:
        """One agreement (and an amendment when it supersedes something); returns files written."""
        r = self.rng
        fam = r.choices(FAMILIES, weights=[f.weight for f in FAMILIES])[0]
        cp = self.names.person() if fam.name == "employment" else self.names.company()
        law, forum, city = r.choice(_LAWS)
        picks = r.sample(fam.pool, k=min(len(fam.pool), r.randint(2, 5)))
        plants = [Plant(cat, variant=r.choice(vs)) for cat, vs in picks]
        for p in plants:
            p.key = bank.POSITIVE[p.category][p.variant].severity.value in ("high", "medium")
        expired = superseded = False
        roll = r.random()
        if roll < 0.06 and fam.name in ("customer", "supply", "services"):
            expired = True
            plants = [Plant("change_of_control", kind="expired", variant=r.choice((0, 1, 2)))] + \
                     [p for p in plants if p.category != "change_of_control"]
            for p in plants:
                p.key = False  # nothing in an expired agreement is a live red flag
        elif roll < 0.10 and fam.name in ("supply", "distribution"):
            superseded = True
            plants = [p for p in plants if p.category != "exclusivity"] + [Plant("exclusivity", kind="superseded", variant=0 if fam.name == "supply" else 1)]
        elif roll < 0.22:
            nm = {"lease": "successor_permitted", "customer": r.choice(("capped_liability", "coc_notice_only")),
                  "services": "capped_liability", "licence": "coc_notice_only"}.get(fam.name, "mutual_consent")
            if nm == "coc_notice_only":
                plants = [p for p in plants if p.category != "change_of_control"]
            if nm == "successor_permitted":
                plants = [p for p in plants if p.category != "lease_assignment"]
            if nm == "capped_liability":
                plants = [p for p in plants if p.category not in ("uncapped_liability", "cap_on_liability")]
            plants.append(Plant(nm, kind="near_miss"))
        plants.append(Plant("term_renewal", variant=1 if expired else r.choice((0, 2))))
        plants.append(Plant("governing_law", variant=r.choice((0, 1, 2))))
        long_doc = r.random() < 0.01
        fmt = "pdf" if long_doc and self.n_docs <= 300 else ("txt" if long_doc else r.choices(self.fmts, self.fweights)[0])
        title = fam.title if fam.name != "employment" else "Executive Employment Agreement"
        date = _date(r, 2015, 2019) if expired else _date(r, 2019, 2025)
        spec = ContractSpec(family=fam.name, title=title, tgt_role=fam.tgt_role, cp_role=fam.cp_role, tgt_name=self.target,
                            cp_name=cp, date=date, law=law, forum=forum, city=city, plants=plants,
                            cp_desc=f"an individual residing in {city}" if fam.name == "employment" else "a company incorporated in England and Wales",
                            schedule_items=r.randint(60, 170) if long_doc else 0,
                            ctx=self._ctx(fam, expired))
        path = self.path(fam.folder, f"{title} {cp}", fmt)
        amend_path = self.path(fam.folder, f"Amendment No 1 {title} {cp}", r.choice(("docx", "txt"))) if superseded else ""
        printed = self.w.contract(path, spec, expired=expired, superseded_by=amend_path)
        if expired and r.random() < 0.5:
            return 1 + self.expiry_letter(cp, title, date)
        if not superseded:
            return 1
        excl = next(p for p in printed if p.category == "exclusivity")
        aspec = ContractSpec(family=fam.name, title=f"Amendment No. 1 to {title}", tgt_role=fam.tgt_role, cp_role=fam.cp_role,
                             tgt_name=self.target, cp_name=cp, date=_date(r, 2024, 2025))
        doc, planted = build_amendment(aspec, title, date, [
            ("Deletion", custom_plant("exclusivity", "info", f"Section {excl.number} ({excl.section}) of the Agreement is deleted in its entirety with effect from the date of this Amendment.", "Removes the exclusivity; the original clause is superseded.")),
            ("Prices", "The prices in the Agreement are increased by three percent (3%) with effect from the first day of the next Contract Year."),
        ])
        self.w.write(amend_path, doc, "amendment", planted, cp)
        return 2

    def _ctx(self, fam: Family, expired: bool) -> dict:
        r, ctx = self.rng, {"years": "two (2)"} if expired else {}
        if fam.name == "employment":
            ctx.update(position=r.choice(["Chief Financial Officer", "Chief Operating Officer", "General Counsel",
                                          "Vice President, Engineering", "Vice President, Sales", "Director of Manufacturing"]),
                       reports_to="Chief Executive Officer", salary=f"USD {r.randrange(180_000, 420_000, 5_000):,}",
                       bonus_pct=r.choice(["thirty (30)", "forty (40)", "fifty (50)"]))
        return ctx

    def expiry_letter(self, cp: str, title: str, date: str) -> int:
        """The counterparty confirms the agreement ran out: context a careful reviewer uses."""
        r = self.rng
        doc, _ = letter(f"{cp} - expiry of {title}", [cp.upper(), _date(r, 2021, 2023), f"{self.target}, Attn: Contracts Manager",
                                                       "Dear Contracts Manager,"], [
            f"We write to confirm that the {title} between {cp} and {self.target} dated {date} has expired in accordance "
            "with its terms and has not been renewed or extended.",
            "Any further orders will be placed under individual purchase orders on your standard terms of sale."],
            ["Yours sincerely,", self.names.person()])
        path = self.path("Correspondence", f"Expiry confirmation {cp}", r.choice(("html", "txt")))
        self.w.write(path, doc, "letter", [], cp)
        return 1

    def claim_letter(self) -> int:
        r = self.rng
        firm = f"{r.choice(_LAST)} {r.choice(_LAST)} LLP"
        claimant = self.names.company()
        ctx = {"tgt": self.target, "cp": "our client", "tgt_name": self.target,
               "amount": f"USD {r.randrange(100_000, 9_000_000, 50_000):,}", "forum": r.choice(_LAWS)[1]}
        v = r.sample((0, 1, 2), k=r.randint(1, 2))
        doc, planted = letter(f"Letter of Claim - {claimant}", [firm.upper(), _date(r, 2024, 2025), f"The General Counsel, {self.target}", "Dear Sir or Madam,"], [
            f"We act for {claimant} (\"our client\") in connection with its dealings with {self.target}.",
            *[plant_text("litigation", i, ctx, key=True) for i in v],
            "All of our client's rights and remedies are reserved."], ["Yours faithfully,", firm])
        fmt = r.choice(("eml", "txt", "docx")) if self.n_docs <= 300 else r.choice(("eml", "txt"))
        path = self.path("Correspondence", f"Letter of Claim {claimant}", fmt)
        if fmt != "eml":
            self.w.write(path, doc, "letter", planted, claimant)
            return 1
        att_name = f"Letter_of_Claim_{_slug(claimant)}.{'docx' if self.n_docs <= 300 else 'txt'}"
        body, _ = letter("cover e-mail", ["Dear Sir or Madam,"], [f"Please find attached our letter on behalf of {claimant}."], ["Regards,", firm])
        self.w.email(path, sender=f"{firm} <claims@{_slug(firm).lower()}.example>", to=f"legal@{_slug(self.target).lower()}.example",
                     date="Mon, 6 Oct 2025 10:00:00 +0000", subject=f"Letter of claim - {claimant}", body_doc=body,
                     body_planted=[], attachment=(att_name, doc, planted))
        return 1

    def run(self) -> Truth:
        n_bad_corrupt = max(1, self.n_docs // 100)
        n_bad_empty = max(1, self.n_docs // 150) if self.n_docs >= 20 else 0
        n_letters = max(1, self.n_docs // 50)
        budget = self.n_docs - n_bad_corrupt - n_bad_empty - n_letters - (2 if self.n_docs >= 20 else 0)
        for _ in range(n_letters):
            self.claim_letter()
        written = 0
        while written < budget:
            written += self.contract()
        for i in range(n_bad_corrupt):
            self.w.bad(self.path("Finance", f"Scanned board pack {i + 1}", "pdf"), "corrupt")
        for i in range(n_bad_empty):
            self.w.bad(self.path("Commercial/Customers", f"Draft side letter {i + 1}", "docx"), "empty")
        if self.n_docs >= 20:
            customers = sorted({d.counterparty for d in self.w.truth.documents if d.family in ("customer", "services")})
            write_customer_list(self.w, "Commercial/Customer_List.csv", customers[:40] or None)
            write_register(self.w, "Corporate/Contracts_Register.xlsx")
        self.w.truth.documents.sort(key=lambda d: d.path)
        return self.w.truth


def generate_room(out: Path, n_docs: int, seed: int, room: str = "") -> Truth:
    """Write a room of about `n_docs` files into `out` (emptied first); returns its truth."""
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    return _Gen(out, n_docs, seed, room or out.name).run()
