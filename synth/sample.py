"""The bundled sample data room: Kestrel Ridge Technologies, Inc., a fictional sensor maker.

A fixed plan (which agreement, which format, what is planted) so the room
tells a coherent diligence story; the rng only draws notice periods, amounts
and schedule data. `python -m synth sample --out assets/sample_room`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from synth.contract import ContractSpec, Plant, build_amendment
from synth.extras import write_census, write_customer_list, write_deck, write_minutes, write_register
from synth.model import Truth
from synth.roomwriter import RoomWriter, custom_plant, letter, plant_text

TARGET = "Kestrel Ridge Technologies, Inc."
TGT_DESC = "a Delaware corporation whose principal office is at 200 Fresh Pond Parkway, Cambridge, Massachusetts 02138"
DE = ("a company incorporated under the laws of Germany whose registered office is at Industriestrasse 41, 70565 Stuttgart")


def _spec(family: str, title: str, tgt_role: str, cp_role: str, cp_name: str, date: str, plants: list[Plant], **kw) -> ContractSpec:
    return ContractSpec(family=family, title=title, tgt_role=tgt_role, cp_role=cp_role, tgt_name=TARGET,
                        cp_name=cp_name, date=date, tgt_desc=TGT_DESC, plants=plants, **kw)


def _commercial(w: RoomWriter) -> None:
    w.contract("Commercial/Supply/Master_Supply_Agreement_Corvane_Components.pdf", _spec(
        "supply", "Master Supply Agreement", "Buyer", "Supplier", "Corvane Components GmbH", "14 March 2023", [
            Plant("term_renewal", variant=0), Plant("exclusivity", variant=0, key=True),
            Plant("anti_assignment", variant=2, key=True), Plant("cap_on_liability", variant=0),
            Plant("indemnification", variant=2), Plant("insurance", variant=0), Plant("audit_rights", variant=1),
            Plant("confidentiality", variant=0), Plant("mutual_consent", kind="near_miss", variant=1),
            Plant("governing_law", variant=1), Plant("minimum_commitment", variant=0, key=True, place="schedule_terms"),
        ], cp_desc=DE, law="England and Wales", forum="London", city="London", territory="worldwide",
        recitals=["{seller} designs and manufactures precision sensing elements and related electronic components.",
                  "{buyer} wishes to purchase, and {seller} wishes to supply, such components for incorporation into {buyer}'s sensor modules on the terms of this Agreement."],
        schedule_items=170))
    tess = w.contract("Commercial/Supply/Supply_Agreement_Tessaline_Polymers.docx", _spec(
        "supply", "Supply Agreement", "Purchaser", "Supplier", "Tessaline Polymers Ltd", "2 February 2021", [
            Plant("term_renewal", variant=2), Plant("exclusivity", variant=0, kind="superseded"),
            Plant("anti_assignment", variant=1), Plant("cap_on_liability", variant=1), Plant("governing_law", variant=0),
        ], cp_desc="a company incorporated in England and Wales whose registered office is at 14 Wharf Road, Runcorn WA7 1PZ",
        law="England and Wales", forum="England", city="London", territory="the United Kingdom and the European Union"),
        superseded_by="Commercial/Supply/Amendment_No_1_Tessaline_Polymers.docx")
    excl = next(p for p in tess if p.category == "exclusivity")
    spec = _spec("supply", "Amendment No. 1 to Supply Agreement", "Purchaser", "Supplier", "Tessaline Polymers Ltd", "30 June 2023", [],
                 cp_desc="a company incorporated in England and Wales whose registered office is at 14 Wharf Road, Runcorn WA7 1PZ")
    doc, planted = build_amendment(spec, "Supply Agreement", "2 February 2021", [
        ("Deletion of Exclusivity", custom_plant("exclusivity", "info", f"With effect from 1 July 2023, Section {excl.number} ({excl.section}) of the Agreement is deleted in its entirety, and the Purchaser shall be free to purchase products of any kind from any supplier.", "Removes the exclusive purchasing obligation; the original clause is superseded.")),
        ("Prices", "The Price Schedule to the Agreement is replaced by the Price Schedule attached to this Amendment with effect from the date of this Amendment."),
        ("Extension", custom_plant("term_renewal", "info", "The Initial Term of the Agreement is extended so that it expires on 1 February 2027.", "Term extended to 2027.")),
    ])
    w.write("Commercial/Supply/Amendment_No_1_Tessaline_Polymers.docx", doc, "amendment", planted, "Tessaline Polymers Ltd")

    w.contract("Commercial/Customers/Customer_Supply_Agreement_Halberd_Logistics.pdf", _spec(
        "customer", "Customer Supply Agreement", "Supplier", "Customer", "Halberd Logistics Corporation", "9 January 2024", [
            Plant("term_renewal", variant=0), Plant("change_of_control", variant=1, key=True),
            Plant("termination_for_convenience", variant=1, key=True), Plant("most_favored_nation", variant=0, key=True),
            Plant("cap_on_liability", variant=2), Plant("confidentiality", variant=0), Plant("governing_law", variant=2),
        ], cp_desc="a Delaware corporation", law="the State of Delaware", forum="Wilmington, Delaware", city="Boston"))
    w.contract("Commercial/Customers/Master_Services_Agreement_Orinoco_Health.docx", _spec(
        "services", "Master Services Agreement", "Provider", "Customer", "Orinoco Health Systems, Inc.", "1 October 2024", [
            Plant("term_renewal", variant=0), Plant("uncapped_liability", variant=0, key=True),
            Plant("indemnification", variant=1, key=True), Plant("cap_on_liability", variant=0),
            Plant("confidentiality", variant=2), Plant("audit_rights", variant=2), Plant("non_solicit", variant=0),
            Plant("governing_law", variant=0),
        ], cp_desc="a California corporation", law="the State of California", forum="San Francisco County, California", city="San Francisco"))
    w.contract("Commercial/Customers/Customer_Agreement_Pelham_Retail.html", _spec(
        "customer", "Customer Agreement", "Supplier", "Customer", "Pelham Retail Group plc", "17 May 2024", [
            Plant("term_renewal", variant=1), Plant("mutual_consent", kind="near_miss", variant=0),
            Plant("capped_liability", kind="near_miss", variant=0), Plant("confidentiality", variant=0),
            Plant("governing_law", variant=0),
        ], law="England and Wales", forum="England", city="London", territory="the United Kingdom"))
    w.contract("Commercial/Customers/Supply_Agreement_Westmark_Foods_2019.txt", _spec(
        "customer", "Supply Agreement", "Supplier", "Customer", "Westmark Foods Inc.", "1 March 2019", [
            Plant("term_renewal", variant=1), Plant("change_of_control", variant=0, kind="expired"),
            Plant("governing_law", variant=2),
        ], cp_desc="an Illinois corporation", law="the State of Illinois", forum="Chicago, Illinois", city="Chicago",
        ctx={"years": "three (3)"}), expired=True)
    w.contract("Commercial/Distribution/Distribution_Agreement_Sundara_Trading.pdf", _spec(
        "distribution", "Exclusive Distribution Agreement", "Company", "Distributor", "Sundara Trading Pte. Ltd.", "5 August 2022", [
            Plant("term_renewal", variant=0), Plant("exclusivity", variant=1, key=True), Plant("non_compete", variant=0, key=True),
            Plant("rofr_rofo", variant=0, key=True), Plant("minimum_commitment", variant=1), Plant("governing_law", variant=1),
        ], cp_desc="a company incorporated in the Republic of Singapore", law="Singapore", forum="Singapore", city="Singapore",
        territory="Singapore, Malaysia, Indonesia, Thailand and Vietnam"))
    spec = _spec("distribution", "First Amendment to Exclusive Distribution Agreement", "Company", "Distributor", "Sundara Trading Pte. Ltd.", "12 September 2024", [],
                 cp_desc="a company incorporated in the Republic of Singapore")
    doc, planted = build_amendment(spec, "Exclusive Distribution Agreement", "5 August 2022", [
        ("Territory", "The definition of \"Territory\" in Section 1.1 of the Agreement is amended by adding \"and the Philippines\" at the end."),
        ("Extension of Term", custom_plant("term_renewal", "info", "The term of the Agreement is extended until 31 December 2028, and the Agreement shall thereafter renew automatically for successive periods of two (2) years unless either Party gives written notice of non-renewal at least one hundred and eighty (180) days before the end of the then-current term.", "Extended with auto-renewal.")),
    ])
    w.write("Commercial/Distribution/First_Amendment_Sundara_Trading.md", doc, "amendment", planted, "Sundara Trading Pte. Ltd.")
    w.bad("Commercial/Customers/Side_Letter_Halberd_DRAFT.docx", "empty")


def _ip_and_property(w: RoomWriter) -> None:
    w.contract("IP/Licences/Software_Licence_Agreement_Quillon_Software.docx", _spec(
        "licence", "Software Licence Agreement", "Licensee", "Licensor", "Quillon Software AB", "20 April 2022", [
            Plant("license_grant", variant=0, key=True), Plant("change_of_control", variant=2, key=True),
            Plant("anti_assignment", variant=0), Plant("audit_rights", variant=2), Plant("term_renewal", variant=0),
            Plant("governing_law", variant=1),
        ], cp_desc="a company incorporated in Sweden", law="Sweden", forum="Stockholm", city="Stockholm"))
    w.contract("IP/Licences/Technology_Licence_Meridian_Automation.pdf", _spec(
        "licence", "Technology Licence Agreement", "Licensor", "Licensee", "Meridian Automation LLC", "3 November 2023", [
            Plant("license_grant", variant=1), Plant("source_code_escrow", variant=0, key=True),
            Plant("most_favored_nation", variant=2), Plant("coc_notice_only", kind="near_miss", variant=0),
            Plant("term_renewal", variant=1), Plant("governing_law", variant=2),
        ], cp_desc="a Texas limited liability company", law="the State of Texas", forum="Austin, Texas", city="Austin",
        ctx={"royalty": "six (6)"}))
    w.contract("IP/Licences/Patent_Licence_Harrowgate_University.txt", _spec(
        "licence", "Exclusive Patent Licence Agreement", "Licensee", "University", "Harrowgate University", "8 July 2020", [
            Plant("license_grant", variant=2), Plant("ip_ownership", variant=1, key=True), Plant("audit_rights", variant=0),
            Plant("rofr_rofo", variant=1), Plant("governing_law", variant=0),
        ], cp_desc="a chartered university in England", law="England and Wales", forum="England", city="London"))
    w.contract("IP/Development/Development_Agreement_Lumen_Design.html", _spec(
        "development", "Product Development Agreement", "Developer", "Client", "Lumen Design Studio LLC", "15 February 2024", [
            Plant("ip_ownership", variant=0, key=True), Plant("non_solicit", variant=0), Plant("confidentiality", variant=0),
            Plant("governing_law", variant=0),
        ], cp_desc="a New York limited liability company"))
    w.contract("Real Estate/Lease_Headquarters_Fresh_Pond_Parkway.pdf", _spec(
        "lease", "Office Lease", "Tenant", "Landlord", "Alewife Park Properties LLC", "1 June 2021", [
            Plant("lease_assignment", variant=0, key=True), Plant("insurance", variant=1), Plant("rofr_rofo", variant=2),
            Plant("term_renewal", variant=2), Plant("governing_law", variant=2),
        ], cp_desc="a Massachusetts limited liability company", law="the Commonwealth of Massachusetts",
        forum="Middlesex County, Massachusetts", city="Boston", ctx={"years": "ten (10)"}))
    w.contract("Real Estate/Lease_Warehouse_Fenwick_Logistics_Park.docx", _spec(
        "lease", "Industrial Lease", "Tenant", "Landlord", "Fenwick Logistics Park LP", "1 September 2022", [
            Plant("successor_permitted", kind="near_miss", variant=0), Plant("term_renewal", variant=1),
            Plant("governing_law", variant=0),
        ], cp_desc="a Delaware limited partnership", law="the State of New Hampshire", forum="Hillsborough County, New Hampshire", city="Nashua"))


def _people_and_money(w: RoomWriter) -> None:
    w.contract("Employment/Executive_Employment_Agreement_Dana_Whitcombe.docx", _spec(
        "employment", "Executive Employment Agreement", "Company", "Executive", "Dana Whitcombe", "1 January 2022", [
            Plant("key_employee", variant=0, key=True), Plant("non_compete", variant=2), Plant("non_solicit", variant=2),
            Plant("governing_law", variant=0),
        ], cp_desc="of Lexington, Massachusetts", law="the Commonwealth of Massachusetts", forum="Boston, Massachusetts", city="Boston"))
    w.contract("Employment/Employment_Agreement_Rafael_Okonjo_CTO.pdf", _spec(
        "employment", "Employment Agreement", "Company", "Executive", "Rafael Okonjo", "15 March 2023", [
            Plant("key_employee", variant=2, key=True), Plant("non_solicit", variant=2), Plant("governing_law", variant=2),
        ], cp_desc="of Somerville, Massachusetts", law="the Commonwealth of Massachusetts", forum="Boston, Massachusetts", city="Boston",
        ctx={"position": "Chief Technology Officer", "reports_to": "Chief Executive Officer", "salary": "USD 385,000", "bonus_pct": "forty (40)"}))
    ctx = {"tgt": "Company", "cp": "Executive", "tgt_name": TARGET, "amount": "USD 350,000", "forum": "Boston"}
    doc, planted = letter("Retention Bonus Letter - Priya Natarajan", [
        TARGET, "200 Fresh Pond Parkway, Cambridge, MA 02138", "11 August 2025", "Private and Confidential",
        "Ms Priya Natarajan, Vice President, Sales", "Dear Priya,"], [
        "We are delighted to confirm the retention arrangements the Compensation Committee approved on 6 August 2025. The Executive is referred to below as the \"Executive\" and Kestrel Ridge Technologies, Inc. as the \"Company\"; capitalised terms not defined here have the meanings given in your employment agreement.",
        plant_text("key_employee", 1, ctx, key=True),
        "This letter does not change any other term of your employment, and it is governed by the laws of the Commonwealth of Massachusetts.",
        "Please countersign and return a copy of this letter to confirm your acceptance."],
        ["Yours sincerely,", "Dana Whitcombe", "Chief Executive Officer"])
    w.write("Employment/Retention_Bonus_Letter_P_Natarajan.txt", doc, "letter", planted)
    write_census(w, "Employment/Employee_Census_2025.csv")
    w.contract("Finance/Credit_Agreement_Ashgrove_Bank.pdf", _spec(
        "loan", "Credit Agreement", "Borrower", "Administrative Agent", "Ashgrove Bank, N.A.", "28 October 2024", [
            Plant("debt_change_of_control", variant=0, key=True), Plant("insurance", variant=0), Plant("governing_law", variant=2),
        ], cp_desc="a national banking association, as administrative agent for the Lenders"))
    w.bad("Finance/Q3_2025_Board_Pack_scan.pdf", "corrupt")
    write_customer_list(w, "Commercial/Customers/Customer_List_FY2025.csv")
    write_deck(w, "Corporate/Management_Presentation_2025.pptx")
    write_minutes(w, "Corporate/Board_Minutes_2025-09-18.md")
    w.contract("Corporate/NDAs/NDA_Project_Falcon_Varden_Capital.docx", _spec(
        "nda", "Confidentiality Agreement", "Discloser", "Recipient", "Varden Capital Partners LP", "2 June 2025", [
            Plant("confidentiality", variant=1), Plant("non_solicit", variant=1), Plant("governing_law", variant=0),
        ], cp_desc="a Delaware limited partnership"))
    w.contract("Corporate/NDAs/Mutual_NDA_Bellweather_Instruments.txt", _spec(
        "nda", "Mutual Non-Disclosure Agreement", "Company", "Counterparty", "Bellweather Instruments Ltd", "19 February 2025", [
            Plant("confidentiality", variant=0), Plant("term_renewal", variant=1), Plant("governing_law", variant=0),
        ], law="England and Wales", forum="England", city="London", ctx={"years": "two (2)"}))


def _correspondence(w: RoomWriter) -> None:
    ctx = {"tgt": "Kestrel Ridge", "cp": "our client", "tgt_name": "Kestrel Ridge Technologies, Inc.", "amount": "USD 2,400,000", "forum": "the Commonwealth of Massachusetts"}
    att, att_planted = letter("Letter of Claim - Pryor Industrial Supply LLC", [
        "MERCER HALE LLP", "One Liberty Square, Boston, MA 02109", "22 September 2025", "By e-mail and courier",
        "The General Counsel, Kestrel Ridge Technologies, Inc., 200 Fresh Pond Parkway, Cambridge, MA 02138",
        "Dear Sir or Madam,", "Re: Pryor Industrial Supply LLC - defective SX-40 sensor assemblies"], [
        "We act for Pryor Industrial Supply LLC (\"our client\") in connection with the supply of SX-40 sensor assemblies under the supply agreement between our client and Kestrel Ridge Technologies, Inc. dated 4 April 2023 (the \"Agreement\").",
        plant_text("litigation", 2, ctx, key=True),
        plant_text("litigation", 1, ctx),
        plant_text("litigation", 0, ctx),
        "Nothing in this letter is intended to be, or should be taken as, a waiver of any of our client's rights or remedies, all of which are expressly reserved."],
        ["Yours faithfully,", "Mercer Hale LLP"])
    body, body_planted = letter("Pryor Industrial - letter of claim", ["Dear Ms Whitcombe,"], [
        "Please find attached our letter of today's date on behalf of Pryor Industrial Supply LLC concerning the SX-40 sensor assemblies.",
        "We would be grateful if you would pass it to your legal department and acknowledge receipt by return."],
        ["Kind regards,", "Jonathan Mercer", "Partner, Mercer Hale LLP"])
    w.email("Correspondence/Letter_of_Claim_Pryor_Industrial.eml", sender="Jonathan Mercer <j.mercer@mercerhale.example>",
            to="Dana Whitcombe <dana.whitcombe@kestrelridge.example>", date="Mon, 22 Sep 2025 16:42:10 -0400",
            subject="Pryor Industrial Supply LLC - letter of claim", body_doc=body, body_planted=body_planted,
            attachment=("Letter_of_Claim_Pryor_Industrial.docx", att, att_planted))
    doc, planted = letter("Westmark Foods - expiry of Supply Agreement", [
        "WESTMARK FOODS INC.", "1200 W Fulton Market, Chicago, IL 60607", "3 March 2022",
        "Kestrel Ridge Technologies, Inc., Attn: Contracts Manager", "Dear Contracts Manager,"], [
        "We write to confirm that the Supply Agreement between Westmark Foods Inc. and Kestrel Ridge Technologies, Inc. dated 1 March 2019 expired in accordance with its terms on 28 February 2022 and has not been renewed or extended.",
        "Any purchases we make from you after that date will be made on your standard terms of sale under individual purchase orders. Thank you for your service over the past three years."],
        ["Yours sincerely,", "Maria Delgado", "Director of Procurement"])
    w.html_letter("Correspondence/Westmark_Expiry_Confirmation.html", doc, planted, "Westmark Foods Inc.")
    body, _ = letter("Halberd - pricing for 2026", ["Hi Marcus,"], [
        "Following our call, attached is the proposed 2026 price list for the HX and LX sensor families. The prices assume volumes in line with the 2025 forecast you shared in July.",
        "Happy to walk through it on Thursday if that works for your team."], ["Best,", "Priya Natarajan", "VP Sales, Kestrel Ridge Technologies"])
    att, _ = letter("2026 Price Proposal - Halberd Logistics", ["2026 PRICE PROPOSAL - HALBERD LOGISTICS CORPORATION"], [
        "HX-200 pressure module: USD 182.00 per unit (2025: USD 176.50).",
        "HX-310 pressure module with CAN interface: USD 236.00 per unit (2025: USD 229.00).",
        "LX-15 temperature probe: USD 41.80 per unit (2025: USD 40.90).",
        "Prices are valid for orders placed between 1 January and 31 December 2026 and exclude freight and taxes."], ["Kestrel Ridge Technologies - Sales Operations"])
    w.email("Correspondence/Halberd_2026_Pricing.eml", sender="Priya Natarajan <priya.natarajan@kestrelridge.example>",
            to="Marcus Feld <mfeld@halberdlogistics.example>", date="Tue, 14 Oct 2025 09:15:00 -0400",
            subject="2026 pricing proposal", body_doc=body, body_planted=[], attachment=("Halberd_2026_Price_Proposal.txt", att, []))


def generate_sample(out: Path, seed: int = 7) -> Truth:
    """Write the sample room into `out` (emptied first) and return its ground truth."""
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    w = RoomWriter(out, room="sample_room", seed=seed, target=TARGET)
    _commercial(w)
    _ip_and_property(w)
    _people_and_money(w)
    _correspondence(w)
    write_register(w, "Corporate/Contracts_Register.xlsx")  # last, so it lists every agreement
    w.truth.documents.sort(key=lambda d: d.path)
    return w.truth
