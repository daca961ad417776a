#!/usr/bin/env bash
# How the server grows with cores (issue 50): the release binary's `keltis load` at chosen core
# splits, on SQLite and on PostgreSQL, with pgbench's rate for the same shape of work on the same
# PostgreSQL cores side by side; one table at the end.
#
#   benches/scaling.sh [--splits "2 4 6"] [--load-cores 4] [--games 96] [--seconds 15]
#                      [--warm-up 3] [--runs 2] [--databases "sqlite postgres"]
#                      [--keltis target/release/keltis] [--pg-bin /usr/lib/postgresql/15/bin]
#                      [--sqlite-sync "full full-outside-lock"]  (the default: both)
#
# Cores are given out from 0 with taskset: the load tool (and pgbench, which it starts) gets the
# first --load-cores, with as many threads; the server the next N; PostgreSQL the N after
# (PostgreSQL rows only). Each row says what a move cost the load tool, the server and
# PostgreSQL (its statements counted by pg_stat_statements), and PostgreSQL's cost per pgbench
# transaction beside it: a load tool as busy as its cores, not the server, limited that row. A
# split that does not fit the machine is skipped and said so. It first checks that taskset
# confines a process here (a sandbox such as gVisor takes the mask without enforcing it): where it
# does not, it says so, each split is then a count of threads (the server's workers, the load
# tool's threads), and the cores busy in the table say what each process used. --load-cores 0
# leaves the load tool unpinned, sharing the others' cores (a functional run on a small machine,
# not a measurement). PostgreSQL is a private cluster in a temporary folder (initdb, trust on
# loopback), run as the invoking user, or as `postgres` under root; every run starts on an empty
# database. Needs: taskset (util-linux), curl, python3, and
# for PostgreSQL initdb, postgres, psql and pgbench (--pg-bin or the newest under
# /usr/lib/postgresql). Figures go to stdout; the servers' logs stay in the work folder it names.
set -euo pipefail

splits="2 4 6"
load_cores=4
games=96
seconds=15
warm_up=3
runs=2
databases="sqlite postgres"
keltis="target/release/keltis"
pg_bin=""
sqlite_syncs="full full-outside-lock"  # both: a many-core run checks `auto`'s choice (the second from 4 cores)

while [ $# -gt 0 ]; do
  case "$1" in
    --splits) splits="$2"; shift 2 ;;
    --load-cores) load_cores="$2"; shift 2 ;;
    --games) games="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --warm-up) warm_up="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --databases) databases="$2"; shift 2 ;;
    --keltis) keltis="$2"; shift 2 ;;
    --pg-bin) pg_bin="$2"; shift 2 ;;
    --sqlite-sync) sqlite_syncs="$2"; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (--help)" >&2; exit 2 ;;
  esac
done

[ -x "$keltis" ] || { echo "no binary at $keltis: cargo build --release, or --keltis PATH" >&2; exit 2; }
keltis=$(cd "$(dirname "$keltis")" && pwd)/$(basename "$keltis")
for tool in taskset curl python3; do
  command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 2; }
done
if [[ " $databases " == *" postgres "* ]]; then
  if [ -z "$pg_bin" ]; then
    pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  fi
  [ -x "$pg_bin/initdb" ] || { echo "no PostgreSQL binaries (--pg-bin DIR)" >&2; exit 2; }
  export PATH="$pg_bin:$PATH"
fi

cores=$(nproc --all)
work=$(mktemp -d /tmp/keltis-scaling.XXXXXX)
chmod 755 "$work"

# Whether taskset confines a process here: two busy processes pinned to one core get one core's
# time between them, not two. A sandbox may take the CPU mask, report it back and not enforce it
# (gVisor: its kernel keeps the mask for sched_getaffinity and lets the Go runtime schedule on
# every core), and then a split is a count of threads, not of cores.
confined=$(python3 - <<'EOF'
import os, time
core = min(os.sched_getaffinity(0))
start = time.monotonic()
kids = []
for _ in range(2):
    pid = os.fork()
    if pid == 0:
        os.sched_setaffinity(0, {core})
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            pass
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)
wall = time.monotonic() - start
used = sum(os.times()[2:4])
print("yes" if used < 1.5 * wall else f"no (two processes pinned to one core used {used / wall:.1f} cores)")
EOF
)
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $cores cores, kernel $(uname -r); taskset confines: $confined; work folder $work" >&2
if [ "$confined" != yes ] && [ "$load_cores" != 0 ]; then
  echo "warning: taskset does not confine processes here: each split sets the server's workers and the load tool's threads, and every process may run on every core; the table's cores busy say what each used" >&2
