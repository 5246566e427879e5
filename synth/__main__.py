"""CLI: python -m synth sample|room|rubric|score ..."""

from synth.cli import main

raise SystemExit(main())
