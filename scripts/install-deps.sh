#!/usr/bin/env bash
# Installs the Debian packages Latch builds, tests and benchmarks with, when any is missing
# (python3-venv: the interoperability tests install their PyPI clients into a venv).
# Idempotent and quiet when everything is present. Needs root (or sudo) only when installing.
set -euo pipefail

packages=(libmicrohttpd-dev libsqlite3-dev libpq-dev libssl-dev libargon2-dev libcurl4-openssl-dev pkg-config sqlite3 openssl curl jq python3 python3-venv)
# --bench: wrk drives the load, argon2 (CLI) and python3 (ctypes on libargon2) time one password hash,
# iproute2 (ss) checks the port.
if [ "${1:-}" = "--bench" ]; then packages+=(wrk argon2 python3 iproute2); fi
# --browser (make browser-test, so make test and CI): headless Chromium and its WebDriver for the
# hosted-page tests, and DejaVu for the glyphs (Hebrew too) in their screenshots. Kept out of the
# default set: `make run` needs no browser, and Chromium is some 300 MB.
if [ "${1:-}" = "--browser" ]; then packages+=(chromium chromium-driver fonts-dejavu-core); fi
# --postgres (make test, so CI): the PostgreSQL server whose initdb and pg_ctl make the tests'
# throwaway cluster (scripts/with-postgres.sh). `make run` needs only libpq.
if [ "${1:-}" = "--postgres" ]; then packages+=(postgresql); fi

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
