#!/usr/bin/env bash
# E-mail over SMTP against a real SMTP server (issue 12, "An SMTP test"): makes (once) a venv under
# .build/smtp-venv with Tests/Interop/smtp-requirements.txt (aiosmtpd from PyPI) and runs
# Tests/Interop/smtp_delivery.py, which starts the SMTP servers (STARTTLS with a certificate it makes
# with openssl, AUTH) and `latchd serve` from the already built binary, and stops them however it ends.
# Usage: Tests/Interop/run-smtp-tests.sh [path/to/latchd]   (default .build/debug/latchd)
set -euo pipefail
cd "$(dirname "$0")/../.."
LATCHD="${1:-.build/debug/latchd}"
[ -x "$LATCHD" ] || { echo "smtp: $LATCHD is not built (run swift build first)" >&2; exit 1; }
command -v openssl >/dev/null || { echo "smtp: openssl is needed to make the test certificate" >&2; exit 1; }

VENV=.build/smtp-venv
REQUIREMENTS=Tests/Interop/smtp-requirements.txt
if ! [ -x "$VENV/bin/python" ] || ! cmp -s "$REQUIREMENTS" "$VENV/requirements.txt"; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQUIREMENTS"
  cp "$REQUIREMENTS" "$VENV/requirements.txt"
fi

export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
exec "$VENV/bin/python" Tests/Interop/smtp_delivery.py "$LATCHD"
