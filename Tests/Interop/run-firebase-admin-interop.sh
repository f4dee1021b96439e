#!/usr/bin/env bash
# firebase-admin from PyPI against the built latchd in emulator mode (reference/firebase-auth-protocol.md § 6):
# makes (once) a venv under .build/interop-venv with Tests/Interop/requirements.txt, starts
# `latchd serve --emulator` from the already built binary on a free loopback port with a temporary
# data directory, makes an API key with `latchd client create --api-key`, runs
# Tests/Interop/firebase_admin_interop.py, and stops latchd however the script ends.
# Usage: Tests/Interop/run-firebase-admin-interop.sh [path/to/latchd]   (default .build/debug/latchd)
set -euo pipefail
cd "$(dirname "$0")/../.."
LATCHD="${1:-.build/debug/latchd}"
[ -x "$LATCHD" ] || { echo "interop: $LATCHD is not built (run swift build first)" >&2; exit 1; }

VENV=.build/interop-venv
REQUIREMENTS=Tests/Interop/requirements.txt
if ! [ -x "$VENV/bin/python" ] || ! cmp -s "$REQUIREMENTS" "$VENV/requirements.txt"; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQUIREMENTS"
  cp "$REQUIREMENTS" "$VENV/requirements.txt"
fi

DATA="$(mktemp -d)"
LOG="$DATA/latchd.log"
PID=""
cleanup() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
    kill "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
  fi
  rm -rf "$DATA"
}
trap cleanup EXIT INT TERM

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
"$LATCHD" serve --emulator --listen "127.0.0.1:$PORT" --data-dir "$DATA/data" --durability normal >"$LOG" 2>&1 &
PID=$!
for _ in $(seq 1 100); do
  if curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then break; fi
  kill -0 "$PID" 2>/dev/null || { cat "$LOG" >&2; echo "interop: latchd did not start" >&2; exit 1; }
  sleep 0.1
done
grep -q "EMULATOR MODE" "$LOG" || { cat "$LOG" >&2; echo "interop: latchd did not announce emulator mode" >&2; exit 1; }

API_KEY="interop-$(python3 -c 'import secrets; print(secrets.token_hex(12))')"
"$LATCHD" client create --id firebase-interop --api-key "$API_KEY" --data-dir "$DATA/data" >/dev/null

status=0
LATCH_BIN="$(dirname "$LATCHD")/latch" "$VENV/bin/python" Tests/Interop/firebase_admin_interop.py "127.0.0.1:$PORT" "$API_KEY" default || status=$?
if [ "$status" -ne 0 ]; then
  echo "interop: latchd log follows" >&2
  tail -n 50 "$LOG" >&2
fi
exit "$status"
