"""agents.facts on hand-written agreements (none copied from CUAD): parties, dates, term, law, title."""

from __future__ import annotations

from agents.facts import extract_facts, party_names, resolve_party

DISTRIBUTION = """EXCLUSIVE DISTRIBUTION AGREEMENT

This Exclusive Distribution Agreement (the "Agreement") is made and entered into as of the 3rd day of March, 2021 \
(the "Effective Date") by and between Halvorsen Pumps, Inc., a Delaware corporation having its principal office at \
12 Main Street, Dover, Delaware 19901 ("Supplier"), and Blue Ridge Trading LLC, a Virginia limited liability company \
("Distributor"). Supplier and Distributor are each a "Party" and together the "Parties".

WHEREAS, Supplier manufactures industrial pumps; and

WHEREAS, Distributor wishes to resell them for Convenience of its customers.

1. Definitions. "Territory" means the Commonwealth of Virginia.

2. Term. This Agreement shall commence on the Effective Date and continue for a period of five (5) years from the \
Effective Date, and shall automatically renew for successive one (1) year periods unless either Party gives ninety (90) \
days' prior written notice of non-renewal.

3. Confidentiality. During the term of this Agreement and for a period of seven (7) years thereafter, each Party shall \
keep the other's information confidential.

14. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State of \
New York, without regard to its conflict of laws principles.

IN WITNESS WHEREOF, the Parties have executed this Agreement as of the Effective Date.

HALVORSEN PUMPS, INC.                BLUE RIDGE TRADING LLC
By: /s/ Ann Example                  By: /s/ Bo Example
"""


def test_preamble_parties_with_defined_terms_and_spans():
    f = extract_facts(DISTRIBUTION)
    assert party_names(f) == ["Halvorsen Pumps, Inc.", "Blue Ridge Trading LLC"]
    assert [p.role for p in f.parties] == ["Supplier", "Distributor"]
    for p in f.parties:
        assert DISTRIBUTION[p.span[0]:p.span[1]] == p.name
    assert f.title == "EXCLUSIVE DISTRIBUTION AGREEMENT"
    assert DISTRIBUTION[f.title_span[0]:f.title_span[1]] == f.title


def test_resolve_party_by_role_name_and_never_a_generic_word():
    f = extract_facts(DISTRIBUTION)
    assert resolve_party(f, "Distributor").name == "Blue Ridge Trading LLC"
    assert resolve_party(f, "halvorsen pumps, inc.").role == "Supplier"
    for word in ("Agreement", "Effective Date", "Party", "Parties", "Convenience", "Territory", ""):
        assert resolve_party(f, word) is None, word
    assert all(p.role not in ("Agreement", "Effective Date", "Party", "Parties") for p in f.parties)


def test_dates_term_and_governing_law():
    f = extract_facts(DISTRIBUTION)
    assert f.agreement_date == "2021-03-03"
    assert f.effective_date == "2021-03-03"
    # five years from the Effective Date, not the seven-year confidentiality tail
    assert f.expiration == "2026-03-03"
    assert f.term == "5 years from the Effective Date, renewing for 1-year periods unless 90 days' notice"
    assert f.governing_law == "New York"
    assert DISTRIBUTION[f.governing_law_span[0]:f.governing_law_span[1]] == "New York"
    assert "2021" in DISTRIBUTION[f.agreement_date_span[0]:f.agreement_date_span[1]]


AMENDMENT = """SECOND AMENDMENT TO MASTER SERVICES AGREEMENT

This Second Amendment (this "Amendment") to the Master Services Agreement dated January 5, 2016 between \
Orchard Analytics Ltd. ("Orchard") and Kestrel Hospital Group plc ("Kestrel") (the "Agreement") is made on \
14 September 2019.

1. Clause 9 of the Agreement is deleted.

2. The term of this Agreement shall expire on 31 December 2022.

3. This Amendment is governed by the laws of England and Wales.
"""


