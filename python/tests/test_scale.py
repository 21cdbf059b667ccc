"""The Dask example of docs/scale.md, on a local cluster of two worker
processes: its output equals `kifu check --json` on the same files."""

import json
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("dask")
distributed = pytest.importorskip("dask.distributed")

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "examples"))
import dask_check  # noqa: E402


def test_dask_bag_over_two_worker_processes_equals_check_json(kifu_bin, fixture_files):
    # Readable files only, as docs/scale.md says: the CLI's error object for
    # a record cut short also holds the replayed readable part, which the
    # example does not rebuild.
    garbled = ("garbled-move-50", "variation-from-terminal")
    paths = [str(p) for p in fixture_files if not p.stem.startswith(garbled)]
    cli = subprocess.run([kifu_bin, "check", "--json", *paths], capture_output=True, check=False)
    want = [json.loads(line) for line in cli.stdout.decode().splitlines()]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        got = dask_check.check_files(client, paths, shards=4)
    assert len(want) >= len(paths)
    assert got == want
    # Same bytes as the CLI's lines, too (the example's serialisation).
    lines = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in got]
    assert "\n".join(lines) + "\n" == cli.stdout.decode()
