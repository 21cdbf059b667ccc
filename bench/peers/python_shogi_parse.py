"""Peer, parse task: python-shogi reads each CSA or KIF file into its moves,
without replaying them on a board. Usage: python_shogi_parse.py csa|kif DIR"""
import glob, os, sys, time
import shogi.CSA
import shogi.KIF

fmt, folder = sys.argv[1], sys.argv[2]
# The loop alone is timed too: interpreter start-up and imports are not
# throughput, and bench/run.sh reports both.
t0 = time.perf_counter()
games = plies = 0
for path in sorted(glob.glob(os.path.join(folder, "*." + fmt))):
    if fmt == "csa":
        with open(path) as f:
            parsed = shogi.CSA.Parser.parse_str(f.read())
    else:
        parsed = shogi.KIF.Parser.parse_file(path)
    # parse_file returns None on any failure: a peer that cannot read the
    # files must fail the run, not be timed on nothing.
    assert parsed, f"python-shogi could not read {path}"
    for kifu in parsed:
        plies += len(kifu["moves"])
        games += 1
loop = time.perf_counter() - t0
print(games, plies, file=sys.stderr)
print(f"loop-seconds {loop:.6f}", file=sys.stderr)
if games == 0:
    sys.exit(1)
