"""Synthetic data rooms with planted clauses, ground truth, rubric and scorer."""
