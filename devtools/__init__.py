"""Development tools shared by tests and benchmarks (never imported by app/agents/ingest)."""