def test_amendment_own_date_not_the_amended_agreements():
    f = extract_facts(AMENDMENT)
    assert f.agreement_date == "2019-09-14"
    assert f.effective_date is None
    assert f.expiration == "2022-12-31"
    assert f.governing_law == "England and Wales"
    assert [(p.name, p.role) for p in f.parties] == [("Orchard Analytics Ltd.", "Orchard"),
                                                     ("Kestrel Hospital Group plc", "Kestrel")]


JOINT_VENTURE = """COOPERATION AGREEMENT

THIS COOPERATION AGREEMENT is entered into as of May 2, 2018 by and among (a) a consortium formed by Larchmont \
Capital, Inc. ("Larchmont") and Ferro Partners LLC ("Ferro" and, together with Larchmont, the "Sponsor"), and \
(b) Northwind Logistics Corp., a Nevada corporation organized under the laws of the State of Nevada ("Northwind").

RECITALS

A. The Sponsor wishes to invest.

7. GOVERNING LAW. THIS AGREEMENT SHALL BE GOVERNED BY THE LAWS OF THE STATE OF DELAWARE.
"""


def test_collective_term_is_an_alias_and_incorporation_is_not_governing_law():
    f = extract_facts(JOINT_VENTURE)
    assert party_names(f) == ["Larchmont Capital, Inc.", "Ferro Partners LLC", "Northwind Logistics Corp."]
    # "Ferro ... and, together with Larchmont, the Sponsor": the term is both parties', never Ferro's alone
    assert [p.name for p in f.parties if "Sponsor" in p.aliases] == ["Larchmont Capital, Inc.", "Ferro Partners LLC"]
    assert resolve_party(f, "Sponsor").name in ("Larchmont Capital, Inc.", "Ferro Partners LLC")
    assert resolve_party(f, "Northwind").name == "Northwind Logistics Corp."
    assert f.agreement_date == "2018-05-02"
    assert f.governing_law == "Delaware"  # not Nevada, where Northwind is organised


COVER_ONLY = """LICENSE AGREEMENT

BETWEEN

SABLE MEDIA GROUP, INC.

AND

TERRACE SOFTWARE CORPORATION

1. Grant. Licensor grants Licensee a licence. This Agreement shall continue in perpetuity unless terminated.

IN WITNESS WHEREOF, the parties have signed this Agreement.

SABLE MEDIA GROUP, INC.            TERRACE SOFTWARE CORPORATION
By: /s/ C. Example                 By: /s/ D. Example
Date: June 3, 2015                 Date: June 9, 2015
"""


def test_cover_page_parties_and_signature_date():
    f = extract_facts(COVER_ONLY)
    assert party_names(f) == ["SABLE MEDIA GROUP, INC.", "TERRACE SOFTWARE CORPORATION"]
    assert all(p.role == "" for p in f.parties)
    assert f.agreement_date == "2015-06-09"  # when the last party signed
    assert f.expiration is None and f.term.startswith("perpetual")
    assert f.governing_law == ""


SIGNATURES_ONLY = """SERVICES AGREEMENT

The undersigned agree that the services described in Schedule 1 will be provided on the terms below.

1. Fees are payable monthly.

IN WITNESS WHEREOF, the undersigned execute this agreement as of October 1, 2012.

Kittering Data Services, LLC
By: /s/ E. Example
Authorized Signatory Corvid Freight Holdings Ltd.
By: /s/ F. Example
"""


def test_signature_block_parties_and_witness_date():
    f = extract_facts(SIGNATURES_ONLY)
    assert party_names(f) == ["Kittering Data Services, LLC", "Corvid Freight Holdings Ltd."]
    assert f.agreement_date == "2012-10-01"


def test_nothing_found_is_said_plainly():
    f = extract_facts("Meeting notes. We discussed the budget and agreed to meet again.")
    assert f.parties == [] and f.title == ""
    assert f.agreement_date is None and f.effective_date is None and f.expiration is None
    assert f.term == "" and f.governing_law == ""


