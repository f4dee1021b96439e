#!/usr/bin/env bash
# bench.sh - load-test a release latchd with wrk, the same way ../shared/peers/glewlwyd/run.sh
# measures Glewlwyd, and print one table (docs/benchmarks.md explains how to read it).
#
# Usage:   scripts/bench.sh                 # Latch only
#          PEER=1 scripts/bench.sh          # then Glewlwyd too, plus Latch/peer ratios
#          DURATION=2s scripts/bench.sh     # short smoke run
#          STORE=postgres scripts/with-postgres.sh scripts/bench.sh   # (make bench STORE=postgres)
#              the refresh and sign-in rows on SQLite, on one latchd over PostgreSQL and on two latchd
#              over one PostgreSQL (wrk split over both), with the PostgreSQL server's CPU per request
#
# Knobs (env): LATCHD=<binary> (default $BUILD_DIR/release/latchd, BUILD_DIR=.build)
#              PORT=18480 DURATION=8s (1s..10s) THREADS=2 CONNS=32 WARMUP=2s SETTLE=2
#              USERS=8 HTTP_THREADS= (latchd --http-threads) TMPBASE=/tmp ARGON2_SAMPLES=20
#              DURABILITIES="full normal" INSTALL=1 KEEP_WORK=0 LABEL= PEER=0
#              PEER_DIR=<repo>/../shared/peers/glewlwyd
# Writes bench-results/<UTC timestamp>[-LABEL]/: results.jsonl (one JSON line per test),
# summary.md, raw wrk output per test, latchd logs, env.txt, argon2.json and, with PEER=1, peer/.
# Traffic goes to 127.0.0.1 only. Nothing is installed except through scripts/install-deps.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LUA="$ROOT/scripts/bench"
BUILD_DIR="${BUILD_DIR:-$ROOT/.build}"
LATCHD="${LATCHD:-$BUILD_DIR/release/latchd}"
HOST=127.0.0.1
PORT="${PORT:-18480}"
DURATION="${DURATION:-8s}"
THREADS="${THREADS:-2}"
CONNS="${CONNS:-32}"
WARMUP="${WARMUP:-2s}"
SETTLE="${SETTLE:-2}"
USERS="${USERS:-8}"
HTTP_THREADS="${HTTP_THREADS:-}"
TMPBASE="${TMPBASE:-/tmp}"
ARGON2_SAMPLES="${ARGON2_SAMPLES:-20}"
DURABILITIES_SET="${DURABILITIES:-}"
DURABILITIES="${DURABILITIES:-full normal}"
INSTALL="${INSTALL:-1}"
KEEP_WORK="${KEEP_WORK:-0}"
PEER="${PEER:-0}"
PEER_DIR="${PEER_DIR:-$ROOT/../shared/peers/glewlwyd}"
STORE="${STORE:-sqlite}"
[[ "$STORE" == sqlite || "$STORE" == postgres ]] || { echo "STORE is sqlite or postgres" >&2; exit 1; }
if [[ "$STORE" == postgres ]]; then
  [[ -n "${LATCH_TEST_DATABASE_URL:-}" && -n "${LATCH_TEST_POSTGRES_DATA:-}" ]] \
    || { echo "STORE=postgres runs inside scripts/with-postgres.sh (make bench STORE=postgres)" >&2; exit 1; }
  DURABILITIES="${DURABILITIES_SET:-full}"
fi

TENANT=default
CLIENT_ID=latch-dev
PASSWORD='BenchPassw0rd!2026'
# The password policy refuses a password that contains the address's local part, so the users are
# bench-user@…, bench-user-2@… rather than bench@example.com.
user_email() { if (( $1 == 1 )); then echo "bench-user@example.com"; else echo "bench-user-$1@example.com"; fi; }

BASE="http://$HOST:$PORT"
DISCOVERY="$BASE/$TENANT/v2.0/.well-known/openid-configuration"
JWKS="$BASE/$TENANT/discovery/v2.0/keys"
NA_PREFIX="/$TENANT/oauth2/v2.0"
TOKEN="$BASE$NA_PREFIX/token"

