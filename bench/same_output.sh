#!/usr/bin/env bash
# Whether this tree's kifu writes byte for byte what another build writes:
# `check --json` and every `--to` (plus `--lenient` KIF), on the corpus and
# on generated games. Run it before and after a change meant to keep output.
# Usage: bench/same_output.sh BASE_KIFU [GAMES]   (default 2000)
# Exit 0 when every output is identical; the differing outputs are listed.
set -u
cd "$(dirname "$0")/.."
BASE=${1:?usage: bench/same_output.sh BASE_KIFU [GAMES]}
N=${2:-2000}
CORPUS=${KIFU_CORPUS:-../shared/corpus}
W=$(mktemp -d /tmp/kifu-same.XXXXXX)
trap 'rm -rf "$W"' EXIT
cargo build --release --quiet --bin kifu --examples || exit 1
NEW=$PWD/target/release/kifu
G=$PWD/target/release/examples/gen_games
mkdir -p "$W/in"
$G csa "$N" "$W/in/csa" 2>/dev/null
$G kif "$N" "$W/in/kif" 2>/dev/null
"$NEW" convert -q --to kifu --out-dir "$W/in/kifu" "$W/in/csa"
"$NEW" convert -q --to ki2u --out-dir "$W/in/ki2u" "$W/in/csa"
"$NEW" convert -q --to usi --out-dir "$W/in/usi" "$W/in/csa"
first=1; for f in "$W"/in/csa/*.csa; do [ $first = 1 ] || echo /; cat "$f"; first=0; done > "$W/in/all.csa"
sets=("$W/in/csa" "$W/in/all.csa" "$W/in/kif" "$W/in/kifu" "$W/in/ki2u" "$W/in/usi")
if [ -d "$CORPUS" ]; then sets+=("$CORPUS"); else echo "no corpus at $CORPUS: generated games only"; fi

run() { # side (base|new), binary
  local side=$1 k=$2 i=0
  for s in "${sets[@]}"; do
    i=$((i + 1))
    local o=$W/$side/$i
    mkdir -p "$o"
    (cd "$o" && "$k" check -j1 --json "$s" >check.json 2>check.err; echo $? >check.rc)
    for t in usi sfen csa kif kifu ki2 ki2u jkf json hcpe psv; do
      (cd "$o" && "$k" convert -q -j1 --to "$t" --out-dir "$o/$t" "$s" >"$t.out" 2>"$t.err"; echo $? >"$t.rc")
    done
    (cd "$o" && "$k" convert -q -j1 --lenient --to kifu --out-dir "$o/lenient" "$s" >lenient.out 2>lenient.err; echo $? >lenient.rc)
  done
}
run base "$BASE"
run new "$NEW"
# Timings and rates are the one part of a summary that may differ.
find "$W/base" "$W/new" -name '*.err' -exec sed -i -E 's/"elapsed_s":[^}]*/"elapsed_s":_/; s/[0-9.]+ ?(ms|s) \([0-9.,]+ [a-z]+\/s[^)]*\)/_/g' {} +
# The paths in messages name the sets, which are the same for both sides,
# but a clash message also names its output folder (base/ or new/).
for side in base new; do
  find "$W/$side" -name '*.err' -exec sed -i "s|$W/$side/|$W/side/|g" {} +
done
if diff -r -q "$W/base" "$W/new"; then
  echo "identical: ${#sets[@]} input sets, check --json and 12 conversions each"
else
  diff -r "$W/base" "$W/new" | head -40
  exit 1
fi
