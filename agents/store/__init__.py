"""The review store: runs, findings, reviewer decisions, memo versions, coverage.

`review` holds the store class, `backend` its connection (SQLite or PostgreSQL); the mixins beside it
(`coverage`, `decisions`, `memo_versions`) each own one part of its surface and
`models` the schema and the plain records the app reads.
"""

from agents.store.backend import Conflict
from agents.store.review import ReviewStore, open_review_store, settings_snapshot

__all__ = ["Conflict", "ReviewStore", "open_review_store", "settings_snapshot"]
