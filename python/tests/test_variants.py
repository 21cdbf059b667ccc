"""kifu.read on the records of the shogi variants: VariantGame against the
CLI's check --json (which sniffs each file's variant as read does)."""

import pytest

import kifu
from conftest import FIXTURES, cli_lines, record_files

VARIANTS = FIXTURES / "variants"


def variant_files():
    return record_files(VARIANTS)


def test_every_variant_fixture_reads_as_the_cli_reports_it(kifu_bin):
    files = variant_files()
    assert len(files) > 40
    reports = cli_lines(kifu_bin, ["check", "--json"], files)
    seen_variants = set()
    for f in files:
        games = kifu.read(str(f))
        assert games and all(isinstance(g, kifu.VariantGame) for g in games), f
        assert [g.report() for g in games] == reports[str(f)], f
        for g in games:
            seen_variants.add(g.variant)
            assert len(g) == len(g.sfens()) == g.report()["plies"]
            assert len(g.moves) >= len(g)
            assert g.verdict.legal == (g.report()["verdict"]["legal"])
    assert {"chushogi", "judkins", "micro", "minishogi", "shoshogi", "torishogi"} <= seen_variants


def test_a_foul_names_its_rule_ply_loser_and_place():
    (f,) = [p for p in variant_files() if p.parent.name == "chushogi" and p.stem == "illegal-1"]
    (g,) = kifu.read(str(f))
    v = g.verdict
    assert not v.legal and v.rule and v.ply >= 1 and v.loser in ("sente", "gote")
    assert v.line is not None and v.column is not None
    assert g.result.winner != v.loser


def test_variant_can_be_named_and_an_unknown_one_is_refused():
    # Sho shogi's start is a 9x9 board that also fits modern shogi: read as
    # shogi unless named.
    usi = b"position sfen lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1 moves 7g7f\n"
    (g,) = kifu.read(usi, variant="shoshogi")
    assert isinstance(g, kifu.VariantGame) and g.variant == "shoshogi"
    assert g.moves == ["7g7f"] and g.verdict.legal
    with pytest.raises(ValueError):
        kifu.read(usi, variant="xiangqi")
    # A shogi record stays a Game.
    (s,) = kifu.read(b"position startpos moves 7g7f\n")
    assert isinstance(s, kifu.Game)
