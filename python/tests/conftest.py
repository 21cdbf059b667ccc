"""Shared fixtures: the repository's paths, the CLI binary to compare with,
and the corpus (skipped with a message when it is absent)."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"
EXTENSIONS = {".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".usi", ".sfen", ".jkf", ".json"}


def record_files(root):
    """Every record file under root, sorted, as the CLI would search it."""
    return sorted(
        p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in EXTENSIONS
    )


@pytest.fixture(scope="session")
def kifu_bin():
    """The kifu CLI: $KIFU_BIN, or the repository's debug build (built once)."""
    given = os.environ.get("KIFU_BIN")
    if given:
        return given
    subprocess.run(
        ["cargo", "build", "--quiet", "--bin", "kifu"], cwd=ROOT, check=True
    )
    return str(ROOT / "target" / "debug" / "kifu")


def cli_lines(kifu_bin, args, files):
    """JSON Lines the CLI prints for files, grouped by source path."""
    out = subprocess.run(
        [kifu_bin, *args, *map(str, files)],
        capture_output=True,
        check=False,
    )
    assert out.returncode in (0, 1, 2), out.stderr.decode(errors="replace")
    by_source = {}
    for line in out.stdout.decode().splitlines():
        obj = json.loads(line)
        by_source.setdefault(obj["source"], []).append(obj)
    return by_source


@pytest.fixture(scope="session")
def corpus_files():
    if not CORPUS.is_dir():
        print(f"SKIPPED: no corpus at {CORPUS}")
        pytest.skip("corpus absent")
    return record_files(CORPUS)


@pytest.fixture(scope="session")
def fixture_files():
    # Variant records (fixtures/variants) are judged by the CLI's variant
    # engine; the package does not read them yet.
    return [p for p in record_files(FIXTURES) if "variants" not in p.parts]
