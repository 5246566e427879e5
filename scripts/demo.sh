#!/usr/bin/env bash
# Set up, ingest the bundled sample data room and start the app on the
# offline reviewer (no endpoint, no network needed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# re-running the demo re-syncs the room; the app starts as soon as the room is reviewable (parsed and
# keyword-indexed) while its vectors are filled in behind it (search says so until they are all there)
.venv/bin/python -m ingest assets/sample_room --room sample --update --no-embed
ws="${DATAROOM_WORKSPACE:-workspace}"
mkdir -p "$ws/jobs"
.venv/bin/python -m ingest --finish-embedding --room sample >"$ws/jobs/demo-embedding.log" 2>&1 &
# settings.app.host / port (DATAROOM_APP__HOST, loopback by default), usage statistics off: see app/launch.py
exec .venv/bin/python -m app