fi
server_pid=""
pg_running=""
stop() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
  if [ -n "$pg_running" ]; then as_pg pg_ctl -D "$work/pg" stop -m fast >/dev/null 2>&1 || true; fi
  pg_running=""
}
trap stop EXIT

# A free loopback port.
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# n cores from `from`, as taskset's list.
span() { echo "$1-$(($1 + $2 - 1))"; }
# PostgreSQL never runs as root.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# A private PostgreSQL cluster on cores $1, empty; sets pg_url.
start_postgres() {
  local data="$work/pg" pg_port
  rm -rf "$data"
  mkdir -p "$data"
  if [ "$(id -u)" = 0 ]; then chown postgres "$data"; fi
  as_pg initdb -D "$data" -U postgres --auth=trust -E UTF8 >"$work/initdb.log" 2>&1
  local as=()
  if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi
  # pg_ctl starts postgres, which keeps taskset's cores. A port picked here may be taken by
  # another process before PostgreSQL binds it: another port is tried then.
  for attempt in 1 2 3; do
    pg_port=$(port)
    if taskset -c "$1" "${as[@]}" pg_ctl -D "$data" -w -l "$data/postgres.log" \
      -o "-p $pg_port -k $data -c listen_addresses=127.0.0.1 -c max_connections=$((games + 64)) -c shared_buffers=512MB -c shared_preload_libraries=pg_stat_statements" \
      start >/dev/null; then
      break
    fi
    [ "$attempt" = 3 ] && { tail -n 20 "$data/postgres.log" >&2; return 1; }
  done
  pg_running=1
  psql -h 127.0.0.1 -p "$pg_port" -U postgres -qc 'CREATE DATABASE keltis' >/dev/null
  pg_url="postgres://postgres@127.0.0.1:$pg_port/keltis"
  pg_pid=$(head -n1 "$data/postmaster.pid")
}

# The server on cores $1 with database URL $2 (empty: SQLite in the work folder, synced as $3);
# sets base.
start_server() {
  local server_port=""
  rm -rf "$work/data"
  mkdir -p "$work/data"
  # No bots, and no review of every rated game that ends: the review worker takes up to half a
  # core whatever the rate of moves, a fixed cost that would weigh most on the smallest splits.
  # The load tool's two accounts sit at every table: no cap on their running games.
  local env=(KELTIS_DATA_DIR="$work/data" KELTIS_BIND=127.0.0.1:0 KELTIS_BOTS=false
    KELTIS_REVIEW_RATED=false KELTIS_MAX_RUNNING_GAMES=1000000
    KELTIS_JWT_SECRET="scaling-$(date +%s)-a-secret-long-enough-for-the-server")
  if [ -n "$2" ]; then env+=(DATABASE_URL="$2"); else env+=(KELTIS_SQLITE_SYNCHRONOUS="$3"); fi
  # As many workers as cores: what the server takes from its CPU mask, said outright for where
  # the mask is not enforced.
  env+=(KELTIS_WORKERS="$4")
  # The log exists before the server starts: the background job opens it in its own time, and
  # a busy machine let the first read below find no file (set -e then ended the script).
  : >"$work/server.log"
  env -u DATABASE_URL "${env[@]}" taskset -c "$1" "$keltis" serve >"$work/server.log" 2>&1 &
  server_pid=$!
  # The port the server was given, from its log: one picked here and passed to it could be
  # taken by another process in between (tests run beside each other).
  for _ in $(seq 300); do
    server_port=$(sed -nE 's/.*listening port=([0-9]+).*/\1/p' "$work/server.log" | head -n1 || true)
    [ -n "$server_port" ] && curl -fs "http://127.0.0.1:$server_port/readyz" >/dev/null 2>&1 && break
    sleep 0.2
  done
  base="http://127.0.0.1:$server_port"
}

# SQLite once per sync mode asked for: sqlite/full, sqlite/full-outside-lock.
targets=()
for db in $databases; do
  if [ "$db" = sqlite ]; then
    for sync in $sqlite_syncs; do targets+=("sqlite/$sync"); done
  else
    targets+=("$db")
  fi
done

