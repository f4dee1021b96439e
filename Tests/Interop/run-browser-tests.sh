#!/usr/bin/env bash
# The hosted pages in a real browser, and a standard OAuth client, against the built latchd (issue 11,
# "How it is checked"): makes (once) a venv under .build/browser-venv with
# Tests/Interop/browser-requirements.txt, starts two `latchd serve --dev` children on free loopback
# ports with temporary data directories (one plain HTTP for the browser, one `--tls` with its
# development CA for authlib), then runs
#   Tests/Interop/browser_flow.py  headless Chromium (Debian's chromium + chromium-driver) via selenium;
#   Tests/Interop/authlib_flow.py  authlib's OAuth2Session: code + PKCE, refresh, revocation, ID token.
# Screenshots go to .build/artifacts/browser/ (one PNG per page, English and Hebrew). Each Python
# script runs in a process group of its own, so chromedriver and Chromium go with it; every process
# started here is stopped however the run ends (failure, Ctrl-C, TERM).
# Usage: Tests/Interop/run-browser-tests.sh [path/to/latchd] [--probe]   (default .build/debug/latchd)
#   --probe: only check that the browser works, on pages latchd has served from before the hosted pages.
set -euo pipefail
cd "$(dirname "$0")/../.."
LATCHD="${1:-.build/debug/latchd}"
MODE="${2:-}"
[ -x "$LATCHD" ] || { echo "browser: $LATCHD is not built (run swift build first)" >&2; exit 1; }
for tool in chromium chromedriver; do
  command -v "$tool" >/dev/null || { echo "browser: $tool is missing (scripts/install-deps.sh --browser)" >&2; exit 1; }
done

VENV=.build/browser-venv
REQUIREMENTS=Tests/Interop/browser-requirements.txt
if ! [ -x "$VENV/bin/python" ] || ! cmp -s "$REQUIREMENTS" "$VENV/requirements.txt"; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQUIREMENTS"
  cp "$REQUIREMENTS" "$VENV/requirements.txt"
fi

ARTIFACTS=.build/artifacts/browser
rm -rf "$ARTIFACTS"
mkdir -p "$ARTIFACTS"
ROOT="$(mktemp -d)"
SERVERS=()  # latchd children
SCRIPT_GROUPS=()   # process groups of the Python scripts (with their chromedriver and Chromium)
cleanup() {
  local group pid
  for group in "${SCRIPT_GROUPS[@]}"; do
    kill -TERM -- "-$group" 2>/dev/null || true
  done
  for group in "${SCRIPT_GROUPS[@]}"; do
    for _ in $(seq 1 30); do
      kill -0 -- "-$group" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL -- "-$group" 2>/dev/null || true
  done
  for pid in "${SERVERS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$ROOT"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# start_latchd NAME [serve options...]: starts latchd with data in $ROOT/NAME, log in $ROOT/NAME.log,
# and waits for /healthz; sets PORT.
start_latchd() {
  local name="$1" scheme=http curl_options=()
  shift
  PORT="$(free_port)"
  "$LATCHD" serve --dev "$@" --listen "127.0.0.1:$PORT" --data-dir "$ROOT/$name" --durability normal \
    >"$ROOT/$name.log" 2>&1 &
  SERVERS+=("$!")
  local pid=$!
  if [[ " $* " == *" --tls "* ]]; then scheme=https; fi
  for _ in $(seq 1 150); do
    if [ "$scheme" = https ] && [ -f "$ROOT/$name/dev-ca.pem" ]; then curl_options=(--cacert "$ROOT/$name/dev-ca.pem"); fi
    if curl -fsS "${curl_options[@]}" "$scheme://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then return 0; fi
    kill -0 "$pid" 2>/dev/null || { cat "$ROOT/$name.log" >&2; echo "browser: latchd ($name) did not start" >&2; exit 1; }
    sleep 0.1
  done
  cat "$ROOT/$name.log" >&2
  echo "browser: latchd ($name) did not answer /healthz" >&2
  exit 1
}

# run_script NAME SCRIPT ARGS...: runs a Python script in a session (and process group) of its own.
run_script() {
  local name="$1" status=0
  shift
  setsid "$VENV/bin/python" "$@" &
  local pid=$!
  local group
  group="$(ps -o pgid= "$pid" | tr -d ' ')"
  if [ -n "$group" ] && [ "$group" != "$(ps -o pgid= $$ | tr -d ' ')" ]; then SCRIPT_GROUPS+=("$group"); fi
  wait "$pid" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "browser: $name failed; latchd log ($ROOT/$name.log) follows" >&2
    tail -n 60 "$ROOT/$name.log" >&2
  fi
  return "$status"
}

export SE_OFFLINE=true PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
status=0
start_latchd browser
BROWSER_URL="http://127.0.0.1:$PORT"
if [ "$MODE" = "--probe" ]; then
  run_script browser Tests/Interop/browser_flow.py --probe --base "$BROWSER_URL" --log "$ROOT/browser.log" \
    --latchd "$LATCHD" --data-dir "$ROOT/browser" --artifacts "$ARTIFACTS" || status=$?
  exit "$status"
fi
run_script browser Tests/Interop/browser_flow.py --base "$BROWSER_URL" --log "$ROOT/browser.log" \
  --latchd "$LATCHD" --data-dir "$ROOT/browser" --artifacts "$ARTIFACTS" || status=$?

start_latchd authlib --tls
run_script authlib Tests/Interop/authlib_flow.py --base "https://127.0.0.1:$PORT" --log "$ROOT/authlib.log" \
  --ca-file "$ROOT/authlib/dev-ca.pem" || status=$?
exit "$status"