log() { printf '[bench.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# ---------------------------------------------------------------- preflight
secs="${DURATION%s}"
[[ "$secs" =~ ^[0-9]+$ ]] && (( secs >= 1 && secs <= 10 )) || die "DURATION must be 1s..10s (got $DURATION)"
(( CONNS >= THREADS && THREADS >= 1 )) || die "need CONNS >= THREADS >= 1"
if [[ "$INSTALL" == 1 ]]; then "$ROOT/scripts/install-deps.sh" --bench; fi
for tool in wrk curl jq sqlite3 argon2; do
  command -v "$tool" >/dev/null || die "$tool is missing (scripts/install-deps.sh --bench installs it)"
done
[[ -x "$LATCHD" ]] || die "no latchd at $LATCHD: swift build -c release --product latchd (or set LATCHD / BUILD_DIR)"
if ss -ltnH "sport = :$PORT" 2>/dev/null | grep -q .; then die "port $PORT is already in use (set PORT)"; fi

RESULTS="$ROOT/bench-results/$(date -u +%Y%m%dT%H%M%SZ)${LABEL:+-$LABEL}"
mkdir -p "$RESULTS"
JSONL="$RESULTS/results.jsonl"
: > "$JSONL"
TCK=$(getconf CLK_TCK)
NCPU=$(nproc)
log "results in $RESULTS"

{
  echo "latchd: $LATCHD ($(stat -c '%y' "$LATCHD"))"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" status --porcelain 2>/dev/null | grep -q . && echo ' (+ uncommitted changes)')"
  echo "wrk: $(dpkg-query -W -f='${Version}' wrk 2>/dev/null || echo '?')"
  echo "kernel: $(uname -r)"; echo "cpus: $NCPU"; grep -m1 'model name' /proc/cpuinfo || true
  echo "loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "params: THREADS=$THREADS CONNS=$CONNS DURATION=$DURATION WARMUP=$WARMUP USERS=$USERS HTTP_THREADS=${HTTP_THREADS:-default} DURABILITIES=$DURABILITIES"
  echo "fs of data dirs: $(df -T "$TMPBASE" | awk 'NR==2{print $2" on "$1}')"
} > "$RESULTS/env.txt"

# ---------------------------------------------------------------- server lifecycle
# SPIDS/BASES: the running latchd processes and their origins (two in the scale-out suite).
SPID="" SPIDS=() BASES=() WORK="" DURABILITY="" DBURL="" SUITE="" INSTANCES=1
stop_server() {
  [[ ${#SPIDS[@]} -gt 0 ]] || return 0
  local pid st i=0
  for pid in "${SPIDS[@]}"; do
    local port=$(( PORT + i ))
    # let wrk's abandoned connections go away first, then SIGTERM (latchd drains in-flight requests)
    for _ in $(seq 1 25); do
      ss -tnH state established "( sport = :$port )" 2>/dev/null | grep -q . || break
      sleep 0.2
    done
    kill -TERM "$pid" 2>/dev/null || true
    st=0
    for _ in $(seq 1 75); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then log "latchd $pid ignored SIGTERM for 15 s, sending SIGKILL"; kill -KILL "$pid" || true; fi
    wait "$pid" || st=$?
    echo "$st" > "$RESULTS/latchd-$SUITE-$i-exit.txt"
    (( st == 0 )) || log "WARNING: latchd exited with status $st"
    cp "$WORK/latchd-$i.log" "$RESULTS/latchd-$SUITE-$i.log" 2>/dev/null || true
    i=$(( i + 1 ))
  done
  SPIDS=() BASES=() SPID=""
  if [[ "$KEEP_WORK" != 1 && "$WORK" == "$TMPBASE"/latch-bench.* ]]; then rm -rf -- "$WORK"; fi
}
trap 'rc=$?; stop_server; exit $rc' EXIT

# The store arguments of every latchd command of this suite.
store_args() { if [[ -n "$DBURL" ]]; then echo --database-url "$DBURL"; fi; }

launch() {  # launch INDEX: one more latchd on PORT+INDEX over the suite's data directory and store
  local i=$1 port=$(( PORT + $1 ))
  ss -ltnH "sport = :$port" 2>/dev/null | grep -q . && die "port $port is already in use (set PORT)"
  # Instances behind one balancer share one public origin: the `iss` of every token.
  local args=(serve --dev --data-dir "$WORK/data" --listen "$HOST:$port" --durability "$DURABILITY"
              --public-url "http://$HOST:$PORT" $(store_args))
  if [[ -n "$HTTP_THREADS" ]]; then
    args+=(--http-threads "$HTTP_THREADS")
  elif (( INSTANCES > 1 )); then
    # Instances sharing one host share its cores: each gets its share of one instance's default
    # HTTP threads (4 per core) and database connections (16), so the host runs as many of both
    # as one instance would.
    args+=(--http-threads "$(( (4 * NCPU + INSTANCES - 1) / INSTANCES ))" --database-connections "$(( 16 / INSTANCES ))")
  fi
  # The load comes from one address: let it stand for a crowd behind a proxy (X-Forwarded-For per
  # request), so the per-source rate limits are paid for but do not throttle the run.
  "$LATCHD" serve --help 2>/dev/null | grep -q -- '--trusted-proxy' && args+=(--trusted-proxy 127.0.0.1)
  "$LATCHD" "${args[@]}" > "$WORK/latchd-$i.log" 2>&1 &
  SPIDS+=($!)
  SPID=${SPIDS[0]}
  BASES+=("http://$HOST:$port")
  log "latchd started (pid $!, durability $DURABILITY, data $WORK/data${DBURL:+, PostgreSQL})"
  for _ in $(seq 1 100); do
    curl -fsS --max-time 2 -o /dev/null "http://$HOST:$port/$TENANT/v2.0/.well-known/openid-configuration" 2>/dev/null && break
    kill -0 "$!" 2>/dev/null || { cat "$WORK/latchd-$i.log" >&2; die "latchd exited during startup"; }
    sleep 0.1
  done
  curl -fsS --max-time 2 -o /dev/null "http://$HOST:$port/$TENANT/v2.0/.well-known/openid-configuration" \
    || die "latchd not answering on port $port"
}

start_server() {  # start_server full|normal sqlite|postgres INSTANCES
  DURABILITY=$1
  local store=$2 instances=$3
  INSTANCES=$instances
  WORK="$(mktemp -d "$TMPBASE/latch-bench.XXXXXX")"
  DBURL=""
  if [[ "$store" == postgres ]]; then
    local name="latch_bench_$(date +%s)_$RANDOM"
    psql -q "$LATCH_TEST_DATABASE_URL" -c "CREATE DATABASE $name" || die "cannot create database $name"
    DBURL="${LATCH_TEST_DATABASE_URL%/*}/$name"
  fi
  launch 0
  for (( i = 1; i < instances; i++ )); do launch "$i"; done
  : > "$WORK/users.txt"
  for i in $(seq 1 "$USERS"); do
    printf '%s\n' "$PASSWORD" | "$LATCHD" user create --data-dir "$WORK/data" $(store_args) --email "$(user_email "$i")" \
      --password-stdin >/dev/null || die "latchd user create failed"
    user_email "$i" >> "$WORK/users.txt"
  done
  log "$USERS users created"
}

# ---------------------------------------------------------------- curl helpers
post() {  # post PATH field=value... -> body on stdout; fails on HTTP >= 400
  local path=$1; shift
  local a=()
  for kv in "$@"; do a+=(--data-urlencode "$kv"); done
  curl -fsS --max-time 10 -H "X-Forwarded-For: 10.250.$(( RANDOM % 256 )).$(( RANDOM % 256 ))" "${a[@]}" "$BASE$NA_PREFIX/$path"
}
signin() {  # signin EMAIL -> token response JSON
  local ct r
  ct=$(post initiate client_id=$CLIENT_ID "username=$1" "challenge_type=password redirect" | jq -er .continuation_token) \
    || die "initiate failed for $1"
  r=$(post challenge client_id=$CLIENT_ID "continuation_token=$ct" "challenge_type=password redirect") || die "challenge failed"
  [[ $(jq -r .challenge_type <<<"$r") == password ]] || die "challenge did not offer password: $r"
  ct=$(jq -er .continuation_token <<<"$r")
  post token client_id=$CLIENT_ID "continuation_token=$ct" grant_type=password "password=$PASSWORD" "scope=openid offline_access" \
    || die "password token request failed"
}
smoke() {
  local r rt r2
  curl -fsS --max-time 5 "$DISCOVERY" > "$RESULTS/openid-configuration.json"
  curl -fsS --max-time 5 "$JWKS" > "$RESULTS/jwks.json"
  r=$(signin "$(user_email 1)")
  rt=$(jq -er .refresh_token <<<"$r") || die "no refresh_token from the password sign-in"
  jq -e .access_token <<<"$r" >/dev/null && jq -e .id_token <<<"$r" >/dev/null || die "sign-in lacks access_token/id_token"
  r2=$(post token client_id=$CLIENT_ID grant_type=refresh_token "refresh_token=$rt") || die "refresh failed"
  [[ $(jq -r .refresh_token <<<"$r2") != "$rt" && $(jq -r .refresh_token <<<"$r2") != null ]] || die "refresh did not rotate"
  log "smoke test OK (discovery, JWKS, 3-step password sign-in, refresh with rotation)"
}
seed_refresh_tokens() {  # one fresh refresh token per line, CONNS + 2*THREADS of them
  local n=$(( CONNS + 2 * THREADS )) i=0
  : > "$WORK/refresh-tokens.txt"
  for _ in $(seq 1 "$n"); do
    i=$(( i % USERS + 1 ))
    signin "$(user_email "$i")" | jq -er .refresh_token >> "$WORK/refresh-tokens.txt" || die "seeding refresh tokens failed"
  done
  log "seeded $n refresh tokens"
  # Instances share the database, so any token works on any of them: deal them out in turn.
  local count=${#BASES[@]}
  (( count > 1 )) || return 0
  for (( i = 0; i < count; i++ )); do
    awk -v k="$count" -v r="$i" '(NR - 1) % k == r' "$WORK/refresh-tokens.txt" > "$WORK/refresh-tokens-$i.txt"
  done
}

# ---------------------------------------------------------------- measurement
# "utime+stime minflt" of latchd (/proc/PID/stat fields 14+15 and 10, counted after "(comm) ")
cpu_ticks() {
  local pid
  for pid in "${SPIDS[@]}"; do sed 's/^.*) //' "/proc/$pid/stat"; done | awk '{c += $12 + $13; f += $8} END {print c, f}'
}
# utime+stime of the PostgreSQL server: the postmaster and every process it started (backends,
# WAL writer, checkpointer); 0 without one.
pg_ticks() {
  [[ "$STORE" == postgres ]] || { echo 0; return; }
  local master
  master=$(head -1 "$LATCH_TEST_POSTGRES_DATA/postmaster.pid" 2>/dev/null) || { echo 0; return; }
  { echo "$master"; ps -o pid= --ppid "$master"; } | while read -r pid; do
    sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null || true
  done | awk '{c += $12 + $13} END {print c + 0}'
}
# "cpu_seconds count" of the Argon2id computations latchd has run, from its own /metrics (thread CPU
# time measured around each hash inside the server: the in-situ cost, no separate calibration).
hash_stats() {
  local base
  for base in "${BASES[@]}"; do curl -s "$base/metrics"; done \
    | awk '/^latch_password_hash_cpu_seconds_total / {c+=$2} /^latch_password_hashes_total / {n+=$2} END {print c+0, n+0}'
}

bench() {  # bench NAME LABEL URL SCRIPT [script args...]
  local name=$1 label=$2 url=$3 script=$4; shift 4
  local out="$RESULTS/$name.txt" c0 c1 f0 f1 load
  for pid in "${SPIDS[@]}"; do kill -0 "$pid" 2>/dev/null || die "latchd died before $name"; done
  sleep "$SETTLE"
  load=$(cut -d' ' -f1 /proc/loadavg)
  log "wrk $name: -t$THREADS -c$CONNS -d$DURATION $url (loadavg $load)"
  read -r h0 n0 < <(hash_stats)
  read -r c0 f0 < <(cpu_ticks)
  p0=$(pg_ticks)
  local count=${#BASES[@]} i pids=()
  if (( count == 1 )); then
    timeout $(( secs + 20 )) wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --timeout 5s --latency \
        -s "$script" "$url" -- "$@" > "$out" 2>&1 || die "wrk failed for $name (see $out)"
  else
    # One wrk per instance, each with its share of the connections and threads (and of the refresh
    # tokens), all at once: the load a balancer spreading evenly would hand each instance.
    for (( i = 0; i < count; i++ )); do
      local args=() arg
      for arg in "$@"; do [[ "$arg" == "$WORK/refresh-tokens.txt" ]] && arg="$WORK/refresh-tokens-$i.txt"; args+=("$arg"); done
      [[ "$1" == "$WORK/refresh-tokens.txt" ]] && args[2]=$(( THREADS / count > 0 ? THREADS / count : 1 ))
      timeout $(( secs + 20 )) wrk -t"$(( THREADS / count > 0 ? THREADS / count : 1 ))" -c"$(( CONNS / count ))" \
          -d"$DURATION" --timeout 5s --latency -s "$script" "${url/$BASE/${BASES[$i]}}" -- "${args[@]}" \
          > "$out.$i" 2>&1 &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || die "wrk failed for $name (see $out.*)"; done
    # Summed counts; the slower instance's latency percentiles (an upper bound of the merged ones).
    cat "$out".* > "$out"
    grep -h '^WRKJSON ' "$out".* | sed 's/^WRKJSON //' | jq -sc '{
        requests: (map(.requests) | add), duration_s: (map(.duration_s) | max), rps: (map(.rps) | add),
        lat_p50_ms: (map(.lat_p50_ms) | max), lat_p90_ms: (map(.lat_p90_ms) | max),
        lat_p99_ms: (map(.lat_p99_ms) | max), lat_max_ms: (map(.lat_max_ms) | max),
        lat_mean_ms: ((map(.lat_mean_ms * .requests) | add) / ([(map(.requests) | add), 1] | max)),
        non2xx3xx: (map(.non2xx3xx) | add), err_connect: (map(.err_connect) | add),
        err_read: (map(.err_read) | add), err_write: (map(.err_write) | add), err_timeout: (map(.err_timeout) | add),
        extra: (map(.extra) | reduce .[] as $e ({}; reduce ($e | keys[]) as $k (.; .[$k] += $e[$k])))}' \
        | sed 's/^/WRKJSON /' >> "$out"
  fi
  for pid in "${SPIDS[@]}"; do kill -0 "$pid" 2>/dev/null || die "latchd died during $name"; done
  read -r c1 f1 < <(cpu_ticks)
  read -r h1 n1 < <(hash_stats)
  p1=$(pg_ticks)
  grep '^WRKJSON ' "$out" | tail -1 | sed 's/^WRKJSON //' | jq -c \
      --arg n "$name" --arg lbl "$label" --arg url "$url" --arg dur "$DURABILITY" --arg suite "$SUITE" \
      --argjson pg "$(( p1 - p0 ))" --argjson instances "$count" \
      --argjson hcpu "$(awk -v a="$h0" -v b="$h1" 'BEGIN {print b - a}')" --argjson hn "$(( ${n1%.*} - ${n0%.*} ))" \
      --argjson cpu "$(( c1 - c0 ))" --argjson flt "$(( f1 - f0 ))" --argjson tck "$TCK" --argjson load "$load" '
    {name:$n, "label":$lbl, durability:$dur, url:$url, loadavg_1m:$load, suite:$suite, instances:$instances} + .
    + {server_cpu_s:($cpu/$tck), server_cores_used:($cpu/$tck/.duration_s),
       postgres_cpu_ms_per_req:(if $suite == "sqlite" then null elif .requests>0 then $pg/$tck*1000/.requests else null end),
       server_cpu_ms_per_req:(if .requests>0 then $cpu/$tck*1000/.requests else null end),
       server_minflt_per_req:(if .requests>0 then $flt/.requests else null end)}
    + (if .extra.signins != null then
         {signins:.extra.signins, signins_per_s:(.extra.signins/.duration_s),
          server_cpu_ms_per_signin:(if .extra.signins>0 then $cpu/$tck*1000/.extra.signins else null end),
          server_minflt_per_signin:(if .extra.signins>0 then $flt/.extra.signins else null end),
          in_situ_hashes:$hn, in_situ_hash_cpu_s:$hcpu,
          in_situ_ms_per_hash:(if $hn>0 then $hcpu*1000/$hn else null end),
          in_situ_argon2_share:(if $cpu>0 then $hcpu/($cpu/$tck) else null end)}
       else {} end)' >> "$JSONL" || die "no WRKJSON line in $out"
  log "  -> $(tail -1 "$JSONL" | jq -r '"\(.rps) req/s  p50 \(.lat_p50_ms) ms  p99 \(.lat_p99_ms) ms  non2xx \(.non2xx3xx)  srv \(.server_cpu_ms_per_req|.*1000|round/1000) ms/req" + (if .signins then "  \(.signins_per_s|.*10|round/10) sign-ins/s" else "" end)')"
}

# Argon2id CPU seconds per hash, with the parameters of the hashes actually stored for the bench
# users (read from the database). Two measurements, both in CPU time (other load on the cores
# inflates CPU time much less than wall time):
#  - lib: in-process on the libargon2 that latchd links, warm (scripts/bench/argon2_cpu.py, ctypes);
#    this is what a long-running server pays and what the bound check uses;
#  - cli: the argon2 CLI, one process per hash (cold 19 MiB allocation each time), for reference.
measure_argon2() {
  local phc m t p lib cli=() s
  phc=$(sqlite3 -cmd '.timeout 10000' "$WORK/data/latch.db" \
        "SELECT password_hash FROM users WHERE email='$(user_email 1)' LIMIT 1;")
  [[ "$phc" =~ ^\$argon2id\$v=19\$m=([0-9]+),t=([0-9]+),p=([0-9]+)\$ ]] || die "unexpected stored hash: $phc"
  m=${BASH_REMATCH[1]} t=${BASH_REMATCH[2]} p=${BASH_REMATCH[3]}
  lib=$(ldd "$LATCHD" | awk '/libargon2/{print $3; exit}')
  [[ -n "$lib" ]] || die "latchd does not link a shared libargon2"
  python3 "$LUA/argon2_cpu.py" "$lib" "$m" "$t" "$p" "$ARGON2_SAMPLES" > "$WORK/argon2-lib.json" || die "argon2 timing failed"
  for _ in $(seq 1 "$ARGON2_SAMPLES"); do
    s=$(printf '%s' "$PASSWORD" | argon2 "benchsalt$RANDOM$RANDOM" -id -k "$m" -t "$t" -p "$p" -l 32 | awk '/seconds/{print $1}')
    cli+=("$s")
  done
  printf '%s\n' "${cli[@]}" | jq -sc --slurpfile lib "$WORK/argon2-lib.json" \
      --argjson m "$m" --argjson t "$t" --argjson p "$p" --arg params "${phc%\$*\$*}" '
    {params:$params, m_kib:$m, t:$t, p:$p, hash_s:$lib[0].median_s, lib:$lib[0],
     cli:{tool:"argon2 CLI, one process per hash", samples_s:., mean_s:(add/length)}}' > "$RESULTS/argon2.json"
  log "argon2id m=$m t=$t p=$p CPU per hash: $(jq -r '"lib warm \(.lib.mean_s*1e5|round/100) ms (cold \(.lib.cold_s*1e5|round/100)), CLI \(.cli.mean_s*1e5|round/100) ms"' "$RESULTS/argon2.json")"
}

run_server_suite() {  # run_server_suite full|normal [sqlite|postgres] [INSTANCES]
  local dur=$1 store=${2:-sqlite} instances=${3:-1} sfx="" tag=""
  [[ "$dur" == normal ]] && { sfx="_normal"; tag=" [crash-safe only (synchronous=NORMAL)]"; }
  SUITE=$store
  if [[ "$store" == postgres ]]; then
    SUITE="pg$instances"; sfx="$sfx"_pg$instances
    tag="$tag [PostgreSQL, $instances latchd]"
  elif [[ "$STORE" == postgres ]]; then
    tag="$tag [SQLite]"
  fi
  start_server "$dur" "$store" "$instances"
  smoke
  [[ -f "$RESULTS/argon2.json" ]] || measure_argon2
  # unrecorded warm-up of the HTTP path and the token endpoint
  timeout 15 wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" "$DISCOVERY" >/dev/null 2>&1 || true
  if [[ "$dur" == full && "$store" == sqlite ]]; then
    bench a_discovery "(a) discovery GET .well-known/openid-configuration" "$DISCOVERY" "$LUA/get.lua"
    bench b_jwks "(b) JWKS GET discovery/v2.0/keys" "$JWKS" "$LUA/get.lua"
  fi
  seed_refresh_tokens
  bench "c2_refresh_rotate$sfx" "(c2) refresh_token grant, rotation chains$tag" "$TOKEN" \
    "$LUA/refresh_chain.lua" "$WORK/refresh-tokens.txt" "$CLIENT_ID" "$THREADS"
  bench "d_signin_password$sfx" "(d) password sign-in initiate+challenge+token$tag" "$TOKEN" \
    "$LUA/signin.lua" "$NA_PREFIX" "$WORK/users.txt" "$PASSWORD" "$CLIENT_ID"
  sleep "$SETTLE"
  cat "$WORK"/latchd-*.log | grep -ciE '(error|warning|fatal)' > "$RESULTS/latchd-$SUITE-$dur-problem-lines.txt" || true
  stop_server
}

for d in $DURABILITIES; do
  [[ "$d" == full || "$d" == normal ]] || die "DURABILITIES holds full and/or normal"
  run_server_suite "$d"
  if [[ "$STORE" == postgres ]]; then
    run_server_suite "$d" postgres 1
    run_server_suite "$d" postgres 2
  fi
done

# ---------------------------------------------------------------- report
A2=$(jq .hash_s "$RESULTS/argon2.json")
# The bound from the issue: sign-ins/s × Argon2 CPU-s per hash ≥ 0.9 × server cores used, i.e. at
# least 90 % of the server's CPU during the sign-in test went into password hashing.
jq -c --argjson a2 "$A2" --argjson ncpu "$NCPU" 'select(.signins != null) |
  {name, signins_per_s, argon2_s_per_hash:$a2, argon2_cores:(.signins_per_s * $a2),
   server_cores_used, server_cpu_ms_per_signin,
   other_cpu_ms_per_signin:(.server_cpu_ms_per_signin - $a2 * 1000),
   argon2_share:(.signins_per_s * $a2 / .server_cores_used),
   pass:(.signins_per_s * $a2 >= 0.9 * .server_cores_used),
   server_minflt_per_signin, ceiling_signins_per_s:($ncpu / $a2),
   in_situ_ms_per_hash, in_situ_argon2_share,
   in_situ_pass:((.in_situ_argon2_share // 0) >= 0.9)}' "$JSONL" > "$RESULTS/argon2-bound.jsonl"
summary() {
  echo "### Latch ($(cut -d' ' -f1 /proc/loadavg) loadavg at end; THREADS=$THREADS CONNS=$CONNS DURATION=$DURATION)"
  echo
  echo "| test | req/s | p50 ms | p99 ms | non-2xx | sock err | srv CPU ms/req | PostgreSQL CPU ms/req | sign-ins/s | srv CPU ms/sign-in |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  jq -r 'def r(n): if . == null then "" else (. * pow(10; n) | round / pow(10; n) | tostring) end;
    "| \(.label) | \(.rps|r(0)) | \(.lat_p50_ms|r(2)) | \(.lat_p99_ms|r(2)) | \(.non2xx3xx) | \(.err_connect+.err_read+.err_write+.err_timeout) | \(.server_cpu_ms_per_req|r(3)) | \(.postgres_cpu_ms_per_req|r(3)) | \(.signins_per_s|r(1)) | \(.server_cpu_ms_per_signin|r(2)) |"' "$JSONL"
  echo
  echo "Two-instance rows: requests summed over both; p50/p99 are the slower instance's. srv CPU covers every latchd."
  echo
  echo "Argon2id bound (hash CPU $(jq -r '"\(.params): median \(.hash_s*1e5|round/100) ms in-process, \(.cli.mean_s*1e5|round/100) ms with the argon2 CLI"' "$RESULTS/argon2.json"), $NCPU cores):"
  echo "sign-ins/s × argon2 s/hash ≥ 0.9 × server cores used  ⇔  Argon2 is ≥ 90 % of the server's CPU."
  jq -r '"- \(.name): \(.signins_per_s*10|round/10)/s × \(.argon2_s_per_hash*1e5|round/100) ms = \(.argon2_cores*100|round/100) cores of Argon2 vs \(.server_cores_used*100|round/100) server cores used → \(.argon2_share*100|round) % \(if .pass then "PASS" else "FAIL" end); srv CPU/sign-in \(.server_cpu_ms_per_signin*100|round/100) ms = hash + \(.other_cpu_ms_per_signin*100|round/100) ms other (\(.server_minflt_per_signin|round) page faults/sign-in); ceiling if the hash had all cores: \(.ceiling_signins_per_s|round)/s\n  in situ (latchd /metrics: thread CPU inside each hash): \(.in_situ_ms_per_hash*100|round/100) ms per hash, \(.in_situ_argon2_share*100|round) % of server CPU → \(if .in_situ_pass then "PASS" else "FAIL" end)"' "$RESULTS/argon2-bound.jsonl"
  local bad
  bad=$(jq -s '[.[] | select(.name|test("^(c2|d)_")) | .non2xx3xx + (.extra.bad // 0) + (.extra.pool_empty // 0)] | add // 0' "$JSONL")
  echo
  if (( bad > 0 )); then echo "**WARNING: $bad failed refresh/sign-in responses: the harness or the server is wrong (see the .txt files).**"
  else echo "Refresh and sign-in tests: no non-2xx, no failed step, no empty token pool."; fi
}
summary > "$RESULTS/summary.md"
cat "$RESULTS/summary.md"

# ---------------------------------------------------------------- peer
if [[ "$PEER" == 1 ]]; then
  [[ -x "$PEER_DIR/run.sh" ]] || die "no peer script at $PEER_DIR/run.sh"
  log "running the Glewlwyd peer ($PEER_DIR/run.sh), ~70 s"
  DURATION="$DURATION" THREADS="$THREADS" CONNS="$CONNS" SETTLE="$SETTLE" RESULTS_BASE="$RESULTS/peer" \
    "$PEER_DIR/run.sh" > "$RESULTS/peer-run.log" 2>&1 || { tail -20 "$RESULTS/peer-run.log" >&2; die "peer run failed"; }
  PEERJ=$(ls -d "$RESULTS"/peer/*/ | tail -1)results.jsonl
  [[ -s "$PEERJ" ]] || die "peer wrote no results.jsonl"
  {
    echo
    echo "### Glewlwyd 2.7.5 peer ($(dirname "$PEERJ"))"
    echo
    sed -n '1,$p' "$(dirname "$PEERJ")/summary.md"
    echo
    echo "### Latch / peer"
    echo
    echo "| Latch test | peer test | Latch | peer | ratio | srv CPU/op Latch : peer ms |"
    echo "|---|---|---:|---:|---:|---:|"
    jq -rs '
      (map(select(.source=="latch")) | INDEX(.name)) as $l | (map(select(.source=="peer")) | INDEX(.name)) as $p |
      def row(ln; pn; what):
        if $l[ln] and $p[pn] then
          ($l[ln] | if what == "signins" then [.signins_per_s, .server_cpu_ms_per_signin] else [.rps, .server_cpu_ms_per_req] end) as $lv |
          "| \(ln) | \(pn) | \($lv[0]|round) \(if what=="signins" then "sign-ins/s" else "req/s" end) | \($p[pn].rps|round) req/s | **\(($lv[0]/$p[pn].rps)*100|round/100)×** | \($lv[1]*100|round/100) : \($p[pn].server_cpu_ms_per_req*100|round/100) |"
        else empty end;
      row("a_discovery"; "a_discovery"; "rps"), row("b_jwks"; "b_jwks"; "rps"),
      row("c2_refresh_rotate"; "c2_refresh_rotate"; "rps"), row("c2_refresh_rotate_normal"; "c2_refresh_rotate"; "rps"),
      row("c2_refresh_rotate_pg1"; "c2_refresh_rotate"; "rps"), row("c2_refresh_rotate_pg2"; "c2_refresh_rotate"; "rps"),
      row("d_signin_password"; "d_password_grant"; "signins"), row("d_signin_password_normal"; "d_password_grant"; "signins"),
      row("d_signin_password_pg1"; "d_password_grant"; "signins"), row("d_signin_password_pg2"; "d_password_grant"; "signins")' \
      <(jq -c '. + {source:"latch"}' "$JSONL") <(jq -c '. + {source:"peer"}' "$PEERJ")
    echo
    echo "Peer (d) is one request per sign-in (ROPC, PBKDF2-150k); Latch (d) is three (initiate, challenge, token; Argon2id)."
    echo "_normal rows: Latch with synchronous=NORMAL (crash-safe only) against the peer's default fully synced SQLite."
  } > "$RESULTS/peer-comparison.md"
  cat "$RESULTS/peer-comparison.md"
fi
log "results in $RESULTS"