rows=()
for n in $splits; do
  for target in "${targets[@]}"; do
    db=${target%%/*}
    sync=${target#*/}
    need=$((load_cores + n))
    [ "$db" = postgres ] && need=$((need + n))
    if [ "$need" -gt "$cores" ]; then
      echo "skipped: $db with $n server cores needs $need cores, this machine has $cores" >&2
      continue
    fi
    load=(taskset -c "$(span 0 "$load_cores")")
    threads=$load_cores
    if [ "$load_cores" = 0 ]; then load=(); threads=1; fi
    server=$(span "$load_cores" "$n")
    for run in $(seq "$runs"); do
      url=""
      extra=()
      if [ "$db" = postgres ]; then
        start_postgres "$(span $((load_cores + n)) "$n")"
        url=$pg_url
        extra=(--pgbench "$url" --database-pid "$pg_pid")
      fi
      start_server "$server" "$url" "$sync" "$n"
      out="$work/load-${target//\//-}-$n-$run.json"
      "${load[@]}" "$keltis" load --url "$base" --games "$games" --seconds "$seconds" \
        --warm-up-seconds "$warm_up" --server-pid "$server_pid" --threads "$threads" "${extra[@]}" \
        >"$out" 2>"$work/load.log" || true
      if ! [ -s "$out" ]; then
        # A run that gave no figures says why: the load tool's last words and the server's.
        echo "== $target, $n cores, run $run: the load tool gave no report" >&2
        tail -n 20 "$work/load.log" >&2 || true
        echo "== the server's log" >&2
        tail -n 20 "$work/server.log" >&2 || true
      fi
      stop
      rows+=("$(python3 - "$out" "$target" "$n" "$run" <<'EOF'
import json, sys
path, db, n, run = sys.argv[1:]
try:
    r = json.load(open(path))
except Exception as e:
    print(f"| {n} | {db} | {run} | failed: {e} | | | | | | | | |")
    sys.exit()
pg = r.get("pgbench") or {}
tps = pg.get("transactions_per_second")
share = r.get("share_of_pgbench")
serial = r.get("serial") or {}
per_move = r.get("database_per_move") or {}
per_tx = pg.get("database_per_transaction") or {}
def fmt(value, spec):
    return format(value, spec) if value is not None else "—"
moves = r["accepted_moves_per_second"]
load = serial.get("load_cpu_ms_per_move")
busy = serial.get("load_cores_busy")
def with_busy(ms):
    # CPU per move and the cores that keeps busy at the run's rate.
    return f"{ms:.3f} ({ms * moves / 1000:.1f})" if ms is not None else "—"
print("| {} | {} | {} | {:,.0f} | {:.1f} | {} | {} | {} | {} | {} | {} | {} |".format(
    n, db, run, moves, r["decision_latency_ms"]["p99"],
    f"{tps:,.0f}" if tps else (r.get("pgbench_error") or "—"),
    fmt(share, ".2f"),
    fmt(serial.get("write_turn_share"), ".2f") + (
        f"; {serial['write_turn_cpu_us_per_write']:.0f} µs on a core ({serial['write_turn_cpu_ceiling_per_second']:,.0f}/s)"
        if serial.get("write_turn_cpu_ceiling_per_second") else ""),
    with_busy(serial.get("server_cpu_ms_per_move")),
    f"{load:.3f} ({busy:.1f})" if load is not None and busy is not None else "—",
    f"{with_busy(per_move.get('cpu_ms'))} / {fmt(per_tx.get('cpu_ms'), '.3f')}" if pg else "—",
    f"{fmt(r.get('database_bound_share'), '.2f')}; {fmt(per_move.get('statements'), '.1f')} / {fmt(per_tx.get('statements'), '.1f')}" if pg else "—"))
EOF
)")
      echo "${rows[-1]}" >&2
    done
  done
done

echo
echo "$games games, $seconds s after $warm_up s of warm-up; load tool and pgbench on $load_cores cores (0: unpinned); $cores cores in all; taskset confines: $confined; $(date -u +%F)"
echo
echo "| server cores | database | run | moves/s | decision p99 ms | pgbench tps (same PG cores) | API / pgbench | SQLite write turn held; its time per write on a core (writes/s it allows) | server CPU ms / move (cores busy) | load tool CPU ms / move (cores busy) | PostgreSQL CPU ms: per move (cores busy) / per pgbench transaction | API / pgbench where PostgreSQL's CPU is the limit; statements per move / per transaction |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
