"""Clause bank: several drafting styles per checklist item, and the near-misses.

Placeholders: {tgt} / {cp} are the defined role names of the target and the
counterparty in the agreement ("Customer", "Supplier", "Tenant", ...),
{tgt_name} / {cp_name} their full names, {law} / {forum} the chosen
jurisdiction, {notice} a notice period in words and figures, {amount} a sum.
Wording varies on purpose: the offline reviewer must not be tested against
a single template.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.types import Severity

H, M, L, I = Severity.high, Severity.medium, Severity.low, Severity.info


@dataclass(frozen=True)
class ClauseText:
    heading: str
    text: str
    severity: Severity
    also_accept: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class NearMiss:
    """Text that looks like a red flag but is not one."""

    heading: str
    text: str
    trap_categories: tuple[str, ...]
    note: str
    category: str = ""  # what it really is, if anything (recorded as a non-key truth clause)
    severity: Severity = Severity.info
    extra: dict = field(default_factory=dict)


POSITIVE: dict[str, list[ClauseText]] = {
    "change_of_control": [
        ClauseText("Change of Control", "{cp} may terminate this Agreement upon written notice to {tgt} if {tgt} undergoes a Change of Control, such termination to take effect on the date specified in the notice, which shall be no earlier than {notice} after the date of the notice.", H, ("anti_assignment",), "Counterparty termination right on a change of control of the target."),
        ClauseText("Termination on Change of Control", "In the event that {tgt} merges with or into, or is acquired by, any third party, or any person or group of persons acting in concert acquires beneficial ownership of more than fifty percent (50%) of the voting securities of {tgt}, {cp} shall have the right, exercisable within ninety (90) days after becoming aware of such event, to terminate this Agreement with immediate effect by written notice to {tgt}.", H, ("anti_assignment",), "Acquisition of the target lets the counterparty terminate."),
        ClauseText("Change in Ownership", "Should a Change of Control of {tgt} occur, {tgt} shall notify {cp} in writing within ten (10) Business Days thereafter, and {cp} may, in its sole discretion, terminate this Agreement in whole or in part by giving not less than {notice} written notice to {tgt} at any time within six (6) months after receipt of such notification.", H, ("anti_assignment",), "Notice plus counterparty termination right."),
        ClauseText("Effect of Acquisition", "If {tgt} becomes controlled by a competitor of {cp}, or if all or substantially all of the assets or voting securities of {tgt} are sold or transferred to any person, {cp} shall be entitled, without liability, to terminate this Agreement forthwith by notice in writing.", H, ("anti_assignment",), "Termination right on sale of the target."),
    ],
    "anti_assignment": [
        ClauseText("Assignment", "{tgt} shall not assign, transfer, delegate or otherwise dispose of this Agreement or any of its rights or obligations hereunder, whether voluntarily, by operation of law or otherwise, without the prior written consent of {cp}, and any purported assignment in violation of this Section shall be null and void.", M, ("change_of_control",), "Assignment needs counterparty consent, including by operation of law."),
        ClauseText("No Assignment", "Neither Party may assign or transfer this Agreement, in whole or in part, without the prior written consent of the other Party, which consent shall not be unreasonably withheld, conditioned or delayed.", M, ("change_of_control",), "Mutual consent requirement for assignment."),
        ClauseText("Assignment and Change of Control", "{tgt} may not assign this Agreement without the prior written consent of {cp}. For the purposes of this Section, any Change of Control of {tgt} shall be deemed to be an assignment of this Agreement requiring such consent.", H, ("change_of_control",), "A change of control is deemed an assignment needing consent."),
        ClauseText("Transfer of Rights", "The rights and obligations of {tgt} under this Agreement are personal to {tgt} and may not be assigned, novated, sub-contracted or otherwise transferred to any person without the express prior written approval of {cp}.", M, ("change_of_control",), "Personal rights; transfer needs approval."),
    ],
    "termination_for_convenience": [
        ClauseText("Termination for Convenience", "{cp} may terminate this Agreement, or any Order issued hereunder, for convenience and without cause at any time upon {notice} prior written notice to {tgt}.", H, (), "Counterparty can walk away on notice."),
        ClauseText("Termination Without Cause", "Notwithstanding any other provision of this Agreement, {cp} shall have the right to terminate this Agreement at any time, for any reason or no reason, by giving {tgt} not less than {notice} written notice, and such termination shall not give rise to any liability of {cp} for lost profits or anticipated revenue.", H, (), "Termination at will with no compensation."),
        ClauseText("Right to Terminate on Notice", "Either Party may terminate this Agreement without cause by providing the other Party with at least {notice} written notice of termination.", H, (), "Mutual termination right without cause."),
    ],
    "exclusivity": [
        ClauseText("Exclusive Supply", "During the Term, {tgt} shall purchase exclusively from {cp} all of its requirements for the Products and shall not purchase, manufacture or procure any products that are the same as or substantially similar to the Products from any third party.", H, ("minimum_commitment", "non_compete"), "Target bound to a single supplier."),
        ClauseText("Appointment and Exclusivity", "{tgt} hereby appoints {cp} as its sole and exclusive distributor of the Products in the Territory, and {tgt} shall not, during the Term, appoint any other distributor, agent or reseller for the Products in the Territory, nor sell the Products directly to customers located in the Territory.", H, ("non_compete",), "Target may not sell through others or directly in the territory."),
        ClauseText("Exclusive Dealing", "For so long as this Agreement remains in force, {tgt} and its Affiliates shall deal exclusively with {cp} in respect of the supply of the Services within the Field, and shall refer to {cp} all enquiries for such services received from customers within the Territory.", H, ("non_compete",), "Exclusive dealing binding the target's affiliates."),
    ],
    "non_compete": [
        ClauseText("Non-Competition", "During the Term and for a period of two (2) years thereafter, {tgt} shall not, and shall procure that its Affiliates shall not, directly or indirectly, manufacture, market or sell in the Territory any product that competes with the Products.", H, ("exclusivity",), "Restriction binds the target's affiliates, so the buyer's group after closing."),
        ClauseText("Restrictive Covenant", "{tgt} covenants that neither it nor any of its Affiliates will, for the duration of this Agreement, engage or be concerned or interested in any business which competes with the business of {cp} in the Territory.", H, ("exclusivity",), "Covenant not to compete binding affiliates."),
        ClauseText("Non-Competition", "During the Employment Period and for twelve (12) months following the Termination Date, the Executive shall not, anywhere in the Restricted Territory, directly or indirectly own, manage, operate, control, be employed by or provide services to any Competing Business.", M, (), "Employee non-compete; protects the target."),
    ],
    "non_solicit": [
        ClauseText("Non-Solicitation", "During the Term and for twelve (12) months thereafter, neither Party shall, directly or indirectly, solicit for employment or hire any employee of the other Party who was involved in the performance of this Agreement, without the prior written consent of the other Party.", L, (), "Mutual employee non-solicit."),
        ClauseText("No Solicitation of Employees", "For a period of eighteen (18) months from the date of this Agreement, the Recipient shall not, and shall procure that its Representatives shall not, solicit or entice away, or endeavour to solicit or entice away, any officer or senior employee of the Discloser with whom it has had contact in connection with the Purpose.", L, (), "Bidder-style non-solicit in an NDA."),
        ClauseText("Non-Solicitation of Customers", "The Executive shall not, during the Employment Period or within twelve (12) months after the Termination Date, solicit, canvass or accept business from any person who was a customer of the Company during the twelve (12) months preceding the Termination Date.", L, (), "Customer non-solicit by an employee."),
    ],
    "most_favored_nation": [
        ClauseText("Most Favoured Customer", "{tgt} warrants that the prices, discounts and other terms offered to {cp} under this Agreement are and shall remain no less favourable than those offered by {tgt} to any other customer purchasing comparable volumes of similar products, and if {tgt} offers more favourable terms to any such customer, {tgt} shall promptly extend such terms to {cp} with effect from the date they were first offered.", M, (), "Target's pricing constrained across its customer base."),
        ClauseText("Price Parity", "If at any time during the Term {tgt} charges any third party a lower price for the same or substantially similar Services, {tgt} shall immediately reduce the Fees payable by {cp} to such lower price and refund to {cp} any amount paid in excess thereof.", M, (), "Price parity with refund."),
        ClauseText("Most Favoured Nation", "The Fees and the other commercial terms under this Agreement shall at all times be at least as favourable to {cp} as the most favourable fees and terms granted by {tgt} to any other licensee of the Licensed Technology.", M, (), "MFN across licensees."),
    ],
    "rofr_rofo": [
        ClauseText("Right of First Refusal", "If at any time during the Term {tgt} receives a bona fide offer from a third party to acquire all or substantially all of the business or assets of {tgt} relating to the Products, {tgt} shall first offer such business or assets to {cp} on the same terms, and {cp} shall have thirty (30) days from receipt of such notice within which to accept such offer.", H, (), "ROFR on a sale of the business can block or delay the deal."),
        ClauseText("Right of First Negotiation", "Before entering into any discussions with a third party regarding the licensing, sale or other disposal of any rights in the Licensed Technology outside the Field, {tgt} shall notify {cp} and negotiate exclusively and in good faith with {cp} for a period of sixty (60) days with a view to agreeing terms for such rights.", M, (), "First negotiation right on technology outside the field."),
        ClauseText("Right of First Offer", "{cp} shall have a right of first offer in respect of any additional space that becomes available on the third floor of the Building during the Term, exercisable by notice within ten (10) Business Days after {tgt} receives notice that such space is available.", L, (), "ROFO on extra space; benign."),
    ],
    "minimum_commitment": [
        ClauseText("Minimum Purchase Commitment", "In each Contract Year, {tgt} shall purchase Products having an aggregate invoiced value of not less than {amount} (the \"Minimum Annual Commitment\"), and if the aggregate invoiced value of Products purchased in any Contract Year is less than the Minimum Annual Commitment, {tgt} shall pay to {cp} the shortfall within thirty (30) days after the end of such Contract Year.", M, (), "Take-or-pay shortfall payment."),
        ClauseText("Minimum Volumes", "{cp} shall order not less than the Minimum Quantity of each Product set out in Schedule 2 in each calendar quarter, failing which {tgt} may, at its option, terminate the exclusivity granted under this Agreement or invoice {cp} for the shortfall at the prices then in effect.", M, ("exclusivity",), "Distributor minimums."),
        ClauseText("Take or Pay", "{tgt} shall take, or pay for if not taken, the Annual Contract Quantity in each Contract Year, and any quantity not taken shall be invoiced at ninety percent (90%) of the Contract Price applicable on the last day of that Contract Year.", M, (), "Take-or-pay obligation."),
    ],
    "cap_on_liability": [
        ClauseText("Limitation of Liability", "Subject to Section {ref}, the total aggregate liability of each Party arising out of or in connection with this Agreement, whether in contract, tort (including negligence), breach of statutory duty or otherwise, shall not exceed the total Fees paid or payable by {cp} in the twelve (12) months immediately preceding the event giving rise to the claim.", L, (), "Cap at twelve months' fees."),
        ClauseText("Exclusion of Consequential Loss", "In no event shall either Party be liable to the other for any indirect, incidental, special, punitive or consequential damages, or for any loss of profits, revenue, business or goodwill, howsoever arising, even if such Party has been advised of the possibility of such damages.", L, (), "Exclusion of indirect loss."),
        ClauseText("Liability Cap", "{tgt}'s maximum aggregate liability under or in connection with this Agreement shall in no circumstances exceed {amount}.", L, (), "Fixed monetary cap."),
    ],
    "uncapped_liability": [
        ClauseText("Exclusions from Limitation", "The limitations and exclusions of liability in this Section shall not apply to (a) either Party's indemnification obligations, (b) breach of Section {ref} (Confidentiality), (c) liability for infringement or misappropriation of the other Party's intellectual property rights, or (d) liability arising from gross negligence, fraud or wilful misconduct, all of which shall be unlimited.", H, ("cap_on_liability", "indemnification"), "Carve-outs leave the target with unlimited exposure."),
        ClauseText("Unlimited Liability", "Nothing in this Agreement shall limit or exclude {tgt}'s liability for any breach of its data protection obligations, and {tgt}'s liability for such breaches shall be unlimited in amount.", H, ("cap_on_liability", "confidentiality"), "Unlimited data-protection liability."),
        ClauseText("No Limitation", "{tgt} acknowledges that its liability under this Agreement is not subject to any cap, limitation or exclusion whatsoever, and {tgt} shall be liable to {cp} for the full amount of all losses suffered or incurred by {cp}.", H, ("cap_on_liability",), "Expressly unlimited."),
    ],
    "indemnification": [
        ClauseText("Indemnification by {tgt}", "{tgt} shall indemnify, defend and hold harmless {cp}, its Affiliates and their respective officers, directors, employees and agents from and against any and all losses, damages, liabilities, costs and expenses (including reasonable attorneys' fees) arising out of or relating to any third-party claim alleging that the Products infringe any patent, copyright, trade mark or trade secret.", M, ("uncapped_liability",), "IP indemnity given by the target."),
        ClauseText("General Indemnity", "{tgt} shall fully and effectively indemnify {cp} and keep {cp} indemnified on demand against all claims, actions, proceedings, losses, damages, fines, penalties and expenses arising out of any breach of this Agreement by {tgt} or any negligent act or omission of {tgt}, its employees, agents or sub-contractors, and such indemnity shall not be subject to any limitation of liability set out in this Agreement.", H, ("uncapped_liability",), "Broad indemnity outside the cap."),
        ClauseText("Indemnity", "Each Party shall indemnify the other against all losses arising from any claim for death or personal injury caused by the negligence of the indemnifying Party or its personnel in the course of performing this Agreement.", M, (), "Mutual personal-injury indemnity."),
    ],
    "ip_ownership": [
        ClauseText("Ownership of Deliverables", "All Deliverables and all Intellectual Property Rights in them, including all improvements, modifications and derivative works made by {tgt} in the course of performing the Services, shall vest in and be owned absolutely by {cp} upon creation, and {tgt} hereby assigns to {cp} with full title guarantee all such rights by way of present assignment of future rights.", H, ("license_grant",), "Target's work product assigned to the counterparty."),
        ClauseText("Improvements", "Any improvement, enhancement or modification to the Licensed Technology made by or on behalf of {tgt} shall be jointly owned by {tgt} and {cp}, and neither Party shall license or assign its interest in any such improvement without the prior written consent of the other Party.", H, ("license_grant",), "Joint ownership of improvements with a consent lock."),
        ClauseText("Work Made for Hire", "All work product, inventions, software and documentation created by {cp} under this Agreement shall be works made for hire for {tgt} to the extent permitted by law, and to the extent not so permitted {cp} hereby irrevocably assigns to {tgt} all right, title and interest therein.", M, (), "IP flows to the target (favourable)."),
    ],
    "license_grant": [
        ClauseText("Grant of Licence", "Subject to the terms of this Agreement, {cp} grants to {tgt} a non-exclusive, non-transferable, non-sublicensable licence during the Term to use the Software solely for the internal business purposes of {tgt} and solely at the Sites.", M, (), "Non-transferable in-licence of software the target relies on."),
        ClauseText("Licence", "{tgt} hereby grants to {cp} a perpetual, irrevocable, worldwide, royalty-free licence, with the right to grant sublicences, to use, modify and commercialise the Licensed Technology within the Field.", M, ("ip_ownership",), "Perpetual irrevocable out-licence."),
        ClauseText("Exclusive Licence", "{cp} hereby grants to {tgt} an exclusive licence under the Licensed Patents, within the Field and the Territory, to make, have made, use, sell, offer for sale and import Licensed Products, which licence may not be assigned or sublicensed without the prior written consent of {cp}.", M, ("anti_assignment",), "Exclusive in-licence, not assignable."),
    ],
    "source_code_escrow": [
        ClauseText("Source Code Escrow", "Within thirty (30) days after the Effective Date, {tgt} shall deposit the Source Code of the Software with the Escrow Agent, and the Escrow Agent shall release the Source Code to {cp} upon the occurrence of any of the following: (a) {tgt} becomes insolvent; (b) {tgt} ceases to support the Software; or (c) {tgt} undergoes a Change of Control.", M, ("change_of_control",), "Release condition triggered by the deal."),
        ClauseText("Escrow", "{tgt} shall maintain a current copy of the source code of the Licensed Software, together with all build instructions, in escrow with a recognised escrow agent under a three-party agreement, and {cp} shall be entitled to a release of that source code if {tgt} fails to remedy a Critical Defect within sixty (60) days of notice.", M, (), "Escrow release on support failure."),
    ],
    "audit_rights": [
        ClauseText("Audit", "{cp} or its appointed independent auditors may, on not less than ten (10) Business Days' notice and not more than once in any calendar year, inspect and audit the books and records of {tgt} relating to this Agreement, and if any audit reveals an underpayment of more than five percent (5%), {tgt} shall bear the cost of the audit and pay the shortfall with interest.", L, (), "Royalty/fee audit with cost shifting."),
        ClauseText("Records and Inspection", "{tgt} shall keep complete and accurate records of all Products manufactured and sold for a period of six (6) years, and shall permit {cp} and its representatives, during normal business hours, to inspect such records and the premises at which the Products are manufactured.", L, (), "Records and premises inspection."),
        ClauseText("Compliance Verification", "Upon reasonable notice, {cp} may verify {tgt}'s compliance with the licence restrictions in this Agreement, including by remote review of usage data, and {tgt} shall promptly pay any additional licence fees identified by such verification at {cp}'s then-current list prices.", L, (), "Licence compliance audit."),
    ],
    "insurance": [
        ClauseText("Insurance", "{tgt} shall maintain in force, with reputable insurers, public and products liability insurance with a limit of not less than {amount} for any one occurrence, and shall on request provide {cp} with a certificate of insurance evidencing such cover.", I, (), "Insurance requirement."),
        ClauseText("Insurance Requirements", "Throughout the Term, {tgt} shall carry commercial general liability insurance, professional indemnity insurance and cyber liability insurance, each in an amount of not less than {amount} per claim, and shall cause {cp} to be named as an additional insured on the commercial general liability policy.", I, (), "Insurance with additional insured."),
    ],
    "governing_law": [
        ClauseText("Governing Law", "This Agreement and any dispute or claim arising out of or in connection with it shall be governed by and construed in accordance with the laws of {law}, and the Parties irrevocably submit to the exclusive jurisdiction of the courts of {forum}.", I, (), "Law and forum."),
        ClauseText("Governing Law and Arbitration", "This Agreement is governed by the laws of {law}. Any dispute arising out of or in connection with this Agreement shall be referred to and finally resolved by arbitration administered in {forum} under the rules of arbitration in force at the time, and the seat of the arbitration shall be {forum}.", I, (), "Arbitration."),
        ClauseText("Applicable Law; Jury Waiver", "This Agreement shall be governed by the laws of {law}, without regard to its conflict of laws principles, and each Party hereby waives, to the fullest extent permitted by law, any right to trial by jury in any action arising out of this Agreement.", I, (), "Law with jury waiver."),
    ],
    "confidentiality": [
        ClauseText("Confidentiality", "Each Party shall keep confidential all Confidential Information of the other Party and shall not use such Confidential Information except for the purpose of performing its obligations under this Agreement, nor disclose it to any person other than its employees and professional advisers who need to know it and who are bound by obligations of confidentiality no less protective than those set out herein.", L, (), "Mutual confidentiality."),
        ClauseText("Non-Disclosure", "The Recipient shall hold the Confidential Information in strict confidence, shall use it solely for the Purpose, and shall not disclose it to any third party without the prior written consent of the Discloser, save to its Representatives who need to know it for the Purpose.", L, (), "NDA core obligation."),
        ClauseText("Data Protection", "{tgt} shall process Personal Data only on the documented instructions of {cp}, shall implement appropriate technical and organisational measures to protect Personal Data against unauthorised or unlawful processing, and shall notify {cp} without undue delay, and in any event within twenty-four (24) hours, after becoming aware of a Personal Data Breach.", L, ("uncapped_liability",), "Processor obligations."),
    ],
    "term_renewal": [
        ClauseText("Term", "This Agreement shall commence on the Effective Date and continue for an initial term of {years} years, and shall thereafter renew automatically for successive periods of one (1) year each unless either Party gives written notice of non-renewal at least {notice} before the end of the then-current term.", I, (), "Auto-renewal with notice window."),
        ClauseText("Duration", "This Agreement shall remain in force for a period of {years} years from the Effective Date and shall then expire automatically without the need for notice, unless extended by written agreement of the Parties.", I, (), "Fixed term."),
        ClauseText("Term and Renewal", "The Initial Term shall be {years} years from the Commencement Date. {tgt} may renew this Agreement for one further term of {years} years by giving {cp} written notice not less than {notice} before the expiry of the Initial Term.", I, (), "Renewal option."),
    ],
    "lease_assignment": [
        ClauseText("Alienation", "The Tenant shall not assign, sublet, charge or part with possession of the whole or any part of the Premises without the prior written consent of the Landlord, and any transfer of a controlling interest in the Tenant, whether by merger, sale of shares or otherwise, shall be deemed an assignment of this Lease for the purposes of this clause.", H, ("anti_assignment", "change_of_control"), "Landlord consent needed, change of control deemed assignment."),
        ClauseText("Assignment and Subletting", "Tenant shall not, without Landlord's prior written consent, which Landlord may withhold in its sole discretion, assign this Lease or any interest herein, or sublet the Premises or any part thereof, and any attempted assignment or subletting without such consent shall constitute an Event of Default.", H, ("anti_assignment",), "Consent in landlord's sole discretion."),
        ClauseText("Transfers", "Tenant may not transfer this Lease, by operation of law or otherwise, including by way of a merger or a sale of more than forty-nine percent (49%) of the equity interests in Tenant, unless Tenant has first obtained Landlord's written consent, which shall not be unreasonably withheld.", H, ("anti_assignment", "change_of_control"), "Equity sale treated as transfer."),
    ],
    "debt_change_of_control": [
        ClauseText("Change of Control", "The occurrence of a Change of Control shall constitute an Event of Default, whereupon the Administrative Agent may, and at the request of the Required Lenders shall, declare all outstanding Loans, together with accrued interest thereon, to be immediately due and payable.", H, ("change_of_control",), "Deal accelerates the debt."),
        ClauseText("Mandatory Prepayment upon Change of Control", "Upon the occurrence of a Change of Control, the Borrower shall, within five (5) Business Days, prepay the Loans in full together with accrued interest and all other amounts then owing under the Loan Documents, and the Commitments shall terminate automatically.", H, ("change_of_control",), "Mandatory prepayment on change of control."),
        ClauseText("Events of Default - Ownership", "It shall be an Event of Default if any person or group, other than the Permitted Holders, becomes the beneficial owner, directly or indirectly, of more than thirty-five percent (35%) of the voting equity of the Borrower, or if the Borrower ceases to own, directly or indirectly, one hundred percent (100%) of the equity of each Guarantor.", H, ("change_of_control",), "Ownership-based event of default."),
    ],
    "key_employee": [
        ClauseText("Change in Control Payment", "If, within twelve (12) months following a Change in Control, the Executive's employment is terminated by the Company without Cause or by the Executive for Good Reason, the Company shall pay the Executive a lump sum equal to two (2) times the sum of the Executive's Base Salary and Target Bonus, and all outstanding equity awards held by the Executive shall vest in full.", H, (), "Double-trigger severance with full vesting."),
        ClauseText("Transaction Bonus", "Upon the consummation of a Change in Control, the Company shall pay the Executive a transaction bonus equal to {amount}, payable in cash within thirty (30) days after the closing date, provided that the Executive remains employed on such closing date.", H, (), "Single-trigger payment on closing."),
        ClauseText("Severance", "If the Executive resigns for Good Reason, which shall include any material diminution in the Executive's duties following a Change in Control, the Executive shall be entitled to continued payment of Base Salary for eighteen (18) months and accelerated vesting of one hundred percent (100%) of unvested options.", H, (), "Good-reason resignation right after a change in control."),
    ],
    "litigation": [
        ClauseText("Claim", "Unless we receive, within fourteen (14) days of the date of this letter, payment of {amount} in full settlement of our client's losses, our client intends to commence proceedings against {tgt_name} in the courts of {forum} without further notice.", H, (), "Threatened proceedings."),
        ClauseText("Demand", "Our client has suffered losses of not less than {amount} as a direct result of {tgt_name}'s breach of the warranties given under the Supply Agreement, and we hereby demand that {tgt_name} compensate our client in full.", H, (), "Damages claim."),
        ClauseText("Notice of Claim", "Please treat this letter as formal notice of a claim under Section 14 of the Agreement in respect of the defective sensor assemblies delivered between March and June, for which our client will seek recovery of all losses, costs and expenses, including the cost of the product recall.", H, (), "Notice of claim for defects."),
    ],
}


NEAR_MISSES: dict[str, list[NearMiss]] = {
    # A clause that talks about consent, change and control but gives no change-of-control right.
    "mutual_consent": [
        NearMiss("Amendments", "No amendment, change or variation of this Agreement shall be effective unless it is in writing, refers expressly to this Agreement and is signed by duly authorised representatives of both Parties, and neither Party shall be bound by any such change to which it has not given its mutual written consent.", ("change_of_control", "anti_assignment"), "Mutual consent to amendments; not a change-of-control or assignment restriction."),
        NearMiss("Change Control Procedure", "Either Party may propose a change to the Services or the quality control procedures in Schedule 3, and any such change shall take effect only with the mutual written consent of the Parties in accordance with the Change Control Procedure; no change in the control procedures shall alter the Fees unless expressly agreed.", ("change_of_control", "anti_assignment"), "A change-control procedure for the scope, not a change of control of a party."),
        NearMiss("Variations", "The Parties may from time to time by mutual consent vary the Specifications, provided that any change in the Specifications which affects the quality control or regulatory status of the Products shall be recorded in a written change order signed by both Parties.", ("change_of_control", "anti_assignment"), "Variation by mutual consent."),
    ],
    "capped_liability": [
        NearMiss("Limitation of Liability", "Notwithstanding anything to the contrary in this Agreement, the total aggregate liability of {tgt} arising under or in connection with this Agreement, including under any indemnity, shall not exceed one hundred and fifty percent (150%) of the Fees paid in the twelve (12) months preceding the claim.", ("uncapped_liability",), "The cap applies to indemnities too: liability is capped, not uncapped.", "cap_on_liability", L),
        NearMiss("Aggregate Cap", "Each Party's liability under this Agreement, whether arising in contract, tort or otherwise and including liability under the indemnities in Section {ref}, is limited in aggregate to {amount}, save that this cap shall not operate to limit the payment of Fees properly due.", ("uncapped_liability",), "Indemnities are within the cap; the only carve-out is payment of fees due.", "cap_on_liability", L),
    ],
    # A change-of-control clause that only asks for notice: a low-severity item, not a termination or consent right.
    "coc_notice_only": [
        NearMiss("Notice of Change of Control", "{tgt} shall notify {cp} in writing within thirty (30) days after any Change of Control of {tgt}, and such Change of Control shall not of itself entitle {cp} to terminate or vary this Agreement.", ("change_of_control",), "Notice only; the agreement continues unchanged after a change of control.", "change_of_control", L),
        NearMiss("Change of Control", "If {tgt} undergoes a Change of Control, this Agreement shall continue in full force and effect, and {tgt}'s only obligation shall be to inform {cp} of the identity of its new controlling shareholder within sixty (60) days.", ("change_of_control",), "Agreement continues; information duty only.", "change_of_control", L),
    ],
    "successor_permitted": [
        NearMiss("Permitted Transfers", "Tenant may, without Landlord's consent, assign this Lease to any successor entity resulting from a merger, consolidation or acquisition of all or substantially all of Tenant's stock or assets, provided that Tenant gives Landlord written notice within thirty (30) days after such transfer.", ("lease_assignment",), "Transfer on a merger or acquisition is permitted without landlord consent (notice only).", "lease_assignment", L),
    ],
}


BAD_FILE_KINDS = ("corrupt", "empty")