def test_long_contract_reads_preamble_tail_and_clauses():
    body = "\n\n".join(f"{i}. Miscellaneous. The parties shall co-operate in good faith on item {i}." for i in range(3000))
    text = DISTRIBUTION.replace("14. Governing Law.", body + "\n\n14. Governing Law.")
    assert len(text) > 200_000  # about 70 pages
    f = extract_facts(text)
    assert f.governing_law == "New York" and len(f.parties) == 2 and f.expiration == "2026-03-03"


LOOSE = """SUPPLY AGREEMENT

This Supply Agreement is made and entered into effective as of June 1 , 2010 by and between Quarry Stone Co., \
an Ohio corporation (\u2018Seller\u2019), and Millbrook Builders, Inc. (\u2018Buyer\u2019).

1. "Effective Date" means the date on which the last Party signs this Agreement.

IN WITNESS WHEREOF the parties have signed below.

QUARRY STONE CO.              MILLBROOK BUILDERS, INC.
Date: May 28, 2010            Date: June 2, 2010
"""


def test_loose_comma_single_quotes_and_made_effective():
    f = extract_facts(LOOSE)
    assert [(p.name, p.role) for p in f.parties] == [("Quarry Stone Co.", "Seller"), ("Millbrook Builders, Inc.", "Buyer")]
    # "made ... effective as of" is the one date the agreement bears: its date and its effective date
    assert f.effective_date == "2010-06-01"
    assert f.agreement_date == "2010-06-01"


def test_effective_date_defined_as_last_signature():
    text = LOOSE.replace("is made and entered into effective as of June 1 , 2010 by", "is entered into by")
    f = extract_facts(text)
    assert f.effective_date == "2010-06-02" and f.agreement_date == "2010-06-02"


UK_STYLE = """THIS AGREEMENT is made on the 4th of February 2019

BETWEEN:

(1) HARBOUR FREIGHT LIMITED, a company incorporated in England (company number 01234567) whose registered office is \
at 1 Dock Road, Bristol ("Harbour"); and

(2) ALDER LOGISTICS GMBH, a company incorporated in Germany ("Alder").

1. The Agreement shall continue for an initial term commencing on the date of this Agreement and ending on the third \
(3rd) anniversary of it, and shall be effective as of the date first written above.

2. This Agreement is governed by the laws of England and Wales.
"""


def test_numbered_uk_preamble_ordinal_anniversary_and_effective_as_dated():
    f = extract_facts(UK_STYLE)
    assert [(p.name, p.role) for p in f.parties] == [("HARBOUR FREIGHT LIMITED", "Harbour"),
                                                     ("ALDER LOGISTICS GMBH", "Alder")]
    assert f.agreement_date == "2019-02-04"
    assert f.effective_date == "2019-02-04"  # "effective as of the date first written above"
    assert f.expiration == "2022-02-04"
    assert f.governing_law == "England and Wales"


LABELLED = """EQUIPMENT PURCHASE CONTRACT

Party A: Lanting Precision Machinery Co., Ltd.
Address: 8 Example Road, Suzhou

Party B: Corvel Instruments Inc.
Address: 20 Sample Street, Boston

Party A and Party B agree as follows.
"""


def test_labelled_party_list():
    f = extract_facts(LABELLED)
    assert [(p.name, p.role) for p in f.parties] == [("Lanting Precision Machinery Co., Ltd.", "Party A"),
                                                     ("Corvel Instruments Inc.", "Party B")]
    assert resolve_party(f, "Party B").name == "Corvel Instruments Inc."


def test_a_party_named_in_a_forms_cover_block_is_found():
    # a form agreement names one party in its preamble and the other in a labelled block after it
    text = ('THIS RESELLER AGREEMENT (this "Agreement") is made the 7th day of April, 2017, by and between Acme '
            'Integration, LLC ("Reseller"), a Virginia limited liability company, and the company set forth below '
            '("Company") (each a "party"):   Company: Northwind Software, Inc. (NWS) Telephone: 1-866-000-0000\n\n'
            'Address: 1 Main Street\n\n1. Appointment. Company appoints Reseller as a non-exclusive reseller.\n'
            + "".join(f"{n}. Terms. Reseller shall resell the products in the territory on the terms set out here.\n"
                      for n in range(2, 80))
            + "IN WITNESS WHEREOF, the parties have signed this Agreement.\nRESELLER: By: ______\nCOMPANY: By: ______\n")
    names = [(p.name, p.role) for p in extract_facts(text).parties]
    assert names == [("Acme Integration, LLC", "Reseller"), ("Northwind Software, Inc.", "Company")]


