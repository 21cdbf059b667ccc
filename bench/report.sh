#!/usr/bin/env bash
# The HTML report at archive scale: generate N fouls (default 10,000) as
# multi-game USI files of 100 games each, write `kifu check --report`, and
# time headless Chromium loading it: to the end of the inline script (the
# page parsed; boards off screen are laid out when scrolled to), to a first
# screenshot, and with every board drawn (`#draw=all`). An empty page gives
# Chromium's own start-up time, to subtract.
#
# Usage: [RUNS=3] bench/report.sh [N]   (needs Debian's chromium; KIFU=path/to/kifu
# skips the release build: the page is the same from any build)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/games"
# Three fouls in turn: a drop (nifu), a move (bad-movement), a self-check.
games=(
  "position startpos moves 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d 4a3b P*7f"
  "position startpos moves 7g7f 3c3d 7f7d"
  "position startpos moves 5g5f 5c5d 5f5e 5d5e 5i5h 5e5f 5h5g"
)
for ((i = 0; i < n; i++)); do
  echo "${games[i % 3]}" >>"$work/games/f$((i / 100)).usi"
done
kifu=${KIFU:-}
if [ -z "$kifu" ]; then
  cargo build --release --quiet
  kifu=target/release/kifu
fi
/usr/bin/time -f "kifu check --report: %e s, %M KB" \
  "$kifu" check -q --report "$work/report.html" "$work/games" >/dev/null || true # exit 1: fouls
uptime
echo "report: $(grep -c '<article class="card"' "$work/report.html") cards, $(du -h "$work/report.html" | cut -f1)"
echo '<!DOCTYPE html><html><body></body></html>' >"$work/empty.html"
browse() {
  local profile
  profile=$(mktemp -d)
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --window-size=1280,1000 "$@" 2>/dev/null
  rm -rf "$profile"
}
timed() {
  local label=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  browse "$@" >/dev/null
  t1=$(date +%s.%N)
  printf '%s: %.2f s\n' "$label" "$(echo "$t1 - $t0" | bc)"
}
for ((run = 1; run <= ${RUNS:-3}; run++)); do
  echo "run $run"
  timed "  empty page, dump-dom" --dump-dom "file://$work/empty.html"
  timed "  report, dump-dom (parsed, script run)" --dump-dom "file://$work/report.html"
  timed "  report, screenshot" --screenshot="$work/shot.png" "file://$work/report.html"
  timed "  report, every board drawn (#draw=all)" --dump-dom "file://$work/report.html#draw=all"
done
