"""Synthetic rooms for harness tests and the benchmark: plain-text contracts with planted clauses.

Cheap to ingest (text files, hash embeddings), uniform in size so every
sub-agent call costs the same, and every clause carries a keyword the
scripted reviewer (devtools.fakeopenai.ScriptedReviewer) looks for, so the
simulated run produces real, verifiable findings for every checklist item.
"""

from __future__ import annotations

import random
from pathlib import Path

# checklist item id -> (clause template, keyword the scripted reviewer matches)
CLAUSES: dict[str, tuple[str, str]] = {
    "change_of_control": ("Upon a change of control of {p}, {q} may terminate this Agreement on written notice.", "upon a change of control"),
    "anti_assignment": ("{p} shall not assign this Agreement without the prior written consent of {q}.", "assign this agreement"),
    "termination_for_convenience": ("{q} may terminate this Agreement for convenience upon thirty days' notice.", "for convenience"),
    "exclusivity": ("{q} shall be the exclusive distributor of the Products in the Territory.", "exclusive distributor"),
    "non_compete": ("{p} shall not compete with {q} in the Territory during the Term and for two years after.", "shall not compete"),
    "non_solicit": ("Neither party shall solicit or hire the employees of the other party during the Term.", "solicit or hire"),
    "most_favored_nation": ("{p} shall offer {q} prices no less favourable than those offered to any third party.", "no less favourable"),
    "rofr_rofo": ("{q} shall have a right of first refusal on any sale of the business of {p}.", "right of first refusal"),
    "minimum_commitment": ("{q} shall purchase a minimum of 1,000 units in each contract year.", "purchase a minimum"),
    "cap_on_liability": ("The total liability of each party shall not exceed the fees paid in the prior twelve months.", "shall not exceed the fees"),
    "uncapped_liability": ("Nothing in this Agreement limits liability for fraud, gross negligence or wilful misconduct.", "gross negligence"),
    "indemnification": ("{p} shall indemnify and hold harmless {q} against all third-party claims.", "indemnify and hold harmless"),
    "ip_ownership": ("All intellectual property created under this Agreement shall be owned by {q}.", "shall be owned by"),
    "license_grant": ("{p} grants {q} a licence to use the Software for its internal business purposes.", "licence to use"),
    "source_code_escrow": ("{p} shall deposit the source code of the Software with an escrow agent.", "escrow agent"),
    "audit_rights": ("{q} may audit the books and records of {p} once in each calendar year.", "audit the books"),
    "insurance": ("{p} shall maintain commercial general liability insurance of at least USD 5,000,000.", "liability insurance"),
    "governing_law": ("This Agreement is governed by the laws of the State of Delaware.", "governed by the laws"),
    "confidentiality": ("Each party shall keep the confidential information of the other party secret.", "confidential information"),
    "term_renewal": ("This Agreement renews automatically for successive one-year terms unless either party objects.", "renews automatically"),
    "lease_assignment": ("The tenant may not assign the lease without the landlord's prior consent.", "assign the lease"),
    "debt_change_of_control": ("A sale of the Borrower shall constitute an event of default under the Facility.", "event of default"),
    "key_employee": ("The Executive is entitled to twelve months' severance on termination without cause.", "severance"),
    "litigation": ("There is no pending litigation against the Company except as listed in Schedule 3.", "pending litigation"),
}
KEYWORDS: dict[str, list[str]] = {k: [kw] for k, (_, kw) in CLAUSES.items()}

FILLER = [
    "Payment. Invoices are payable within thirty days of receipt by wire transfer to the account stated on the invoice.",
    "Notices. Notices must be in writing and delivered by hand, courier or registered mail to the addresses above.",
    "Delivery. The Products are delivered to the premises of the buyer, and title passes on delivery.",
    "Warranty. The seller warrants that the Products conform to the specifications for a period of twelve months.",
    "Force majeure. Neither party is liable for delay caused by events beyond its reasonable control.",
    "Entire agreement. This Agreement is the entire agreement of the parties on its subject matter.",
    "Severability. If a provision is held invalid, the remaining provisions continue in full force.",
    "Counterparts. This Agreement may be signed in counterparts, each of which is an original.",
    "Taxes. Prices exclude value added tax, which the buyer pays at the applicable rate.",
    "Records. Each party keeps complete and accurate records of its performance under this Agreement.",
]
FOLDERS = ["Commercial/Supply", "Commercial/Distribution", "IP", "Employment", "Real Estate", "Finance"]
PARTIES = ["Acme Corp.", "Widget Ltd.", "Northwind Traders", "Globex Inc.", "Initech LLC", "Umbrella plc"]


def contract_text(i: int, rng: random.Random, plants: int = 3) -> str:
    p, q = rng.sample(PARTIES, 2)
    cats = rng.sample(sorted(CLAUSES), plants)
    body = [CLAUSES[c][0].format(p=p, q=q) for c in cats]
    body += rng.sample(FILLER, 7)
    rng.shuffle(body)
    sections = [f"{n + 1}. {s}" for n, s in enumerate(body)]
    head = f"AGREEMENT No. {i:05d}\n\nThis Agreement is made between {p} and {q} (the parties)."
    return head + "\n\n" + "\n\n".join(sections) + "\n\nSigned for and on behalf of the parties.\n"


def room_texts(n_docs: int, seed: int = 1) -> dict[str, str]:
    """`n_docs` contracts of near-equal size spread over a few folders: {room path: text}, deterministic."""
    rng = random.Random(seed)
    return {f"{FOLDERS[i % len(FOLDERS)]}/agreement_{i:05d}.txt": contract_text(i, rng) for i in range(n_docs)}


def write_room(folder: Path, n_docs: int, seed: int = 1) -> list[Path]:
    """The same contracts as files, for the real ingest pipeline."""
    out = []
    for rel, text in room_texts(n_docs, seed).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        out.append(path)
    return out