def test_a_title_line_keeps_the_name_and_leaves_the_date():
    text = "AFFILIATE AGREEMENT DATED JULY 15, 2005\n\nThis Affiliate Agreement is made by and between Acme, Inc. and Beta LLC."
    assert extract_facts(text).title.upper() == "AFFILIATE AGREEMENT"
    # a brand's lower-case prefix ("e-business") does not make the heading a sentence
    cover = "Exhibit 10.27\n\n   e-business Hosting Agreement\n\n   between\n\n   Acme, Inc.\n\n   and\n\n   Beta LLC\n"
    assert extract_facts(cover).title == "e-business Hosting Agreement"
    # the term a heading defines is not part of the name
    defined = "PROMOTION AGREEMENT (the \u201cAgreement\u201d)\n\nThis agreement is made by and between Acme, Inc. and Beta LLC."
    assert extract_facts(defined).title == "PROMOTION AGREEMENT"


def test_the_preamble_line_gives_the_name_not_the_sentence():
    # PDF text puts the preamble's first line on its own; the name is the words before its definition
    pdf = ('Exhibit 10.28\n\nTHIS PRODUCT SALE AND MARKETING AGREEMENT (this \u201cAgreement\u201d) is made this 12th day of '
           'November, 2018 (the \u201cEffective\n\nDate\u201d), by and between Calm.com, Inc. ("Calm") and XpresSpa Group, '
           'Inc. ("XSPA").')
    assert extract_facts(pdf).title == "PRODUCT SALE AND MARKETING AGREEMENT"
    # a text file keeps the whole preamble on one line
    assert extract_facts(pdf.replace("\n\n", " ")).title == "PRODUCT SALE AND MARKETING AGREEMENT"
    # "THIS AGREEMENT" names no kind of instrument; the later "This Supply Agreement" does
    assert extract_facts('THIS AGREEMENT is binding. This Supply Agreement is made by and between Acme, Inc. ("Acme") '
                         'and Beta LLC ("Beta").').title == "Supply Agreement"


def test_a_period_of_the_term_is_not_the_term():
    # a definition's "the first Calendar Year of the Term shall ... end on December 31, 2019" dated the licence's
    # expiry two weeks after signing, and the memo filed every finding of it as no longer live
    text = ('This License Agreement is made as of December 17, 2019 by and between Vyera Pharmaceuticals, LLC ("Vyera") '
            'and CytoDyn Inc. ("CytoDyn").\n\n1.18 "Calendar Year" means the twelve-month period ending on December 31; '
            'provided that the first Calendar Year of the Term shall begin on the Effective Date and end on December 31, '
            '2019.\n\n13.1 Term. The term of this Agreement shall be ten (10) years from the Effective Date.')
    f = extract_facts(text)
    assert f.expiration != "2019-12-31"
    assert f.term.startswith("10 years")


def test_a_name_wrapped_over_a_pdf_line_break_is_read_whole():
    # no "between": a confirmation letter; the PDF's blank line after each printed line falls inside the name
    text = ("DISTRIBUTION AGREEMENT\n\nMarch 2, 2021\n\nThis is to confirm that, in consideration of the agreements "
            "herein contained, the undersigned, the Northwind Tax-Free\n\nIncome Fund, (the \u201cFund\u201d), a series "
            "of a Delaware statutory trust, has agreed that Halvorsen Distributors, LLC, (\u201cHalvorsen\u201d), shall "
            "be the principal underwriter of shares issued by the Fund.\n\n"
            "The Fund is located at 1 Main Street, Dover, DE 19901 (\u201cOffice\u201d).\n\n"
            + "".join(f"{n}. Terms. Halvorsen shall offer the shares on the terms set out in the prospectus.\n"
                      for n in range(1, 40)))
    names = [(" ".join(p.name.split()), p.role) for p in extract_facts(text).parties]
    assert names == [("Northwind Tax-Free Income Fund", "Fund"), ("Halvorsen Distributors, LLC", "Halvorsen")]


