"""Neutral contract prose: the operative and boilerplate sections around the planted clauses.

Kept free of the language the checklist looks for (no assignment, exclusivity,
liability, audit or change-of-control wording) so the ground truth is complete:
whatever a reviewer finds in a category was planted on purpose. Termination for
breach and the Affiliate definition stay in because every real contract has them.
"""

from __future__ import annotations

# Article key -> (heading, [(subheading, paragraph template)])
ARTICLES: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "supply": ("Supply of Products", [
        ("Agreement to Supply", "{seller} shall manufacture and supply the Products to {buyer} in accordance with the Specifications, the terms of this Agreement and each Order accepted by {seller}, and {buyer} shall pay the Price for the Products in accordance with Section 5."),
        ("Changes to Products", "{seller} shall not make any change to the materials, design, process or place of manufacture of any Product that could reasonably be expected to affect its form, fit or function without giving {buyer} not less than one hundred and eighty (180) days' prior written notice and supplying qualification samples on request."),
        ("Packaging and Labelling", "{seller} shall pack each consignment of Products in accordance with the packaging instructions in the Specifications and shall mark each package with the Order number, the part number, the quantity, the batch number and the date of manufacture."),
    ]),
    "orders": ("Forecasts and Orders", [
        ("Forecasts", "On or before the fifth (5th) Business Day of each calendar month, {buyer} shall provide {seller} with a rolling non-binding forecast of its anticipated requirements for each Product for the following twelve (12) months."),
        ("Placing Orders", "{buyer} shall place Orders in writing or through the electronic ordering portal made available by {seller}, each specifying the Products, the quantities, the requested delivery dates and the delivery location."),
        ("Acceptance of Orders", "{seller} shall accept or reject each Order within five (5) Business Days of receipt, and an Order not rejected within that period shall be deemed accepted, provided that {seller} may reject an Order only to the extent that it exceeds the most recent forecast by more than twenty percent (20%)."),
        ("Cancellation", "{buyer} may cancel or reschedule any Order, without charge, up to thirty (30) days before the confirmed delivery date, and thereafter only with the agreement of {seller}."),
    ]),
    "delivery": ("Delivery", [
        ("Delivery Terms", "Unless otherwise agreed in an Order, {seller} shall deliver the Products FCA {seller}'s facility (Incoterms 2020), and title to the Products shall pass to {buyer} on delivery."),
        ("Late Delivery", "If {seller} anticipates that it will be unable to deliver any Products on the confirmed delivery date, it shall promptly notify {buyer}, stating the reason for the delay and the revised delivery date, and shall use all reasonable endeavours to minimise the delay."),
        ("Shortfalls", "Any claim by {buyer} for a shortfall in quantity must be notified to {seller} within ten (10) Business Days of delivery, failing which the quantity stated on the delivery note shall be conclusive."),
    ]),
    "price": ("Prices and Payment", [
        ("Prices", "The prices for the Products are set out in the Price Schedule and are exclusive of value added tax and any other applicable sales taxes, which shall be payable by {buyer} in addition at the rate in force from time to time."),
        ("Price Review", "The Parties shall meet once in each Contract Year to review the prices, taking into account movements in the cost of raw materials, energy and labour, and any adjustment agreed in writing shall apply to Orders placed after the date of such agreement."),
        ("Invoicing and Payment", "{seller} may invoice {buyer} on or after delivery, and {buyer} shall pay each undisputed invoice within sixty (60) days of the date of receipt by bank transfer to the account nominated by {seller} in writing."),
        ("Late Payment", "If any sum due under this Agreement is not paid on the due date, interest shall accrue on the overdue amount from the due date until the date of actual payment at the rate of two percent (2%) per annum above the base rate of the central bank of the currency concerned."),
    ]),
    "quality": ("Quality and Inspection", [
        ("Quality System", "{seller} shall maintain throughout the Term a quality management system certified to ISO 9001 or an equivalent standard and shall manufacture the Products in accordance with the quality plan agreed between the Parties."),
        ("Inspection on Receipt", "{buyer} shall inspect the Products within fifteen (15) Business Days after delivery and may reject any Products that do not conform to the Specifications by notice to {seller} giving details of the non-conformity."),
        ("Non-conforming Products", "{seller} shall, at its option and expense, repair or replace any rejected Products within twenty (20) Business Days of notice of rejection, or credit {buyer} with the price of the rejected Products."),
        ("Corrective Action", "Where the rate of rejected Products in any calendar quarter exceeds the acceptable quality level in the quality plan, {seller} shall prepare and implement a corrective action plan and report on its progress at each monthly review meeting."),
    ]),
    "warranty": ("Warranties", [
        ("Product Warranty", "{seller} warrants that for a period of twenty-four (24) months from delivery the Products shall conform to the Specifications, be free from defects in design, materials and workmanship, and be manufactured in compliance with all applicable laws."),
        ("Authority", "Each Party warrants that it has full power and authority to enter into and perform this Agreement and that this Agreement constitutes its legal, valid and binding obligations."),
        ("Exclusion of Other Warranties", "Except as expressly set out in this Agreement, all warranties, conditions and other terms implied by statute or common law are, to the fullest extent permitted by law, excluded from this Agreement."),
    ]),
    "services": ("Provision of the Services", [
        ("Scope", "{seller} shall provide the Services described in the Statement of Work with the degree of skill, care and diligence reasonably expected of a skilled and experienced provider of similar services."),
        ("Service Levels", "{seller} shall meet or exceed the Service Levels, and where it fails to do so in any Measurement Period it shall credit {buyer} with the service credits calculated in accordance with the Service Level Schedule."),
        ("Personnel", "{seller} shall ensure that the Services are performed by appropriately qualified and trained personnel and shall replace, as soon as reasonably practicable, any member of its personnel whom {buyer} reasonably considers unsuitable."),
        ("Cooperation", "{buyer} shall provide {seller} with such information, access to its systems and premises, and decisions as {seller} reasonably requires to perform the Services, in a timely manner."),
    ]),
    "governance": ("Governance", [
        ("Relationship Managers", "Each Party shall appoint a relationship manager who shall be the primary point of contact for the other Party in respect of the day-to-day operation of this Agreement."),
        ("Review Meetings", "The relationship managers shall meet at least once each calendar month to review performance against the Service Levels, forecasts, open issues and planned changes, and shall agree written minutes of each meeting."),
        ("Escalation", "Any dispute that the relationship managers are unable to resolve within ten (10) Business Days shall be escalated to the senior executives of each Party, who shall meet within a further ten (10) Business Days to attempt to resolve it in good faith."),
    ]),
    "premises": ("The Premises", [
        ("Demise", "The Landlord lets the Premises to the Tenant for the Term, together with the rights set out in Schedule 1 and subject to the exceptions and reservations set out in Schedule 2."),
        ("Rent", "The Tenant shall pay the Base Rent in equal monthly instalments in advance on the first day of each month, the first payment to be made on the Rent Commencement Date, together with the Tenant's Proportionate Share of Operating Expenses."),
        ("Rent Review", "On each Review Date the Base Rent shall be increased by the percentage increase in the Consumer Price Index over the preceding period, provided that the Base Rent shall never be less than the Base Rent payable immediately before that Review Date."),
        ("Use", "The Tenant shall use the Premises only for offices, research and development and light assembly, and for purposes ancillary to them, and shall not use the Premises for any purpose that is illegal or that may cause a nuisance to the owners or occupiers of neighbouring property."),
        ("Repair", "The Tenant shall keep the interior of the Premises in good and substantial repair and condition, damage by insured risks excepted, and the Landlord shall maintain the structure, roof and common parts of the Building."),
        ("Alterations", "The Tenant shall not make any structural alteration to the Premises, and shall not make any other alteration without the prior written approval of the Landlord, such approval not to be unreasonably withheld for internal non-structural works."),
        ("Security Deposit", "On the date of this Lease the Tenant shall deposit with the Landlord a sum equal to three (3) months' Base Rent as security for the performance of the Tenant's obligations, to be returned within thirty (30) days after the end of the Term."),
    ]),
    "loan": ("The Facility", [
        ("Commitment", "Subject to the terms and conditions of this Agreement, each Lender severally agrees to make term loans to the Borrower on the Closing Date in an aggregate principal amount not exceeding such Lender's Commitment."),
        ("Purpose", "The Borrower shall apply all amounts borrowed under the Facility towards the refinancing of existing indebtedness, capital expenditure and the general corporate purposes of the Borrower and its Subsidiaries."),
        ("Interest", "Each Loan shall bear interest on its outstanding principal amount for each Interest Period at a rate per annum equal to Term SOFR for such Interest Period plus the Applicable Margin."),
        ("Repayment", "The Borrower shall repay the Loans in quarterly instalments on the last Business Day of each March, June, September and December, each in an amount equal to two and one-half percent (2.5%) of the aggregate principal amount of the Loans made on the Closing Date, with the balance due on the Maturity Date."),
        ("Voluntary Prepayment", "The Borrower may, on not less than three (3) Business Days' notice to the Administrative Agent, prepay the Loans in whole or in part without premium or penalty, subject to payment of any breakage costs."),
        ("Financial Covenants", "The Borrower shall not permit the Total Leverage Ratio as of the last day of any fiscal quarter to exceed 3.50 to 1.00, nor the Interest Coverage Ratio for any period of four consecutive fiscal quarters to be less than 3.00 to 1.00."),
        ("Reporting", "The Borrower shall deliver to the Administrative Agent its audited annual consolidated financial statements within one hundred and twenty (120) days after the end of each fiscal year and its unaudited quarterly financial statements within forty-five (45) days after the end of each fiscal quarter."),
    ]),
    "loan_reps": ("Representations and Warranties", [
        ("Organisation", "The Borrower and each of its Subsidiaries is duly organised, validly existing and in good standing under the laws of its jurisdiction of organisation and has all requisite power to own its property and carry on its business as now conducted."),
        ("Financial Statements", "The audited consolidated balance sheet of the Borrower as at the end of its most recent fiscal year and the related statements of income and cash flows present fairly, in all material respects, the financial condition of the Borrower and its Subsidiaries as at that date."),
        ("No Material Adverse Effect", "Since the date of the most recent audited financial statements delivered to the Lenders, there has been no event or circumstance that has had or could reasonably be expected to have a Material Adverse Effect."),
        ("Taxes", "The Borrower and each of its Subsidiaries has filed all material tax returns required to be filed and has paid all material taxes due, other than taxes being contested in good faith by appropriate proceedings."),
    ]),
    "loan_covenants": ("Covenants", [
        ("Indebtedness", "The Borrower shall not, and shall not permit any Subsidiary to, create, incur or suffer to exist any Indebtedness other than the Loans, Indebtedness existing on the Closing Date and listed in Schedule 7.1, and other Indebtedness in an aggregate principal amount not exceeding USD 5,000,000 at any time outstanding."),
        ("Liens", "The Borrower shall not, and shall not permit any Subsidiary to, create or permit to subsist any Lien on any of its property or assets, other than Permitted Liens."),
        ("Restricted Payments", "The Borrower shall not declare or pay any dividend or make any other distribution on its equity interests, except that it may make Restricted Payments in an aggregate amount not exceeding USD 2,000,000 in any fiscal year so long as no Default has occurred and is continuing."),
        ("Maintenance of Property", "The Borrower shall keep all property useful and necessary in its business in good working order and condition, ordinary wear and tear excepted."),
    ]),
    "employment": ("Employment", [
        ("Position and Duties", "The Company shall employ the Executive as {position}, reporting to the {reports_to}, and the Executive shall perform such duties as are customarily associated with that position and such other duties consistent with it as may be assigned from time to time."),
        ("Base Salary", "The Company shall pay the Executive a base salary at the annual rate of {salary} (the \"Base Salary\"), payable in accordance with the Company's normal payroll practices and reviewed annually by the Compensation Committee."),
        ("Annual Bonus", "The Executive shall be eligible for an annual performance bonus with a target amount equal to {bonus_pct} percent of the Base Salary (the \"Target Bonus\"), based on the achievement of performance objectives set by the Board."),
        ("Benefits", "The Executive shall be entitled to participate in all employee benefit plans and programmes made available to the Company's senior executives generally, subject to the terms of such plans."),
        ("Holidays", "The Executive shall be entitled to twenty-five (25) working days of paid vacation in each calendar year in addition to public holidays, to be taken at times agreed with the {reports_to}."),
        ("Expenses", "The Company shall reimburse the Executive for all reasonable business expenses incurred in the performance of the Executive's duties, subject to the production of receipts in accordance with the Company's expenses policy."),
    ]),
    "nda": ("Purpose", [
        ("Purpose", "The Discloser is willing to make Confidential Information available to the Recipient solely for the purpose of evaluating, negotiating and, if agreed, implementing the Proposed Transaction (the \"Purpose\")."),
        ("Return of Information", "Within ten (10) Business Days after a written request by the Discloser, the Recipient shall return or destroy all documents and materials containing Confidential Information, save for copies it is required to retain by law or regulation."),
        ("No Offer", "Nothing in this Agreement obliges either party to proceed with the Proposed Transaction, and no contract for the Proposed Transaction shall exist unless and until a definitive written agreement has been executed."),
    ]),
    "ip": ("Technology", [
        ("Delivery of Materials", "Within thirty (30) days after the Effective Date, the Licensor shall deliver to the Licensee one copy of the Licensed Materials in electronic form, together with the documentation reasonably required to use them."),
        ("Support", "The Licensor shall provide second-line technical support for the Licensed Technology during its normal business hours and shall use reasonable endeavours to correct any reproducible error notified by the Licensee."),
        ("Royalties", "In consideration of the rights granted under this Agreement, the Licensee shall pay the Licensor a royalty of {royalty} percent of the Net Sales of each Licensed Product, payable quarterly within forty-five (45) days after the end of each calendar quarter."),
        ("Patent Marking", "The Licensee shall mark all Licensed Products sold by it in accordance with the applicable patent marking laws."),
    ]),
    "compliance": ("Compliance", [
        ("Anti-Bribery", "Each Party shall comply with all applicable laws relating to anti-bribery and anti-corruption, including the U.S. Foreign Corrupt Practices Act of 1977 and the UK Bribery Act 2010, and shall maintain throughout the Term its own policies and procedures to ensure such compliance."),
        ("Export Control", "Each Party shall comply with all applicable export control and economic sanctions laws and regulations in connection with the Products and any technical data supplied under this Agreement, and shall not export, re-export or transfer any of them to any destination or person prohibited by such laws."),
        ("Modern Slavery", "Each Party shall take reasonable steps to ensure that slavery, servitude, forced or compulsory labour and human trafficking do not take place in its business or in its supply chains."),
        ("Conflict Minerals", "{seller} shall provide such information as {buyer} reasonably requests to enable {buyer} to comply with its reporting obligations concerning tin, tantalum, tungsten and gold contained in the Products."),
        ("Environmental Compliance", "{seller} shall ensure that the Products comply with the restrictions on hazardous substances in force in the Territory from time to time and shall supply material declarations for each Product on request."),
    ]),
    "term": ("Term and Termination", [
        ("Termination for Breach", "Either Party may terminate this Agreement with immediate effect by written notice if the other Party commits a material breach of this Agreement which is incapable of remedy or which is not remedied within thirty (30) days after receipt of notice requiring it to be remedied."),
        ("Insolvency", "Either Party may terminate this Agreement with immediate effect by written notice if the other Party becomes insolvent, makes an arrangement with its creditors, has a receiver or administrator appointed over any of its assets, or ceases to carry on business."),
        ("Consequences of Termination", "Termination or expiry of this Agreement shall not affect any rights or remedies which have accrued as at the date of termination or expiry, and the provisions of this Agreement which are expressly or by implication intended to survive shall continue in full force and effect."),
    ]),
    "default": ("Events of Default", [
        ("Non-Payment", "It shall be an Event of Default if the Borrower fails to pay any principal of any Loan when due, or fails to pay any interest or fee within three (3) Business Days after it becomes due."),
        ("Breach of Covenant", "It shall be an Event of Default if the Borrower fails to observe any financial covenant in Section 4.6, or fails to perform any other obligation under the Loan Documents and such failure continues for thirty (30) days after notice from the Administrative Agent."),
        ("Cross-Default", "It shall be an Event of Default if any Indebtedness of the Borrower or any Subsidiary in an aggregate principal amount exceeding USD 2,500,000 is declared due and payable before its specified maturity as a result of an event of default, however described."),
        ("Judgments", "It shall be an Event of Default if one or more final judgments for the payment of money in an aggregate amount exceeding USD 2,500,000 are rendered against the Borrower and remain undischarged for sixty (60) consecutive days."),
    ]),
    "liability": ("Limitations", [
        ("Mitigation", "Each Party shall take all reasonable steps to mitigate any loss or damage it suffers or incurs in connection with this Agreement."),
    ]),
    "general": ("General", [
        ("Notices", "Any notice given under this Agreement shall be in writing and shall be delivered by hand, by pre-paid recorded delivery or by e-mail to the address of the relevant Party set out at the head of this Agreement, and shall be deemed received on the Business Day after it is sent."),
        ("Force Majeure", "Neither Party shall be in breach of this Agreement nor liable for delay in performing its obligations if such delay results from events, circumstances or causes beyond its reasonable control, provided that the affected Party promptly notifies the other Party and uses reasonable endeavours to resume performance."),
        ("Entire Agreement", "This Agreement constitutes the entire agreement between the Parties and supersedes all previous agreements, promises, assurances, warranties, representations and understandings between them relating to its subject matter."),
        ("Severance", "If any provision of this Agreement is or becomes invalid, illegal or unenforceable, it shall be deemed modified to the minimum extent necessary to make it valid, and the remaining provisions shall not be affected."),
        ("Waiver", "No failure or delay by a Party to exercise any right or remedy provided under this Agreement or by law shall constitute a waiver of that or any other right or remedy, nor shall it prevent or restrict its further exercise."),
        ("No Partnership", "Nothing in this Agreement is intended to, or shall be deemed to, establish any partnership or joint venture between the Parties, or constitute either Party the agent of the other for any purpose."),
        ("Third Party Rights", "A person who is not a Party to this Agreement shall have no right to enforce any of its terms."),
        ("Counterparts", "This Agreement may be executed in any number of counterparts, each of which when executed shall constitute a duplicate original, but all the counterparts together shall constitute one agreement."),
    ]),
}

