"""Drawing shared by the pages: small rendering helpers and the live panels."""
