#!/usr/bin/env bash
# What naming openings costs (issue #29): instructions a ply (callgrind) of
# replaying alone, of replaying and classifying (examples/classify_cost.rs,
# the two runs differ by the classifier only), and of `check --json -j1`,
# which classifies every game; on generated games and on the corpus's
# professional games. Needs valgrind.
# Usage: bench/opening.sh [GAMES]   (default 500)
set -u
cd "$(dirname "$0")/.."
N=${1:-500}
W=$(mktemp -d /tmp/kifu-opening.XXXXXX)
trap 'rm -rf "$W"' EXIT
command -v valgrind >/dev/null || { echo "valgrind is needed"; exit 1; }
cargo build --release --quiet --bin kifu --examples || exit 1
K=$PWD/target/release/kifu
C=$PWD/target/release/examples/classify_cost
"$PWD/target/release/examples/gen_games" csa "$N" "$W/gen" 2>/dev/null
PRO=../shared/corpus/csa/sunfish4/kifu/learn/pro10
count() { # command... → instructions (all threads)
  valgrind --tool=callgrind --callgrind-out-file="$W/cg.out" "$@" >/dev/null 2>"$W/vg.txt"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$W/vg.txt" | awk '{s+=$1} END{printf "%.0f\n", s}'
}
printf '%-22s %8s %12s %12s %12s %10s\n' set plies replay/ply +classify/ply check-json/ply share
for set in gen pro; do
  dir=$W/gen; [ $set = pro ] && dir=$PRO
  [ -d "$dir" ] || continue
  plies=$("$C" replay "$dir" 2>&1 | awk '{print $2}')
  r=$(count "$C" replay "$dir")
  c=$(count "$C" classify "$dir")
  k=$(count "$K" check --json -q -j1 "$dir")
  awk -v s="$set" -v p="$plies" -v r="$r" -v c="$c" -v k="$k" 'BEGIN {
    printf "%-22s %8d %12.0f %12.0f %12.0f %9.1f%%\n", s, p, r/p, (c-r)/p, k/p, 100*(c-r)/k }'
done
echo "share: the classifier's instructions as a part of check --json's"
