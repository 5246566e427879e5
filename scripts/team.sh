#!/usr/bin/env bash
# Team mode on one machine: PostgreSQL (review store and run checkpoints) and a Chroma server (vectors),
# both on loopback with their data in the workspace, then the app.
#
#   scripts/team.sh            set up, start PostgreSQL and Chroma if they are not running, start the app
#   scripts/team.sh services   only start the services (idempotent)
#   eval "$(scripts/team.sh env)"   the settings the app, `python -m ingest` and run workers need
#   scripts/team.sh stop       stop both services (their data stays in $DATAROOM_WORKSPACE/team)
#
# Ports: TEAM_PG_PORT (default 5433) and TEAM_CHROMA_PORT (default 8008). The database password is
# generated once into team/pg.password (mode 600); PostgreSQL accepts only password logins over 127.0.0.1.
# Sign-in is separate: without .streamlit/secrets.toml the app stays on loopback for one person
# (README, "Team sign-in").
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WS=${DATAROOM_WORKSPACE:-workspace}
case "$WS" in /*) ;; *) WS=$ROOT/$WS ;; esac
TEAM=$WS/team
PG_PORT=${TEAM_PG_PORT:-5433}
CHROMA_PORT=${TEAM_CHROMA_PORT:-8008}

log() { echo "team: $*" >&2; }

pg_bin() {  # Debian keeps the server binaries off PATH, in /usr/lib/postgresql/<version>/bin
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"
    return
  fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  [ -n "$d" ] && [ -x "$d/initdb" ] && echo "$d"
}

ensure_postgres() {
  [ -n "$(pg_bin)" ] && return 0
  log "installing PostgreSQL (Debian package postgresql)"
  local sudo=""
  [ "$(id -u)" = "0" ] || sudo=sudo
  $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql
}

as_pg() {  # initdb and postgres refuse to run as root
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_running() { [ -f "$TEAM/pg/postmaster.pid" ] && as_pg "$(pg_bin)/pg_ctl" -D "$TEAM/pg" status >/dev/null 2>&1; }

start_postgres() {
  local bin; bin=$(pg_bin)
  mkdir -p "$TEAM"
  if [ ! -f "$TEAM/pg.password" ]; then
    (umask 077; .venv/bin/python -c "import secrets; print(secrets.token_urlsafe(24))" >"$TEAM/pg.password")
  fi
  if [ "$(id -u)" = "0" ] && ! runuser -u postgres -- test -x "$TEAM"; then
    log "PostgreSQL runs as the postgres user, who cannot reach $TEAM: use a workspace outside /root and private"
    log "folders (DATAROOM_WORKSPACE), or run this script as an ordinary user"
    exit 1
  fi
  if [ ! -f "$TEAM/pg/PG_VERSION" ]; then
    mkdir -p "$TEAM/pg"
    [ "$(id -u)" = "0" ] && chown postgres "$TEAM/pg" && cp "$TEAM/pg.password" "$TEAM/pg.init" && chown postgres "$TEAM/pg.init"
    [ "$(id -u)" = "0" ] || cp "$TEAM/pg.password" "$TEAM/pg.init"
    # C collation: the store's lists sort as they do on SQLite
    as_pg "$bin/initdb" -D "$TEAM/pg" -U dataroom --pwfile="$TEAM/pg.init" --auth-host=scram-sha-256 \
      --auth-local=scram-sha-256 --no-locale -E UTF8 >"$TEAM/pg-init.log"
    rm -f "$TEAM/pg.init"
  fi
  if pg_running; then return 0; fi
  [ "$(id -u)" = "0" ] && chown postgres "$TEAM" 2>/dev/null || true
  as_pg "$bin/pg_ctl" -D "$TEAM/pg" -l "$TEAM/pg/server.log" -w -t 60 \
    -o "-p $PG_PORT -k $TEAM/pg -c listen_addresses=127.0.0.1" start >/dev/null
  PGPASSWORD=$(cat "$TEAM/pg.password") .venv/bin/python - "$PG_PORT" <<'EOF'
import os, sys
import psycopg
port = sys.argv[1]
with psycopg.connect(f"postgresql://dataroom@127.0.0.1:{port}/postgres", password=os.environ["PGPASSWORD"], autocommit=True) as con:
    if not con.execute("SELECT 1 FROM pg_database WHERE datname = 'dataroom'").fetchone():
        con.execute("CREATE DATABASE dataroom")
EOF
  log "PostgreSQL on 127.0.0.1:$PG_PORT (data: $TEAM/pg)"
}

chroma_running() { [ -f "$TEAM/chroma.pid" ] && kill -0 "$(cat "$TEAM/chroma.pid")" 2>/dev/null; }

start_chroma() {
  mkdir -p "$TEAM/chroma"
  if chroma_running; then return 0; fi
  # no telemetry: the app makes no outbound connection, and neither does its vector server
  ANONYMIZED_TELEMETRY=False nohup .venv/bin/chroma run --path "$TEAM/chroma" --host 127.0.0.1 --port "$CHROMA_PORT" \
    >"$TEAM/chroma.log" 2>&1 &
  echo $! >"$TEAM/chroma.pid"
  for _ in $(seq 1 240); do
    if .venv/bin/python -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 0.5).close()" \
         "$CHROMA_PORT" 2>/dev/null; then
      log "Chroma on 127.0.0.1:$CHROMA_PORT (data: $TEAM/chroma)"
      return 0
    fi
    chroma_running || { log "Chroma did not start; see $TEAM/chroma.log"; exit 1; }
    sleep 0.25
  done
  log "Chroma did not answer on port $CHROMA_PORT within 60 s; see $TEAM/chroma.log"
  exit 1
}

print_env() {
  local pw; pw=$(cat "$TEAM/pg.password")
  cat <<EOF
export DATAROOM_WORKSPACE='$WS'
export DATAROOM_DATABASE__URL='postgresql://dataroom:$pw@127.0.0.1:$PG_PORT/dataroom'
export DATAROOM_CHROMA__MODE=http
export DATAROOM_CHROMA__HOST=127.0.0.1
export DATAROOM_CHROMA__PORT=$CHROMA_PORT
EOF
}

stop_all() {
  if chroma_running; then kill "$(cat "$TEAM/chroma.pid")" && log "Chroma stopped"; fi
  rm -f "$TEAM/chroma.pid"
  if [ -n "$(pg_bin)" ] && pg_running; then as_pg "$(pg_bin)/pg_ctl" -D "$TEAM/pg" -m fast -w stop >/dev/null && log "PostgreSQL stopped"; fi
}

case "${1:-app}" in
  services|app)
    scripts/setup.sh
    ensure_postgres
    start_postgres
    start_chroma
    if [ "${1:-app}" = "app" ]; then
      eval "$(print_env)"
      exec .venv/bin/python -m app
    fi
    ;;
  env) print_env ;;
  stop) stop_all ;;
  *) echo "usage: scripts/team.sh [app|services|env|stop]" >&2; exit 2 ;;
esac