def test_a_stray_full_stop_after_a_company_suffix_is_not_part_of_the_name():
    text = ('This agreement ("Agreement") is made by and between Halvorsen Pumps Corporation. ("Halvorsen") and '
            'Blue Ridge Trading, Inc. ("Distributor").\n\n'
            + "".join(f"{n}. Terms. Distributor shall resell the products on the terms set out here.\n" for n in range(1, 40)))
    names = [p.name for p in extract_facts(text).parties]
    assert names == ["Halvorsen Pumps Corporation", "Blue Ridge Trading, Inc."]  # "Inc." keeps its stop


def test_a_party_given_its_term_in_the_definitions_is_called_by_it():
    text = ("SOFTWARE AFFILIATE AGREEMENT\n\nThis Agreement entered into as of the Effective Date by and between\n\n"
            "Northwind Devices Corporation and Halvorsen Labs, LLC.\n\nRECITALS\n\n1. Definitions.\n\n\"Halvorsen\" means Halvorsen Labs, LLC, a Maryland limited "
            "liability company.\n\n\"NWD\" means Northwind Devices Corporation, a Delaware corporation.\n\n"
            "\"Territory\" means Northwind Devices Corporation's home market.\n\n"
            + "".join(f"{n}. Terms. NWD shall market the products.\n" for n in range(2, 40)))
    assert [(p.name, p.role) for p in extract_facts(text).parties] == [("Northwind Devices Corporation", "NWD"),
                                                                        ("Halvorsen Labs, LLC", "Halvorsen")]


def test_an_enumerated_party_list_with_addresses_names_each_party_not_an_address():
    # "(c) Name ("Term"), address": the enumerator opens the party's entry; the address before it is the last one's
    text = ('SUPPLY AGREEMENT\n\nThis Supply Agreement ("Agreement") is made as of May 2, 2001, by and among the '
            'following parties:\n\n   (a) Orchard Labs, Inc. ("Orchard"), 40 Elm Street, Suite #12, Boston, '
            'Massachusetts 02110;\n\n   (b) Pine Hollow Co. ("Pine"), 9 Oak Road, Salem, Oregon 97301; and\n\n'
            '   (c) Marlow Optical Group ("Marlow"), 1010 Arch Street, Philadelphia, Pennsylvania 19107.\n\n1. Supply.\n')
    f = extract_facts(text)
    assert party_names(f) == ["Orchard Labs, Inc.", "Pine Hollow Co.", "Marlow Optical Group"]
    # PDF text that writes the semicolons as U+037E, which looks the same
    assert party_names(extract_facts(text.replace(";", "\u037e"))) == party_names(f)


def test_an_address_abroad_and_a_price_lists_footnote_name_no_one():
    # "Nr. 11, Bl. D, ... Apt. 43": an address's abbreviations end no sentence; "SRL" is a company's suffix
    text = ('RESELLER AGREEMENT\n\nThis Agreement is made by and between Harbour Telecom Ltd., having a principal office '
            'at 20 Water Street, Vancouver, British Columbia (\u201cHarbour\u201d) and Delta Voce SRL, having a principal '
            'office at Aleea Florilor, Nr. 11, Bl. D, Scara C, Apt. 43, Constanta, Romania (\u201cDelta\u201d) as of the '
            '1st day of June, 2004.\n\nWHEREAS: Harbour is a wholesale provider.\n\n'
            'SCHEDULE B\n\nNote 1 Co-Branding one time charge $1,350.00\n')
    assert party_names(extract_facts(text)) == ["Harbour Telecom Ltd.", "Delta Voce SRL"]


