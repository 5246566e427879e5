#!/usr/bin/env bash
# Set up, ingest the bundled sample data room and start the app on the
# offline reviewer (no endpoint, no network needed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/python -m ingest assets/sample_room --room sample --update  # re-running the demo re-syncs the room
# settings.app.host / port (DATAROOM_APP__HOST, loopback by default), usage statistics off: see app/launch.py
exec .venv/bin/python -m app
