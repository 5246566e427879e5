"""A run's end: findings no longer live regraded (the lifecycle pass) and the run's artifacts written (export)."""
