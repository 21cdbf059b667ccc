"""One job, timed in one Python process for three packages: read every file,
check every move, produce the moves (USI) and the SFEN after each move.

    python bench/python_vs.py [--corpus DIR] [--games N]

Needs the kifu package (`pip install ./python`), cshogi and python-shogi.
The 2,000 generated games are made by `examples/gen_games` (as bench/run.sh
makes them): one file a game, KIF (Shift_JIS) and CSA. Each case runs on one
core in this process (best of three); read_many is also timed with two jobs.
"""

import argparse
import glob
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import warnings

import cshogi
import cshogi.CSA
import cshogi.KIF
import shogi
import shogi.CSA
import shogi.KIF

import kifu

ROOT = pathlib.Path(__file__).resolve().parents[1]


def job_kifu(paths):
    plies = 0
    for g in kifu.read_many(paths, jobs=1):
        if isinstance(g, Exception):
            continue
        moves, sfens = g.moves, g.sfens()
        plies += len(moves)
        assert len(sfens) == len(moves)
    return plies


def job_kifu_read(paths):
    plies = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for p in paths:
            try:
                games = kifu.read(p)
            except (kifu.KifuError, OSError):
                continue
            for g in games:
                moves, sfens = g.moves, g.sfens()
                plies += len(moves)
    return plies


def job_kifu_jobs(n):
    def job(paths):
        plies = 0
        for g in kifu.read_many(paths, jobs=n):
            if not isinstance(g, Exception):
                moves, sfens = g.moves, g.sfens()
                plies += len(moves)
        return plies

    return job


def cshogi_games(path):
    if path.endswith(".csa"):
        return cshogi.CSA.Parser.parse_file(path)
    return [cshogi.KIF.Parser.parse_file(path)]


def job_cshogi(paths):
    plies = 0
    for p in paths:
        try:
            games = cshogi_games(p)
        except Exception:  # a peer that cannot read a file skips it
            continue
        for k in games:
            board = cshogi.Board(k.sfen)
            moves, sfens = [], []
            for mv in k.moves:
                if not board.is_legal(mv):
                    break
                moves.append(cshogi.move_to_usi(mv))
                board.push(mv)
                sfens.append(board.sfen())
            plies += len(moves)
    return plies


def shogi_games(path):
    if path.endswith(".csa"):
        with open(path, encoding="utf-8", errors="replace") as f:
            return shogi.CSA.Parser.parse_str(f.read())
    return shogi.KIF.Parser.parse_file(path) or []


def job_python_shogi(paths):
    plies = 0
    for p in paths:
        try:
            games = shogi_games(p)
        except Exception:
            continue
        for k in games:
            board = shogi.Board(k["sfen"])
            moves, sfens = [], []
            for usi in k["moves"]:
                mv = shogi.Move.from_usi(usi)
                if not board.is_legal(mv):
                    break
                board.push(mv)
                moves.append(usi)
                sfens.append(board.sfen())
            plies += len(moves)
    return plies


def best_of(job, paths, runs=3):
    best, plies = None, 0
    for _ in range(runs):
        t = time.perf_counter()
        plies = job(paths)
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best, plies


def generate(n, where):
    exe = ROOT / "target" / "release" / "examples" / "gen_games"
    if not exe.exists():
        exe = ROOT / "target" / "debug" / "examples" / "gen_games"
    if not exe.exists():
        subprocess.run(["cargo", "build", "-q", "--example", "gen_games"], cwd=ROOT, check=True)
    for fmt in ("kif", "csa"):
        subprocess.run([str(exe), fmt, str(n), os.path.join(where, fmt)], check=True,
                       stderr=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="kifu-pybench-")
    generate(args.games, tmp)
    sets = {
        "generated KIF": sorted(glob.glob(os.path.join(tmp, "kif", "*"))),
        "generated CSA": sorted(glob.glob(os.path.join(tmp, "csa", "*"))),
    }
    corpus = pathlib.Path(args.corpus)
    if corpus.is_dir():
        for ext, name in ((".kif", "corpus KIF"), (".csa", "corpus CSA")):
            sets[name] = sorted(str(p) for p in corpus.rglob("*" + ext))
    cases = [
        ("kifu read_many jobs=1", job_kifu),
        ("kifu read() per file", job_kifu_read),
        ("kifu read_many jobs=2", job_kifu_jobs(2)),
        ("cshogi", job_cshogi),
        ("python-shogi", job_python_shogi),
    ]
    print(f"| set | files | case | plies | seconds | plies/s | kifu jobs=1 vs this |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for name, paths in sets.items():
        base = None
        for label, job in cases:
            secs, plies = best_of(job, paths, runs=1 if label == "python-shogi" else 3)
            if base is None:
                base = secs
            print(f"| {name} | {len(paths)} | {label} | {plies:,} | {secs:.3f} | "
                  f"{plies / secs:,.0f} | {secs / base:.1f}× |", flush=True)


if __name__ == "__main__":
    main()
