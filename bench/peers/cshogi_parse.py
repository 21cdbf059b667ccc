"""Peer, parse task: cshogi reads each CSA or KIF file into its moves,
without replaying them on a board. Usage: cshogi_parse.py csa|kif DIR"""
import glob, os, sys, time
from cshogi import CSA, KIF

fmt, folder = sys.argv[1], sys.argv[2]
# The loop alone is timed too: interpreter start-up and imports are not
# throughput, and bench/run.sh reports both.
t0 = time.perf_counter()
games = plies = 0
for path in sorted(glob.glob(os.path.join(folder, "*." + fmt))):
    # The CSA reader returns every game of a file, the KIF reader the one.
    kifus = CSA.Parser.parse_file(path) if fmt == "csa" else [KIF.Parser.parse_file(path)]
    for kifu in kifus:
        plies += len(kifu.moves)
        games += 1
loop = time.perf_counter() - t0
print(games, plies, file=sys.stderr)
print(f"loop-seconds {loop:.6f}", file=sys.stderr)
if games == 0:
    sys.exit(1)
