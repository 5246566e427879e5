"""The review store: runs, findings, reviewer decisions, memo versions, coverage.

`review` holds the store class and its SQLite connection; the mixins beside it
(`coverage`, `decisions`, `memo_versions`) each own one part of its surface and
`models` the schema and the plain records the app reads.
"""

from agents.store.review import ReviewStore, open_review_store, settings_snapshot

__all__ = ["ReviewStore", "open_review_store", "settings_snapshot"]
