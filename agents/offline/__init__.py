"""Built-in offline contract reviewer (no LLM endpoint needed)."""

from agents.offline.reviewer import OfflineReviewer, ReviewStats

__all__ = ["OfflineReviewer", "ReviewStats"]
