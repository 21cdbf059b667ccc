"""Peer: python-shogi parses each KIF file and replays its moves on a board."""
import glob, os, sys, time
import shogi
import shogi.KIF

# The loop alone is timed too: interpreter start-up and imports are not
# throughput, and bench/run.sh reports both.
t0 = time.perf_counter()
games = plies = 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.kif*"))):
    # parse_file returns None on any failure; a peer that cannot read the
    # files must fail the run, not be timed on nothing.
    parsed = shogi.KIF.Parser.parse_file(path)
    assert parsed, f"python-shogi could not read {path}"
    for kifu in parsed:
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
if games == 0:
    sys.exit(1)
