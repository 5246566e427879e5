"""`python -m app`: see app/launch.py."""

from app.launch import main

raise SystemExit(main())
