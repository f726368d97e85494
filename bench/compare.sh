#!/usr/bin/env bash
# npm run bench:compare — our kernel beside DBOS, LangGraph, the raw-pg floor and the effectful node
# step's own floor (one INSERT + one warm-worker call), round-robin in one run (the machine is shared
# and noisy: compare ratios from the same run, never figures from different runs).
#   REPS=3 bash bench/compare.sh        results in bench-results/<stamp>.jsonl + a median table and the ratios
#   ONLY=single bash bench/compare.sh   substring filter on the command line
#   DB_PREFIX=me_ bash bench/compare.sh  every harness's database gets this prefix (its default name after it), so
#                                       helpers benching at once on one server do not drop each other's databases
#   --tiny (or BENCH_TINY=1)            one rep, 20 steps / 4 workflows, one command per peer harness and per mode of
#                                       ours (the script works; its ratios mean little);
#                                       without the peers' source (PEERS_SRC) it runs ours alone and says so
# Code steps run in the sandbox (STAGECRAFT_SANDBOX, default auto: bubblewrap where it works); each of
# our lines says which (`sandbox`).
set -euo pipefail
cd "$(dirname "$0")/.."
TINY=${BENCH_TINY:-}
for arg in "$@"; do [[ "$arg" == --tiny ]] && TINY=1; done
[[ "$TINY" == 1 ]] || TINY=
PEERS_SRC=${PEERS_SRC:-../shared/bench-peers}
[[ -d "$PEERS_SRC" ]] || PEERS_SRC=../../shared/bench-peers
PEERS=.bench-peers
WITH_PEERS=1
if [[ ! -d "$PEERS/node_modules" ]]; then
  if [[ -d "$PEERS_SRC" ]]; then
    rm -rf "$PEERS" && cp -r "$PEERS_SRC" "$PEERS" && chmod -R u+w "$PEERS"
    (cd "$PEERS" && npm ci --no-audit --no-fund >/dev/null)
  elif [[ -n "$TINY" ]]; then
    WITH_PEERS=
    echo "bench:compare --tiny: the peers are not installed here (no $PEERS, no PEERS_SRC): running ours alone, peer commands skipped" >&2
  else
    echo "bench:compare: the peer harnesses are not here: set PEERS_SRC to their folder (copied to $PEERS and npm ci'd)" >&2
    exit 1
  fi
fi
if [[ -n "$TINY" ]]; then REPS=1; S=20; W=4; CS=20; K=10; else REPS=${REPS:-3}; S=1000; W=200; CS=100; K=50; fi
mkdir -p bench-results
OUT=${OUT:-bench-results/$(date +%Y%m%dT%H%M%S)${TINY:+-tiny}.jsonl}
ERR=${OUT%.jsonl}.stderr.log
touch "$OUT"
CMDS=(
  "peer pg-floor.mjs --mode single --steps $S --fresh"
  "peer pg-floor.mjs --mode batch --steps $S --fresh"
  "peer dbos-bench.mjs --mode single --steps $S --fresh"
  "peer dbos-bench.mjs --mode many --workflows $W --steps 5 --concurrency 1 --fresh"
  "peer dbos-bench.mjs --mode many --workflows $W --steps 5 --concurrency 8 --fresh"
  "peer lg-bench.mjs --mode single --steps $S --fresh"
  "peer lg-bench.mjs --mode many --workflows $W --steps 5 --concurrency 8 --fresh"
  "ours --mode floor --steps $S --fresh"
  "ours --mode single --steps $S --fresh"
  "ours --mode many --workflows $W --steps 5 --concurrency 1 --fresh"
  "ours --mode many --workflows $W --steps 5 --concurrency 8 --fresh"
  "ours --mode single --steps $S --kind effectful --step op --fresh"
  "ours --mode many --workflows $W --steps 5 --concurrency 8 --kind effectful --step op --fresh"
  "peer dbos-bench.mjs --mode crash --steps $CS --kill-after $K"
  "ours --mode crash --steps $CS --kill-after $K --kind effectful"
)
# at --tiny, one command per harness and per mode of ours (each of them starts a process: the set stays small)
TINY_SET=("pg-floor.mjs --mode single" "dbos-bench.mjs --mode single" "lg-bench.mjs --mode single" "--mode floor" "ours --mode single --steps $S --fresh"
  "ours --mode many --workflows $W --steps 5 --concurrency 8 --fresh" "--step op --fresh" "--mode crash")
in_tiny_set() { local t; for t in "${TINY_SET[@]}"; do [[ "$1" == *"$t"* ]] && return 0; done; return 1; }
# ours runs compiled, as the shipped CLI does and as every bench:* of ours does (bench/run-compiled.mjs): not
# through tsx, whose keepNames and source maps cost node's main thread ~0.3 ms a run (bench/compile.mjs);
# compiled once here, then each command runs the module with plain node
OURS=$(node bench/run-compiled.mjs --print bench/bench-store.ts)
for r in $(seq 1 "$REPS"); do
  for c in "${CMDS[@]}"; do
    [[ -n "${ONLY:-}" && "$c" != *"$ONLY"* ]] && continue
    [[ -n "$TINY" ]] && ! in_tiny_set "$c" && continue
    read -r who rest <<<"$c"
    if [[ -n "${DB_PREFIX:-}" ]]; then
      case "$rest" in
        *pg-floor.mjs*) db=peers_raw ;;
        *dbos-bench.mjs*"--mode crash"*) db=peers_dbos_crash ;;
        *dbos-bench.mjs*) db=peers_dbos ;;
        *lg-bench.mjs*"--mode crash"*) db=peers_lg_crash ;;
        *lg-bench.mjs*) db=peers_lg ;;
        *"--mode crash"*) db=stagecraft_bench_crash ;;
        *) db=stagecraft_bench ;;
      esac
      rest="$rest --db ${DB_PREFIX}$db"
    fi
    if [[ "$who" == peer && -z "$WITH_PEERS" ]]; then echo "[rep $r/$REPS] skipped (peers not installed): $rest" >&2; continue; fi
    # our crash mode drives the kill through the peers' crash harness (crash.mjs)
    if [[ "$rest" == *"--mode crash"* && -z "$WITH_PEERS" ]]; then echo "[rep $r/$REPS] skipped (its crash harness comes with the peers): $rest" >&2; continue; fi
    echo "[rep $r/$REPS] $c" >&2
    # shellcheck disable=SC2086
    if [[ "$who" == peer ]]; then lines=$(cd "$PEERS" && node $rest 2>>"../$ERR" | grep '^{' || true);
    else lines=$(node "$OURS" $rest 2>>"$ERR" | grep '^{' || true); fi
    [[ -n "$lines" ]] || { echo "FAILED: $c (see $ERR)" >&2; tail -20 "$ERR" >&2; exit 1; }
    echo "$lines" >>"$OUT"
  done
done
echo "raw results: $OUT" >&2
node bench/summarize.mjs "$OUT"