def test_a_party_named_in_a_recital_or_defined_without_quotes_and_a_form_label_are_read_right():
    # "WHEREAS X is a company ... ("X")": the recital's verb ends the name
    recital = ('Distribution Agreement {***}   WHEREAS ORCHARD is a biotechnology company with offices at 1 Elm Street, '
               'Boston ("ORCHARD") and Pine Hollow Trading Co. LTD is a distributor with offices at 9 Oak Road, Riyadh '
               '(" PINE"), each a "Party", and   WHEREAS ORCHARD owns certain rights.\n\nNOW THEREFORE the Parties agree.')
    f = extract_facts(recital)
    assert party_names(f) == ["ORCHARD", "Pine Hollow Trading Co. LTD"]
    assert f.title == "Distribution Agreement"  # the redaction mark beside the heading is no part of its name
    # "(hereinafter IntriCon)": a defined term without quotes, in the preamble
    bare = ('ALLIANCE AGREEMENT\n\nThis Agreement is entered into as of the 1st day of October, 2008 by and between '
            'Orchard Labs Corporation, a Pennsylvania Corporation having a place of business at 40 Elm Street, Boston '
            '(hereinafter Orchard) and Pine Hollow Pty Ltd a Corporation organized under the laws of Victoria, Australia '
            '(hereinafter Pine Hollow) agree to collaborate.\n\nThe following terms shall have these meanings:\n\n'
            'An Assisted Listening Device ("ALD") is a device.\n')
    assert party_names(extract_facts(bare)) == ["Orchard Labs Corporation", "Pine Hollow Pty Ltd"]
    # a form's "(Address) (City) (State)" labels under the last party, and a Spanish "Av." in an address
    form = ('TRANSPORTATION CONTRACT\n\nTHIS CONTRACT is entered into by and between ORCHARD CARRIERS COMPANY, a '
            'division of Orchard Holdings, ("Carrier"), and PINE PRODUCTS L.P., a Delaware limited partnership, P.O. Box '
            '4324, Houston, TX 77210 ("Shipper"). ----\n\n(Address) (City) (State)\n\nShipper is a dealer of chemicals '
            '("COMMODITIES").\n\nNOW, THEREFORE, the parties agree as follows:\n')
    assert party_names(extract_facts(form)) == ["ORCHARD CARRIERS COMPANY", "PINE PRODUCTS L.P."]
    abroad = ('SUPPLY AGREEMENT This Supply Agreement is made by and between Orchard Labs, Inc., with its place of '
              'business at 1 Elm Street, Wayne, PA 19087 (hereinafter referred to as "ORCHARD"), and Pino Internacional, '
              'S.A., a Spanish corporation with its place of business at Av. Diagonal, 549, 08029 Barcelona (Spain) '
              '(hereinafter referred to as "Pino" and/or "Supplier"). WITNESSETH: WHEREAS, ORCHARD sells products.')
    assert [(p.name, p.role) for p in extract_facts(abroad).parties] == [("Orchard Labs, Inc.", "ORCHARD"),
                                                                           ("Pino Internacional, S.A.", "Pino")]


def test_a_forms_header_date_and_a_term_the_contract_shall_be_for():
    # a form contract: its date is the heading's "Date:" (which the body calls "the date first above written"), and
    # "This contract shall be for a term of one year" is its own duration
    text = ('ORCHARD CARRIERS COMPANY    Contract No. 017    HOUSTON, TX 77210    ______    Date: June 1, 1998\n\n'
            'TRANSPORTATION CONTRACT\n\nTHIS CONTRACT is entered into by and between ORCHARD CARRIERS COMPANY '
            '("Carrier"), and PINE PRODUCTS L.P. ("Shipper").\n\nNOW, THEREFORE, the parties agree as follows:\n\n'
            '4. This contract shall be for a term of one year commencing on the date first above written; thereafter, it '
            'shall continue until terminated by either party on thirty (30) days prior written notice.\n')
    f = extract_facts(text)
    assert f.agreement_date == "1998-06-01"
    assert f.term.startswith("1 year from the date first above written") and f.expiration == "1999-06-01"


