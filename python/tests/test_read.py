"""kifu.read and Game against the CLI's JSON: moves, SFENs, verdicts."""

import pathlib
import warnings

import pytest

import kifu
from conftest import cli_lines


def games_by_source(files):
    out = {}
    for f in files:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", kifu.ReadWarning)
            try:
                out[str(f)] = kifu.read(str(f))
            except (kifu.KifuError, OSError) as e:
                out[str(f)] = e
    return out


def compare_with_cli(kifu_bin, files):
    """Every game read through the package has the CLI's report, moves and SFENs."""
    reports = cli_lines(kifu_bin, ["check", "--json"], files)
    analyses = {}
    for f in files:
        # convert writes one input to stdout; several need --out-dir.
        analyses.update(cli_lines(kifu_bin, ["convert", "--to", "json", "-q"], [f]))
    compared = 0
    for source, games in games_by_source(files).items():
        if isinstance(games, Exception):
            # The CLI could not read it either: it printed an error object,
            # no game.
            for line in reports.get(source, []):
                assert "error" in line and "verdict" not in line, (source, line)
                if isinstance(games, kifu.KifuError) and games.line is not None:
                    assert line["error"]["line"] == games.line, source
            continue
        assert [g.report() for g in games] == reports[source], source
        # The opening kifu names is the one check --json reports.
        assert [g.opening for g in games] == [r.get("opening") for r in reports[source]], source
        for g, a in zip(games, analyses[source]):
            assert g.start_sfen == a["start"]["sfen"]
            assert g.moves == [m["usi"] for m in a["moves"]]
            assert g.sfens() == [m["sfen"] for m in a["moves"]]
            assert g.verdict.to_dict() == a["verdict"]
            assert g.result.to_dict() == a["result"]
            assert g.evals == [m["eval"] for m in a["moves"]]
            assert g.comments == [m["comments"] for m in a["moves"]]
            assert g.json() == a
            compared += 1
    return compared


def test_fixtures_read_as_the_cli_reads_them(kifu_bin, fixture_files):
    assert compare_with_cli(kifu_bin, fixture_files) >= len(fixture_files)


def test_corpus_reads_as_the_cli_reads_it(kifu_bin, corpus_files):
    assert compare_with_cli(kifu_bin, corpus_files) > 400


def test_a_foul_is_a_verdict_with_rule_ply_loser_and_place():
    (g,) = kifu.read(str(pathlib.Path(__file__).parents[2] / "fixtures/usi/nifu.usi"))
    v = g.verdict
    assert (v.legal, v.rule, v.ply, v.loser, v.line, v.column) == (
        False, "nifu", 9, "sente", 3, 65,
    )
    assert v.move == "P*7f" and "file 7" in v.message
    assert (g.result.winner, g.result.reason) == ("gote", "foul")
    assert "rule=\"nifu\"" in repr(v)


def test_source_may_be_a_path_bytes_or_text():
    text = "position startpos moves 7g7f 3c3d\n"
    from_text = kifu.read(text)[0]
    from_bytes = kifu.read(text.encode())[0]
    assert from_text.moves == from_bytes.moves == ["7g7f", "3c3d"]
    p = pathlib.Path(__file__).parents[2] / "fixtures/csa/multi.csa"
    assert [g.moves for g in kifu.read(p)] == [g.moves for g in kifu.read(str(p))]
    assert from_text.source == "<string>" and from_bytes.source == "<bytes>"


def test_format_and_encoding_can_be_forced():
    sjis = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n".encode("cp932")
    (g,) = kifu.read(sjis, format="kif", encoding="shift_jis")
    assert g.moves == ["7g7f"] and g.encoding == "Shift_JIS"
    with pytest.raises(ValueError):
        kifu.read(sjis, format="pgn")
    with pytest.raises(ValueError):
        kifu.read(sjis, encoding="klingon")


def test_parse_errors_carry_path_line_and_column():
    bad = b"V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726XX\n"
    with pytest.raises(kifu.ParseError) as e:
        kifu.read(bad)
    assert e.value.path == "<bytes>"
    assert e.value.line == 6 and e.value.column >= 1
    assert e.value.message
    assert isinstance(e.value, kifu.KifuError)


def test_unknown_input_is_not_a_record_and_binary_is_a_decode_error():
    with pytest.raises(kifu.NotARecord) as e:
        kifu.read(b"just some words\nand more\n")
    assert e.value.path == "<bytes>"
    with pytest.raises(kifu.DecodeError):
        kifu.read(b"\x00\x01\x02PK\x03\x04")


def test_a_missing_file_is_file_not_found_with_its_name(tmp_path):
    missing = tmp_path / "none.kif"
    with pytest.raises(FileNotFoundError) as e:
        kifu.read(missing)
    assert e.value.filename == str(missing)


def test_header_times_and_comments_are_exposed():
    root = pathlib.Path(__file__).parents[2]
    (g,) = kifu.read(root / "fixtures/kif/dojo-time.kifu")
    assert g.header, "the fixture has header lines"
    assert len(g.times) == len(g.moves)
    assert any(t is not None for t in g.times)
    assert all(t is None or len(t) == 2 for t in g.times)


def test_to_gives_text_or_bytes_and_warns_what_it_drops():
    root = pathlib.Path(__file__).parents[2]
    (g,) = kifu.read(root / "fixtures/kif/nested-variations.kifu")
    assert isinstance(g.to("kifu"), str)
    assert isinstance(g.to("kif"), bytes)
    assert g.to("usi").startswith("position ")
    with pytest.warns(kifu.FormatWarning, match="variations-dropped"):
        g.to("csa")
    with pytest.raises(ValueError):
        g.to("pdf")
    # What one format writes reads back as the same game.
    assert kifu.read(g.to("csa"))[0].moves == g.moves


def test_opening_names_each_sides_strategy_with_its_ply():
    usi = b"position startpos moves 7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 8h7g 7a6b\n"
    (g,) = kifu.read(usi, format="usi")
    o = g.opening
    assert o["type"] == "\u5bfe\u6297\u5f62"  # 対抗形
    assert o["sente"]["strategy"][0] == {"name": "\u56db\u9593\u98db\u8eca", "ply": 5}  # 四間飛車


def test_losses_judge_each_move_from_the_records_evaluations():
    csa = (
        "V2.2\nPI\n+\n+7776FU\n'** 50\n-3334FU\n'** 40\n+2726FU\n'** -900\n"
        "-8384FU\n'** -850\n%TORYO\n"
    ).encode()
    (g,) = kifu.read(csa, format="csa")
    losses = g.losses()
    assert [m["ply"] for m in losses] == [2, 3, 4]
    bad = losses[1]
    assert (bad["side"], bad["judgement"]) == ("sente", "blunder")
    assert abs(bad["loss"] - 0.3343) < 1e-3
    assert g.losses(blunder=0.5)[1]["judgement"] == "mistake"
    with pytest.raises(ValueError):
        g.losses(dubious=0.5, mistake=0.2)
