#!/usr/bin/env bash
# npm run bench:compare — our kernel beside DBOS, LangGraph and the raw-pg floor,
# round-robin in one run (the machine is shared and noisy: compare ratios from
# the same run, never figures from different runs).
#   REPS=3 bash bench/compare.sh        results in bench-results/<stamp>.jsonl + a median table
#   ONLY=single bash bench/compare.sh   substring filter on the command line
set -euo pipefail
cd "$(dirname "$0")/.."
PEERS_SRC=${PEERS_SRC:-../shared/bench-peers}
PEERS=.bench-peers
if [[ ! -d "$PEERS/node_modules" ]]; then
  rm -rf "$PEERS" && cp -r "$PEERS_SRC" "$PEERS" && chmod -R u+w "$PEERS"
  (cd "$PEERS" && npm ci --no-audit --no-fund >/dev/null)
fi
REPS=${REPS:-3}
mkdir -p bench-results
OUT=${OUT:-bench-results/$(date +%Y%m%dT%H%M%S).jsonl}
ERR=${OUT%.jsonl}.stderr.log
CMDS=(
  "peer pg-floor.mjs --mode single --steps 1000 --fresh"
  "peer pg-floor.mjs --mode batch --steps 1000 --fresh"
  "peer dbos-bench.mjs --mode single --steps 1000 --fresh"
  "peer dbos-bench.mjs --mode many --workflows 200 --steps 5 --concurrency 1 --fresh"
  "peer dbos-bench.mjs --mode many --workflows 200 --steps 5 --concurrency 8 --fresh"
  "peer lg-bench.mjs --mode single --steps 1000 --fresh"
  "peer lg-bench.mjs --mode many --workflows 200 --steps 5 --concurrency 8 --fresh"
  "ours --mode single --steps 1000 --fresh"
  "ours --mode many --workflows 200 --steps 5 --concurrency 1 --fresh"
  "ours --mode many --workflows 200 --steps 5 --concurrency 8 --fresh"
  "ours --mode single --steps 1000 --kind effectful --step op --fresh"
  "ours --mode many --workflows 200 --steps 5 --concurrency 8 --kind effectful --step op --fresh"
  "peer dbos-bench.mjs --mode crash --steps 100 --kill-after 50"
  "ours --mode crash --steps 100 --kill-after 50"
)
for r in $(seq 1 "$REPS"); do
  for c in "${CMDS[@]}"; do
    [[ -n "${ONLY:-}" && "$c" != *"$ONLY"* ]] && continue
    echo "[rep $r/$REPS] $c" >&2
    read -r who rest <<<"$c"
    # shellcheck disable=SC2086
    if [[ "$who" == peer ]]; then lines=$(cd "$PEERS" && node $rest 2>>"../$ERR" | grep '^{');
    else lines=$(node --import tsx bench/bench-store.ts $rest 2>>"$ERR" | grep '^{'); fi
    [[ -n "$lines" ]] || { echo "FAILED: $c (see $ERR)" >&2; exit 1; }
    echo "$lines" >>"$OUT"
  done
done
echo "raw results: $OUT" >&2
node bench/summarize.mjs "$OUT"
