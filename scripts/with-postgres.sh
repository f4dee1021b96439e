#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL cluster: initdb in a temporary directory, a server on
# a free loopback port (and a private Unix socket), a superuser `latch` with a random password.
# The command sees LATCH_TEST_DATABASE_URL (postgres://latch:…@127.0.0.1:PORT/postgres) and
# LATCH_TEST_POSTGRES_BIN (the server's bin directory). The cluster is stopped and deleted when the
# command ends, whether it passed, failed or was interrupted, and the command's status is returned.
#
# The cluster runs with fsync=off unless LATCH_PG_FSYNC=on: the tests kill latchd processes, never
# the machine, so what they check does not depend on fsync; the benchmarks (make bench STORE=postgres)
# run with it on, so a commit is on disk before it is acknowledged.
#
#   scripts/with-postgres.sh swift test --skip-build
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --postgres

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "with-postgres: no PostgreSQL server binaries under /usr/lib/postgresql" >&2; exit 1; }

directory=$(mktemp -d /tmp/latch-pg.XXXXXX)
chmod 755 "$directory"
as_owner=()
# initdb and the server refuse to run as root; the cluster belongs to the postgres user then.
if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$directory"
    as_owner=(runuser -u postgres --)
fi
password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    "${as_owner[@]}" "$bin/pg_ctl" -D "$directory/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$directory"
}
trap stop EXIT

printf '%s\n' "$password" >"$directory/pwfile"
[ ${#as_owner[@]} -eq 0 ] || chown postgres "$directory/pwfile"
"${as_owner[@]}" "$bin/initdb" -D "$directory/data" -U latch --pwfile="$directory/pwfile" -A scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >"$directory/initdb.log" 2>&1 || { cat "$directory/initdb.log" >&2; exit 1; }
rm -f "$directory/pwfile"
"${as_owner[@]}" "$bin/pg_ctl" -D "$directory/data" -l "$directory/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $directory -c fsync=${LATCH_PG_FSYNC:-off} -c max_connections=400 -c shared_buffers=128MB" \
    start >/dev/null || { cat "$directory/server.log" >&2; exit 1; }

export LATCH_TEST_DATABASE_URL="postgres://latch:$password@127.0.0.1:$port/postgres"
export LATCH_TEST_POSTGRES_BIN="$bin"
export LATCH_TEST_POSTGRES_DATA="$directory/data"
status=0
"$@" || status=$?
exit $status
