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
for k in 1 2; do
  echo "--engines $k:"
  /usr/bin/time -f "  wall %e s, user %U s, sys %S s" \
    "$K" analyze --engine fairy-stockfish --nodes "$NODES" --engines "$k" \
      --cache "$W/cache$k.jsonl" -o "$W/out$k.jsonl" "$W/games" 2>&1 | grep -v '^1\|^[0-9]* files'
done
echo "again, with the cache of the first run:"
"$K" analyze --engine fairy-stockfish --nodes "$NODES" --cache "$W/cache1.jsonl" \
  -o "$W/again.jsonl" "$W/games" 2>&1 | grep 'analyze'
