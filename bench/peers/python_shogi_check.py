"""Peer: python-shogi parses each CSA file and replays its moves on a board."""
import glob, os, sys, time
import shogi
import shogi.CSA

# The loop alone is timed too: interpreter start-up and imports are not
# throughput, and bench/run.sh reports both.
t0 = time.perf_counter()
games = plies = 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.csa"))):
    with open(path) as f:
        for kifu in shogi.CSA.Parser.parse_str(f.read()):
            board = shogi.Board(kifu["sfen"])
            for usi in kifu["moves"]:
                mv = shogi.Move.from_usi(usi)
                assert board.is_legal(mv)
                board.push(mv)
                plies += 1
            games += 1
loop = time.perf_counter() - t0
print(games, plies, file=sys.stderr)
print(f"loop-seconds {loop:.6f}", file=sys.stderr)
