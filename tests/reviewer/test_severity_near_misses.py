"""Severity of look-alikes: the checklist's rules must not grade a near-miss as a red flag."""

from __future__ import annotations

import pytest

from core.checklist import load_checklist
from core.settings import ASSETS
from core.types import Severity

from agents.offline.clauses.conditions import severity_for

ITEMS = {i.id: i for i in load_checklist(ASSETS / "checklist.yaml")}


@pytest.mark.parametrize("item, quote, expected", [
    # a permitted transfer to a merger successor is the opposite of a consent requirement
    ("lease_assignment", "Tenant may, without Landlord's consent, assign this Lease to any successor entity resulting "
     "from a merger, provided that Tenant gives Landlord written notice within thirty (30) days.", Severity.low),
    ("lease_assignment", "Tenant may not assign this Lease or sublet the Premises without Landlord's prior written "
     "consent, and a change of control of Tenant is an assignment.", Severity.high),
    ("anti_assignment", "Neither party may, without the prior written consent of the other party, assign this "
     "Agreement.", Severity.medium),
    # a cap that covers indemnities is not uncapped liability; a carve-out from the cap is
    ("uncapped_liability", "The total aggregate liability of Supplier, including under any indemnity, shall not exceed "
     "one hundred and fifty percent (150%) of the Fees paid in the preceding twelve (12) months.", Severity.low),
    # a cap stated as an amount; keeping fees that are due payable is not a carve-out of exposure
    ("uncapped_liability", "Each Party's liability under this Agreement, including liability under the indemnities in "
     "Section 12.4, is limited in aggregate to USD 2,500,000, save that this cap shall not operate to limit the payment "
     "of Fees properly due.", Severity.low),
    ("uncapped_liability", "Liability for fraud shall not be limited; otherwise each party's liability is limited in "
     "aggregate to USD 1,000,000.", Severity.high),
    ("uncapped_liability", "The limitations in Section 9.2 shall not apply to Supplier's liability under its indemnity "
     "for infringement of third-party intellectual property rights.", Severity.high),
    # a duty to inform, nothing more, on a change of control
    ("change_of_control", "If Supplier undergoes a Change of Control, this Agreement shall continue in full force and "
     "effect, and Supplier's only obligation shall be to inform Customer of the identity of its new controlling "
     "shareholder within sixty (60) days.", Severity.low),
    ("change_of_control", "Customer may terminate this Agreement upon written notice if Supplier undergoes a Change of "
     "Control.", Severity.high),
])
def test_look_alikes_are_graded_below_the_red_flag(item, quote, expected):
    assert severity_for(ITEMS[item], quote)[0] == expected