GENERIC_DEFINITIONS = [
    ("Affiliate", "means, in relation to a person, any entity that directly or indirectly controls, is controlled by or is under common control with that person from time to time"),
    ("Business Day", "means a day other than a Saturday, Sunday or public holiday on which banks are open for general business in {city}"),
    ("Effective Date", "means the date of this Agreement set out above"),
    ("Term", "means the period during which this Agreement remains in force in accordance with its terms"),
    ("Intellectual Property Rights", "means patents, rights to inventions, copyright and related rights, trade marks, rights in designs, rights in computer software, database rights, rights in confidential information and all other intellectual property rights, whether registered or unregistered"),
    ("Confidential Information", "means all information of a confidential nature disclosed by or on behalf of a Party, in any form, including information relating to its business, customers, products, software and know-how"),
    ("Territory", "means {territory}"),
    ("Contract Year", "means each period of twelve (12) months beginning on the Effective Date or an anniversary of it"),
]

COC_DEFINITION = ("Change of Control", "means any transaction or series of related transactions as a result of which a person, or persons acting in concert, who did not previously control a Party acquire control of that Party, or acquire all or substantially all of its assets, and \"control\" means the power to direct the management and policies of an entity, whether through the ownership of voting securities, by contract or otherwise")

# Procedural text for schedules of long agreements; combined with product data in synth.contract.
SCHEDULE_PARAGRAPHS = [
    "Each shipment shall be accompanied by a certificate of conformance signed by an authorised quality representative of {seller}, confirming that the Products in the shipment were manufactured, inspected and tested in accordance with the Specifications and the agreed control plan.",
    "First article inspection reports shall be provided for each new part number, and for each existing part number following any change to tooling, sub-tier suppliers or the manufacturing location.",
    "Electrostatic discharge sensitive components shall be handled in an ESD-protected area in accordance with IEC 61340-5-1 and packed in shielding bags bearing the appropriate warning label.",
    "Moisture sensitive devices shall be dry-packed with desiccant and a humidity indicator card, and the moisture sensitivity level shall be stated on the outer label of each package.",
    "Traceability shall be maintained from each finished Product to the lot numbers of its principal components and raw materials for not less than ten (10) years after the date of manufacture.",
    "Calibration of all measuring and test equipment used in the manufacture of the Products shall be performed at intervals not exceeding twelve (12) months against standards traceable to national measurement standards.",
    "Statistical process control shall be applied to each critical characteristic identified in the Specifications, and the process capability index for each such characteristic shall be maintained at or above 1.33.",
    "Any deviation from the Specifications requires a written deviation request approved by the engineering function of {buyer} before the affected Products are shipped.",
]