def test_a_defined_period_with_its_last_day_is_the_term_when_no_sentence_states_one():
    text = ('SERVICE AGREEMENT\n\nThis Agreement is made on April 1, 2019 between Orchard Labs Ltd. ("Orchard") and Pine '
            'Co., Ltd. ("Pine").\n\n1.5 "Service Period" means April. 1st 2019 through to March 30, 2020.\n\n'
            '2. Pine shall provide the Services during the Service Period.\n')
    f = extract_facts(text)
    assert (f.term, f.expiration) == ("until 2020-03-30", "2020-03-30")
    form = "DISTRIBUTOR AGREEMENT\n\nINITIAL DISTRIBUTION PERIOD:   April 15, 2000 through October 15, 2000\n"
    assert extract_facts(form).expiration == "2000-10-15"


def test_titles_set_over_two_lines_opening_the_preamble_or_in_sentence_case_and_no_legend_or_contents_line():
    legend = ('1\n\nCONFIDENTIAL TREATMENT HAS BEEN REQUESTED FOR CERTAIN REDACTED PROVISIONS OF\n\nTHIS AGREEMENT. THE '
              'REDACTED PROVISIONS ARE IDENTIFIED BY THREE ASTERISKS AND\n\nENCLOSED BY BRACKETS.\n\nSPONSORSHIP AGREEMENT\n\n'
              'This Sponsorship Agreement ("Agreement") is made on February 17, 1999 by and between Orchard Labs, Inc. '
              '("Orchard") and Pine Co. ("Pine").\n')
    assert extract_facts(legend).title == "SPONSORSHIP AGREEMENT"
    opening = ('Exhibit 10.2\n\nSTRATEGIC ALLIANCE AGREEMENT, dated as of December 20, 2019 (this "Agreement"), by and among '
               'Orchard Labs LLC ("Orchard") and Pine Co. ("Pine").\n\nW I T N E S S E T H:\n')
    assert extract_facts(opening).title == "STRATEGIC ALLIANCE AGREEMENT"
    two_lines = ('Exhibit 10.10\n\nASIA PACIFIC CABLE NETWORK 2\n\nCONSTRUCTION AND MAINTENANCE\n\nAGREEMENT\n\nSingapore\n\n'
                 'TABLE OF CONTENTS\n\n7   GENERAL TERMS AND CONDITIONS FOR MAINTENANCE AND SUPPORT   12\n')
    assert extract_facts(two_lines).title == "CONSTRUCTION AND MAINTENANCE AGREEMENT"
    sentence_case = ('Exhibit 4.3\n\n[LOGO] sicap\n\n      Maintenance and support contract        for SICAP(R) modules\n\n'
                     'dated 10 October 2000\n\n7   GENERAL TERMS AND CONDITIONS FOR MAINTENANCE AND SUPPORT   12\n')
    assert extract_facts(sentence_case).title == "Maintenance and support contract"


def test_a_role_noun_makes_a_party_term_and_a_documents_parts_are_no_party():
    text = ('OPERATIONS AND MAINTENANCE AGREEMENT\n\nTHIS OPERATIONS AND MAINTENANCE AGREEMENT (this "Agreement") is made as '
            'of the Effective Date by and between Orchard Tax Partners 1, LLC, a California limited liability company '
            '("Owner"), and Pine Power, Inc. ("Service Provider"). Owner and Service Provider are each a "Party".\n\n'
            'RECITALS\n')
    f = extract_facts(text)
    assert [(p.name, p.role) for p in f.parties] == [("Orchard Tax Partners 1, LLC", "Owner"), ("Pine Power, Inc.", "Service Provider")]
    assert [p.name for p in extract_facts('This Agreement Summary and the General Provisions (the "Agreement") bind '
                                          'the holders of the notes.').parties] == []
