#!/usr/bin/env bash
# Instructions per ply (callgrind) for the main cases: a figure that does not
# move with the machine's load, unlike wall time. Needs valgrind.
# Usage: bench/instructions.sh [GAMES]   (default 2000)
set -u
cd "$(dirname "$0")/.."
N=${1:-2000}
W=$(mktemp -d /tmp/kifu-instr.XXXXXX)
trap 'rm -rf "$W"' EXIT
command -v valgrind >/dev/null || { echo "valgrind is needed"; exit 1; }
cargo build --release --quiet --bin kifu --examples || exit 1
# KIFU=path/to/kifu measures another build (an older one, say) on the same data.
K=${KIFU:-$PWD/target/release/kifu}
G=$PWD/target/release/examples/gen_games
$G csa "$N" "$W/csa" 2>"$W/csa.txt"
$G kif "$N" "$W/kif" 2>"$W/kif.txt"
cmp -s "$W/csa.txt" "$W/kif.txt" || { echo "the CSA and KIF sets differ"; exit 1; }
PLIES=$(awk '{print $3}' "$W/csa.txt")
"$K" convert -q --to kifu --out-dir "$W/kifu" "$W/csa"
"$K" convert -q --to ki2u --out-dir "$W/ki2u" "$W/csa"
"$K" convert -q --to usi --out-dir "$W/usi" "$W/csa"
first=1; for f in "$W"/csa/*.csa; do [ $first = 1 ] || echo /; cat "$f"; first=0; done > "$W/all.csa"

echo "$N generated games, $PLIES plies; instructions counted by callgrind (all threads)"
printf '%-44s %15s %10s\n' case instructions per-ply
count() { # name, command...
  local name=$1; shift
  valgrind --tool=callgrind --callgrind-out-file="$W/cg.out" "$@" >/dev/null 2>"$W/vg.txt"
  local ir
  ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$W/vg.txt" | awk '{s+=$1} END{printf "%.0f\n", s}')
  printf '%-44s %15d %10d\n' "$name" "$ir" $((ir / PLIES))
}
count "check -j1, one multi-game CSA file" "$K" check -q -j1 "$W/all.csa"
count "check -j1, $N CSA files" "$K" check -q -j1 "$W/csa"
count "check -j1, $N USI files" "$K" check -q -j1 "$W/usi"
count "check -j1, $N KIF files (Shift_JIS .kif)" "$K" check -q -j1 "$W/kif"
count "check -j1, $N KIF files (UTF-8 .kifu)" "$K" check -q -j1 "$W/kifu"
count "check -j1, $N KI2 files (UTF-8 .ki2u)" "$K" check -q -j1 "$W/ki2u"
# Every writer on the same one file (-j1): what a conversion adds to check.
for t in usi sfen csa kif kifu ki2 ki2u jkf json; do
  count "convert -j1 --to $t, one CSA file" "$K" convert -q -j1 --to "$t" "$W/all.csa"
done
