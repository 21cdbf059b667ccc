#!/usr/bin/env bash
# kifu dedup against kifu check on one multi-game CSA file in which one game
# in ten is a copy of another (half of them whole, half cut short), at -j1
# and the default -j; seconds and peak RSS of each.
# Usage: bench/dedup.sh [GAMES]   (default 200000; needs cargo)
set -u
cd "$(dirname "$0")/.."
N=${1:-200000}
W=$(mktemp -d /tmp/kifu-dedup-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
cargo build --release --quiet --bin kifu --examples || exit 1
K=$PWD/target/release/kifu
G=$PWD/target/release/examples/gen_games
ORIG=$((N - N / 10))
$G csa "$ORIG" "$W/csa" 2>"$W/csa.txt"
# The distinct games, then copies of every ninth: whole, or without its
# last 10 lines (a truncated copy).
python3 - "$W/csa" "$W/all.csa" "$N" <<'PY'
import os, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = sorted(os.listdir(src))
games = [open(os.path.join(src, f)).read() for f in files]
copies = []
for i, g in enumerate(games[::9][: n - len(games)]):
    lines = g.splitlines(keepends=True)
    copies.append(g if i % 2 == 0 else "".join(lines[:-10]))
with open(dst, "w") as out:
    out.write("/\n".join(games + copies))
PY
echo "machine: $(nproc) cores; $N games in one CSA file, $((N / 10)) of them copies"
printf '%-26s %10s %10s\n' case seconds "peak RSS"
run() {
  local name=$1; shift
  if ! /usr/bin/time -o "$W/t" -f '%e %M' "$@" >/dev/null 2>"$W/err"; then
    printf '%-26s FAILED: %s\n' "$name" "$(tail -c 300 "$W/err" | tr '\n' ' ')"
    return
  fi
  read -r s kb < "$W/t"
  printf '%-26s %10s %8s MB\n' "$name" "$s" "$((kb / 1024))"
}
# check exits 1 when a generated game has a foul; the time is what counts.
run "kifu check -j1" sh -c "'$K' check -q -j1 '$W/all.csa'; [ \$? -le 1 ]"
run "kifu dedup -j1" "$K" dedup -q -j1 "$W/all.csa"
run "kifu check" sh -c "'$K' check -q '$W/all.csa'; [ \$? -le 1 ]"
run "kifu dedup" "$K" dedup -q "$W/all.csa"
