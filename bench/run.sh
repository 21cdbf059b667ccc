#!/usr/bin/env bash
# Throughput of kifu on generated games, against the floor (`cat`) and peers.
# Usage: bench/run.sh [GAMES]   (default 2000; needs cargo; hyperfine optional)
set -u
cd "$(dirname "$0")/.."
N=${1:-2000}
W=$(mktemp -d /tmp/kifu-bench.XXXXXX)
cargo build --release --quiet --bin kifu --examples || exit 1
K=$PWD/target/release/kifu
G=$PWD/target/release/examples/gen_games
P=$PWD/target/release/examples/parse_only
# Conversions write one file per game: on tmpfs where there is one, so the
# disk's write-back (which varies from run to run) is not what is timed.
OUT=$W/out
[ -d /dev/shm ] && [ -w /dev/shm ] && OUT=$(mktemp -d /dev/shm/kifu-bench.XXXXXX)
$G csa "$N" "$W/csa" 2>"$W/csa.txt"
$G kif "$N" "$W/kif" 2>"$W/kif.txt"
PLIES=$(awk '{print $3}' "$W/csa.txt")
# One multi-game file of the same games, separated by `/` lines.
first=1; for f in "$W"/csa/*.csa; do [ $first = 1 ] || echo /; cat "$f"; first=0; done > "$W/all.csa"
MB_CSA=$(du -sm --apparent-size "$W/csa" | cut -f1)
# Ten copies of it, for a run long enough that start-up and the last batch
# do not weigh on the -j2 / -j1 ratio (figures per copy: divide by 10).
for i in 1 2 3 4 5 6 7 8 9 10; do [ $i = 1 ] || echo /; cat "$W/all.csa"; done > "$W/all10.csa"
# The peers read a directory: cshogi's reader also takes the one multi-game
# file, and is faster on it than on 2,000 files, so kifu's one-file runs are
# set against that run, like against like.
mkdir "$W/one" && ln "$W/all.csa" "$W/one/all.csa"

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1); $N games, $PLIES plies"
printf '%-34s %10s %12s %8s %10s\n' case seconds games/s MB/s "peak RSS"

declare -A SECS LOOP
run() { # name, command...   A command that fails is reported as FAILED, never timed.
  local name=$1; shift
  local t="" rss
  if ! /usr/bin/time -o "$W/t" -f '%e %M' "$@" >/dev/null 2>"$W/err"; then
    printf '%-34s FAILED (exit status non-zero): %s\n' "$name" "$(tail -c 300 "$W/err" | tr '\n' ' ')"
    return
  fi
  rss=$(tail -1 "$W/t")
  if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 1 --min-runs 5 --export-json "$W/h.json" -- "$(printf '%q ' "$@")" >/dev/null 2>&1 &&
      t=$(python3 -c "import json;print('%.3f'%json.load(open('$W/h.json'))['results'][0]['median'])")
  fi
  [ -n "$t" ] || t=${rss% *}
  case $name in *"time/10"*) t=$(python3 -c "print($t / 10)") ;; esac
  SECS[$name]=$t
  # Peers also time their own parse + replay loop (no interpreter start-up,
  # no imports): the best of three runs is kept, for a throughput-only ratio.
  if grep -q '^loop-seconds ' "$W/err"; then
    local best i l
    best=$(sed -n 's/^loop-seconds //p' "$W/err")
    for i in 1 2; do
      "$@" >/dev/null 2>"$W/err2" || continue
      l=$(sed -n 's/^loop-seconds //p' "$W/err2")
      [ -n "$l" ] && best=$(python3 -c "print(min($best, $l))")
    done
    LOOP[$name]=$best
  fi
  local kb=${rss#* }
  python3 - "$name" "$t" "$N" "$PLIES" "$MB_CSA" "$kb" <<'PY'
import sys
n,t,g,p,mb,kb=sys.argv[1],float(sys.argv[2]),int(sys.argv[3]),int(sys.argv[4]),float(sys.argv[5]),int(sys.argv[6])
t=max(t,1e-3)
print(f"{n:<34} {t:>10.3f} {g/t:>12.0f} {mb/t:>8.1f} {kb/1024:>8.1f} MB   ({p/t:,.0f} moves/s)")
PY
  if [ -n "${LOOP[$name]:-}" ]; then
    python3 - "${LOOP[$name]}" "$N" "$PLIES" <<'PY'
import sys
t,g,p=float(sys.argv[1]),int(sys.argv[2]),int(sys.argv[3])
t=max(t,1e-6)
print(f"{'  (its loop alone: %.3f s)' % t:<34} {'':>10} {g/t:>12.0f} {'':>8} {'':>8}      ({p/t:,.0f} moves/s)")
PY
  fi
}

ratio() { # peer name [kifu case]: how many times faster that kifu case is (default: CSA files, -j1)
  local case=${2:-kifu check -j1 (CSA files)}
  local base=${SECS[$case]:-} peer=${SECS[$1]:-}
  [ -n "$base" ] && [ -n "$peer" ] && python3 -c "print(f'  {\"$case\"} vs {\"$1\"}: {float($peer)/max(float($base),1e-3):.1f}x faster')"
  # Against the peer's loop alone (kifu's own time still includes its start-up).
  local loop=${LOOP[$1]:-}
  [ -n "$base" ] && [ -n "$loop" ] && python3 -c "print(f'  {\"$case\"} vs {\"$1\"} (its loop alone): {float($loop)/max(float($base),1e-3):.1f}x faster')"
  return 0
}

run "cat (separate CSA files)" find "$W/csa" -name "*.csa" -exec cat {} +
run "cat (separate KIF files)" find "$W/kif" -name "*.kif" -exec cat {} +
run "cat (one CSA file)" cat "$W/all.csa"
run "kifu check -j1 (CSA files)" "$K" check -q -j1 "$W/csa"
run "kifu check -j2 (CSA files)" "$K" check -q -j2 "$W/csa"
run "kifu check -j1 (one CSA file)" "$K" check -q -j1 "$W/all.csa"
run "kifu check -j2 (one CSA file)" "$K" check -q -j2 "$W/all.csa"
run "kifu check -j1 (10 copies, time/10)" "$K" check -q -j1 "$W/all10.csa"
run "kifu check -j2 (10 copies, time/10)" "$K" check -q -j2 "$W/all10.csa"
run "kifu check -j1 (KIF files)" "$K" check -q -j1 "$W/kif"
run "kifu check -j2 (KIF files)" "$K" check -q -j2 "$W/kif"
run "kifu convert --to json (one CSA)" "$K" convert -q --to json "$W/all.csa"
# The parse task: the library reads the records, no move is replayed.
run "kifu parse only (CSA files)" "$P" "$W/csa"
run "kifu parse only (one CSA file)" "$P" "$W/all.csa"
run "kifu parse only (KIF files)" "$P" "$W/kif"
# Convert to JSON, like for like with tsshogi: JKF, one file per game.
run "kifu convert --to jkf -j1 (CSA files)" "$K" convert -q -j1 --force --to jkf --out-dir "$OUT/kifu-jkf" "$W/csa"
run "kifu convert --to jkf -j2 (CSA files)" "$K" convert -q -j2 --force --to jkf --out-dir "$OUT/kifu-jkf" "$W/csa"

echo
echo "parallel speed-up (-j2 against -j1, same input):"
ratio "kifu check -j1 (CSA files)" "kifu check -j2 (CSA files)"
ratio "kifu check -j1 (one CSA file)" "kifu check -j2 (one CSA file)"
ratio "kifu check -j1 (10 copies, time/10)" "kifu check -j2 (10 copies, time/10)"
ratio "kifu check -j1 (KIF files)" "kifu check -j2 (KIF files)"
echo "against the floor (how many times cat's time kifu takes):"
floor() { # kifu case, cat case
  local k=${SECS[$1]:-} c=${SECS[$2]:-}
  [ -n "$k" ] && [ -n "$c" ] && python3 -c "print(f'  {\"$1\"}: {float($k)/max(float($c),1e-3):.2f}x {\"$2\"}')"
}
floor "kifu check -j2 (CSA files)" "cat (separate CSA files)"
floor "kifu check -j1 (CSA files)" "cat (separate CSA files)"
floor "kifu check -j2 (KIF files)" "cat (separate KIF files)"

echo
echo "peers (the same games: parse + replay, parse only, and for tsshogi conversion to JKF; CSA files, then Shift_JIS KIF files):"
if python3 -m venv "$W/venv" >/dev/null 2>&1 && "$W/venv/bin/pip" install -q cshogi python-shogi >/dev/null 2>&1; then
  run "cshogi (Python)" "$W/venv/bin/python" bench/peers/cshogi_check.py "$W/csa"
  run "cshogi (Python, one CSA file)" "$W/venv/bin/python" bench/peers/cshogi_check.py "$W/one"
  run "python-shogi" "$W/venv/bin/python" bench/peers/python_shogi_check.py "$W/csa"
  run "cshogi KIF (Python)" "$W/venv/bin/python" bench/peers/cshogi_kif_check.py "$W/kif"
  run "python-shogi KIF" "$W/venv/bin/python" bench/peers/python_shogi_kif_check.py "$W/kif"
  run "cshogi parse only (CSA files)" "$W/venv/bin/python" bench/peers/cshogi_parse.py csa "$W/csa"
  run "cshogi parse only (KIF files)" "$W/venv/bin/python" bench/peers/cshogi_parse.py kif "$W/kif"
  run "python-shogi parse only (CSA files)" "$W/venv/bin/python" bench/peers/python_shogi_parse.py csa "$W/csa"
  run "python-shogi parse only (KIF files)" "$W/venv/bin/python" bench/peers/python_shogi_parse.py kif "$W/kif"
  ratio "cshogi (Python)"; ratio "python-shogi"
  ratio "cshogi (Python)" "kifu check -j2 (CSA files)"
  ratio "cshogi (Python, one CSA file)" "kifu check -j1 (one CSA file)"
  ratio "cshogi (Python, one CSA file)" "kifu check -j2 (one CSA file)"
  ratio "cshogi (Python, one CSA file)" "kifu check -j1 (10 copies, time/10)"
  ratio "cshogi (Python, one CSA file)" "kifu check -j2 (10 copies, time/10)"
  ratio "cshogi KIF (Python)" "kifu check -j1 (KIF files)"
  ratio "cshogi KIF (Python)" "kifu check -j2 (KIF files)"
  ratio "cshogi KIF (Python)" "cat (separate KIF files)"
  ratio "python-shogi KIF" "kifu check -j1 (KIF files)"
  ratio "cshogi parse only (CSA files)" "kifu parse only (CSA files)"
  ratio "cshogi parse only (KIF files)" "kifu parse only (KIF files)"
  ratio "python-shogi parse only (CSA files)" "kifu parse only (CSA files)"
  ratio "python-shogi parse only (KIF files)" "kifu parse only (KIF files)"
else
  echo "  cshogi / python-shogi: installation failed (no network or no venv); skipped"
fi
if command -v npm >/dev/null && (cd "$W" && npm init -y >/dev/null 2>&1 && npm install --silent tsshogi >/dev/null 2>&1); then
  run "tsshogi (Node)" node bench/peers/tsshogi_check.mjs "$W/csa" "$W/node_modules/tsshogi"
  run "tsshogi KIF (Node)" node bench/peers/tsshogi_kif_check.mjs "$W/kif" "$W/node_modules/tsshogi"
  run "tsshogi CSA -> JKF (Node)" node bench/peers/tsshogi_jkf.mjs "$W/csa" "$OUT/tsshogi-jkf" "$W/node_modules/tsshogi"
  ratio "tsshogi (Node)"
  ratio "tsshogi KIF (Node)" "kifu check -j1 (KIF files)"
  ratio "tsshogi CSA -> JKF (Node)" "kifu convert --to jkf -j1 (CSA files)"
  ratio "tsshogi CSA -> JKF (Node)" "kifu convert --to jkf -j2 (CSA files)"
else
  echo "  tsshogi: npm missing or installation failed; skipped"
fi
rm -rf "$W" "$OUT"
