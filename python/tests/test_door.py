"""read_many over directories and its refusal of a lone path, lenient
reads of a garbled record, and the attributes of FileNotFoundError."""

import errno
import subprocess
import warnings

import pytest

import kifu
from conftest import FIXTURES, record_files


def test_read_many_walks_a_directory_as_the_cli_does(tmp_path, kifu_bin):
    (tmp_path / "b").mkdir()
    (tmp_path / "a-z").mkdir()
    (tmp_path / "b" / "one.usi").write_text("position startpos moves 7g7f\n")
    (tmp_path / "a-z" / "two.csa").write_text("PI\n+\n+2726FU\n-8384FU\n")
    (tmp_path / "a.kifu").write_text("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n", encoding="utf-8")
    # Not records: another extension, and a JSON file that is no JKF.
    (tmp_path / "notes.txt").write_text("position startpos moves 7g7f\n")
    (tmp_path / "settings.json").write_text('["not", "a", "record"]\n')
    got = [(g.source, len(g.moves)) for g in kifu.read_many([str(tmp_path)], jobs=2)]
    out = subprocess.run(
        [kifu_bin, "check", "--json", str(tmp_path)], capture_output=True, text=True
    )
    import json

    cli = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    cli_games = [(c["source"], c["plies"]) for c in cli if "verdict" in c]
    assert [s for s, _ in got] == [s for s, _ in cli_games]
    # Tree order: `a-z/` before `a.kifu` (as `-` sorts before `.`), then `b/`.
    assert [n for _, n in got] == [2, 3, 1]


def test_read_many_of_the_fixture_directory_gives_every_record_file(fixture_files):
    got = {g.source for g in kifu.read_many([str(FIXTURES)]) if not isinstance(g, Exception)}
    readable = set()
    for f in record_files(FIXTURES):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if kifu.read(str(f)):
                    readable.add(str(f))
            except (kifu.KifuError, OSError):
                pass
    assert got == readable
    assert len(got) > 10


@pytest.mark.parametrize("one", ["fixtures", b"fixtures"])
def test_read_many_of_a_single_str_raises_type_error(one):
    with pytest.raises(TypeError, match="iterable of paths"):
        kifu.read_many(one)


GARBLED = FIXTURES / "kif" / "garbled-move-50.kifu"


def test_a_lenient_read_gives_the_readable_part_of_a_garbled_record_with_its_error(kifu_bin):
    with pytest.raises(kifu.ParseError) as strict:
        kifu.read(str(GARBLED))
    with pytest.warns(kifu.ReadWarning, match="partial-game"):
        games = kifu.read(str(GARBLED), lenient=True)
    assert len(games) == 1
    game = games[0]
    assert isinstance(game.error, kifu.ParseError)
    assert game.error.line == strict.value.line
    # What `convert --lenient` writes of it: the same moves.
    out = subprocess.run(
        [kifu_bin, "convert", "--lenient", "-q", "--to", "usi", str(GARBLED)],
        capture_output=True,
        text=True,
    )
    cli_moves = out.stdout.split(" moves ")[1].split()
    assert game.moves == cli_moves
    assert len(game.moves) == 49


def test_a_whole_game_read_leniently_has_no_error():
    game = kifu.read("position startpos moves 7g7f\n", lenient=True)[0]
    assert game.error is None


def test_file_not_found_error_carries_filename_and_errno(tmp_path):
    missing = str(tmp_path / "missing.kif")
    with pytest.raises(FileNotFoundError) as e:
        kifu.read(missing)
    assert e.value.filename == missing
    assert e.value.errno == errno.ENOENT
    # A path given as os.PathLike goes through the OS, and says the same.
    with pytest.raises(FileNotFoundError) as e:
        kifu.read(tmp_path / "missing.kif")
    assert e.value.filename == missing
    assert e.value.errno == errno.ENOENT
