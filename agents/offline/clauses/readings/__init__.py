"""The readers of each item family: what a clause of that family says, field by field (clause_parts.ClauseReading).

- transfer: change of control, assignment, termination for convenience, debt provisions
- rights: exclusivity, MFN, ROFR, IP ownership, licences, confidentiality, third parties, non-disparagement
- money: caps and what escapes them, indemnities, audits, minimums, revenue sharing, prices, damages, warranties
- term: governing law, term and renewal, what continues after the end, litigation
"""
