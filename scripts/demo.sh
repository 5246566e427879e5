#!/usr/bin/env bash
# Set up, ingest the bundled sample data room and start the app on the
# offline reviewer (no endpoint, no network needed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/python -m ingest assets/sample_room --room sample --update  # re-running the demo re-syncs the room
exec .venv/bin/python -m streamlit run app/main.py \
  --server.address "${DATAROOM_APP__HOST:-127.0.0.1}" --server.port "${DATAROOM_APP__PORT:-8501}" \
  --server.headless true --browser.gatherUsageStats false
