#!/usr/bin/env bash
# kifu analyze over 100 real games (the first 100 of 60 plies or more in the
# corpus's csa/ and kif/ folders) at --nodes 10000: positions per second with
# one engine and with two, kifu's own time (the run less the time inside the
# engines) and the cache: a second run with the same --cache searches nothing.
# Needs fairy-stockfish (Debian's package, in /usr/games) and ../shared/corpus.
# Usage: bench/analyze.sh [NODES]   (default 10000)
set -eu
cd "$(dirname "$0")/.."
NODES=${1:-10000}
CORPUS=${KIFU_CORPUS:-../shared/corpus}
export PATH=$PATH:/usr/games
command -v fairy-stockfish >/dev/null || { echo "fairy-stockfish is needed"; exit 1; }
cargo build --release --quiet --bin kifu
K=$PWD/target/release/kifu
W=$(mktemp -d /tmp/kifu-analyze.XXXXXX)
trap 'rm -rf "$W"' EXIT
mkdir "$W/games"
"$K" check --json "$CORPUS/csa" "$CORPUS/kif" 2>/dev/null | python3 -c '
import sys, json, shutil, os
n = 0
for line in sys.stdin:
    d = json.loads(line)
    if d.get("plies", 0) >= 60 and d["index"] == 0 and n < 100:
        shutil.copy(d["source"], os.path.join(sys.argv[1], "%03d_%s" % (n, os.path.basename(d["source"]))))
        n += 1
' "$W/games"
PLIES=$("$K" check --json "$W/games" 2>/dev/null | python3 -c 'import sys, json; print(sum(json.loads(l)["plies"] for l in sys.stdin))')
echo "$(ls "$W/games" | wc -l) games, $PLIES plies; --nodes $NODES; $(nproc) cores"
# kifu's own CPU time (all its threads, not the engines'): sampled from
# /proc while it runs, the last sample before it exits.
own_cpu() { # pid → seconds
  local pid=$1 ticks=0 t
  while kill -0 "$pid" 2>/dev/null; do
    t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null) && ticks=$t
    sleep 0.2
  done
  awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }'
}
for k in 1 2; do
  echo "--engines $k:"
  start=$(date +%s.%N)
  "$K" analyze --engine fairy-stockfish --nodes "$NODES" --engines "$k" \
    --cache "$W/cache$k.jsonl" -o "$W/out$k.jsonl" "$W/games" 2>"$W/err$k.txt" &
  cpu=$(own_cpu $!)
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  grep 'analyze' "$W/err$k.txt"
  echo "  wall $wall s; kifu's own CPU $cpu s"
done
echo "again, with the cache of the first run:"
"$K" analyze --engine fairy-stockfish --nodes "$NODES" --cache "$W/cache1.jsonl" \
  -o "$W/again.jsonl" "$W/games" 2>&1 | grep 'analyze'
