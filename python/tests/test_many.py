"""kifu.read_many: input order, parallel reading, error items, and a
multi-gigabyte-style CSA file streamed in bounded memory."""

import pathlib
import subprocess
import sys
import warnings

import pytest

import kifu

ROOT = pathlib.Path(__file__).parents[2]


def summary(g):
    if isinstance(g, Exception):
        return (type(g).__name__, getattr(g, "path", None) or getattr(g, "filename", None))
    return (g.source, g.index, tuple(g.moves), g.verdict.legal, g.result.reason)


def expected(paths):
    out = []
    for p in paths:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out.extend(summary(g) for g in kifu.read(p))
        except (kifu.KifuError, OSError) as e:
            out.append(summary(e))
    return out


def test_games_come_in_input_order_with_one_job_or_two(fixture_files):
    paths = [str(p) for p in fixture_files] * 3
    want = expected(paths)
    for jobs in (1, 2, 8):
        assert [summary(g) for g in kifu.read_many(paths, jobs=jobs)] == want


def test_an_unreadable_input_is_one_error_item_and_the_stream_goes_on(tmp_path):
    # No extension to hint a format (a .kif of prose still reads as an
    # empty KIF game today).
    junk = tmp_path / "junk.txt"
    junk.write_bytes(b"not a record at all\nreally\n")
    missing = tmp_path / "missing.csa"
    good = ROOT / "fixtures/usi/nifu.usi"
    items = list(kifu.read_many([good, missing, junk, good], jobs=2))
    assert len(items) == 4
    assert isinstance(items[0], kifu.Game) and isinstance(items[3], kifu.Game)
    assert isinstance(items[1], FileNotFoundError)
    assert items[1].filename == str(missing)
    assert isinstance(items[2], kifu.NotARecord) and items[2].path == str(junk)


def big_csa(path, megabytes):
    """A multi-game CSA file of copies of one game, and how many it holds."""
    game = (ROOT / "fixtures/csa/v3.csa").read_bytes()
    copies = megabytes * 1024 * 1024 // (len(game) + 2) + 1
    with open(path, "wb") as f:
        f.write(b"/\n".join([game] * copies))
    return copies


def test_a_large_csa_file_is_streamed_to_the_games_read_whole(tmp_path):
    path = tmp_path / "big.csa"
    n = big_csa(path, 6)
    streamed = [summary(g) for g in kifu.read_many([path], jobs=2)]
    assert len(streamed) == n
    assert streamed == expected([path])
    assert [s[1] for s in streamed] == list(range(n))


def test_a_stream_left_early_stops_its_workers(tmp_path):
    path = tmp_path / "big.csa"
    big_csa(path, 6)
    stream = kifu.read_many([path] * 4, jobs=2)
    first = [next(stream) for _ in range(10)]
    assert all(isinstance(g, kifu.Game) for g in first)
    del stream  # must not hang or leak a blocked worker


def test_streaming_memory_stays_bounded(tmp_path):
    path = tmp_path / "big.csa"
    big_csa(path, 48)
    # A fresh process, so its peak RSS is this stream's alone.
    code = (
        "import kifu, resource, sys\n"
        "n = sum(1 for g in kifu.read_many([sys.argv[1]], jobs=2))\n"
        "print(n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, check=True)
    games, peak_mb = map(int, out.stdout.split())
    assert games > 100_000
    # Read whole, the 48 MB file's 128,000 games take over 1 GB; streamed
    # alone it peaks near 15 MB, but up to ~240 MB was seen while the rest
    # of the suite ran beside it (not explained yet): the bound tells the
    # two apart without failing on a loaded machine.
    assert peak_mb < 400, f"peak RSS {peak_mb} MB"


def test_jobs_must_be_positive():
    with pytest.raises(ValueError):
        kifu.read_many([], jobs=0)
    assert list(kifu.read_many([])) == []
