"""HCPE and PSV written by kifu, read back by cshogi: every record decodes
to the position, the move and the result kifu reports."""

import pathlib
import warnings

import numpy as np
import pytest

import kifu

cshogi = pytest.importorskip("cshogi")
ROOT = pathlib.Path(__file__).parents[2]


def board_part(sfen):
    """An SFEN without its move number (neither binary code holds one)."""
    return sfen.rsplit(" ", 1)[0]


def expected_result(game):
    w = game.result.winner
    return {"sente": cshogi.BLACK_WIN, "gote": cshogi.WHITE_WIN, None: cshogi.DRAW}[w]


def check_game(game):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hcpe = np.frombuffer(game.to("hcpe"), dtype=cshogi.HuffmanCodedPosAndEval)
        psv = np.frombuffer(game.to("psv"), dtype=cshogi.PackedSfenValue)
    codes = {str(w.message).split(":")[0] for w in caught}
    if len(hcpe) == 0:
        # Nothing is written only for a reason the warnings give.
        assert codes & {"result-unknown", "position-not-encodable"} or not game.moves
        return 0
    positions = [game.start_sfen] + game.sfens()
    assert len(hcpe) == len(psv) == len(game.moves)
    board = cshogi.Board()
    evals = game.evals
    for i, (h, p) in enumerate(zip(hcpe, psv)):
        # Every byte as cshogi itself codes the position, pieces out of play
        # (a handicap's, a diagram's) included.
        own = cshogi.Board(positions[i])
        want_hcp = np.zeros(1, cshogi.HuffmanCodedPos)
        own.to_hcp(want_hcp)
        assert h["hcp"].tobytes() == want_hcp.tobytes(), positions[i]
        want_psfen = np.zeros(1, cshogi.PackedSfen)
        own.to_psfen(want_psfen)
        assert p["sfen"].tobytes() == want_psfen.tobytes(), positions[i]
        board.set_hcp(h["hcp"])
        assert board_part(board.sfen()) == board_part(positions[i])
        assert cshogi.move_to_usi(board.move_from_move16(h["bestMove16"])) == game.moves[i]
        assert h["gameResult"] == expected_result(game)
        mover_is_sente = board.turn == cshogi.BLACK
        want_eval = 0 if evals[i] is None else evals[i] if mover_is_sente else -evals[i]
        assert h["eval"] == max(-32767, min(32767, want_eval))

        board.set_psfen(p["sfen"])
        assert board_part(board.sfen()) == board_part(positions[i])
        assert cshogi.move_to_usi(board.move_from_psv(p["move"])) == game.moves[i]
        assert p["gamePly"] == int(positions[i].rsplit(" ", 1)[1])
        mover = "sente" if board.turn == cshogi.BLACK else "gote"
        w = game.result.winner
        assert p["game_result"] == (0 if w is None else 1 if w == mover else -1)
        assert p["score"] == h["eval"]
    return len(hcpe)


def games_of(files):
    for f in files:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                yield from kifu.read(f)
        except (kifu.KifuError, OSError):
            continue


def test_fixture_positions_moves_and_results_decode_in_cshogi(fixture_files):
    assert sum(check_game(g) for g in games_of(fixture_files)) > 20


def test_corpus_positions_moves_and_results_decode_in_cshogi(corpus_files):
    assert sum(check_game(g) for g in games_of(corpus_files)) > 10000


def test_a_foul_game_keeps_the_plies_before_the_foul_and_its_loser_loses():
    (g,) = kifu.read(ROOT / "fixtures/usi/nifu.usi")
    rows = np.frombuffer(g.to("hcpe"), dtype=cshogi.HuffmanCodedPosAndEval)
    assert len(rows) == g.verdict.ply - 1 == 8
    assert set(rows["gameResult"]) == {cshogi.WHITE_WIN}
    assert check_game(g) == 8


def test_floodgate_evals_are_written_from_the_side_to_move():
    csa = "V2.2\nPI\n+\n+7776FU\n'** 30\n-3334FU\n'** 45\n+2726FU\n'** 99999\n%TORYO\n"
    (g,) = kifu.read(csa)
    with pytest.warns(kifu.FormatWarning, match="eval-clamped"):
        rows = np.frombuffer(g.to("hcpe"), dtype=cshogi.HuffmanCodedPosAndEval)
    assert list(rows["eval"]) == [30, -45, 32767]
    psv = np.frombuffer(g.to("psv"), dtype=cshogi.PackedSfenValue)
    # Gote resigned after the third move: sente won.
    assert list(psv["game_result"]) == [1, -1, 1]
    assert g.to("sfen").splitlines()[1].split("\t")[3] == "-45"


HANDICAPS = ["香落ち", "角落ち", "飛車落ち", "二枚落ち", "四枚落ち", "六枚落ち", "八枚落ち", "十枚落ち"]


@pytest.mark.parametrize("handicap", HANDICAPS)
def test_a_handicap_start_decodes_in_cshogi_with_the_pieces_taken_off(handicap):
    kif = f"手合割：{handicap}\n手数----指手---------消費時間--\n   1 ５二玉(51)\n   2 ５八玉(59)\n   3 投了\n"
    (g,) = kifu.read(kif)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_game(g) == 2
    board = cshogi.Board()
    board.set_hcp(np.frombuffer(g.to("hcpe"), dtype=cshogi.HuffmanCodedPosAndEval)[0]["hcp"])
    # The pieces taken off are in no hand.
    assert board_part(board.sfen()) == board_part(g.start_sfen)
    assert board.sfen().split(" ")[2] == "-"


def test_a_diagram_with_pieces_out_of_play_decodes_in_cshogi():
    (g,) = kifu.read("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G2r 1 moves G*5b\n")
    assert check_game(g) == 1


def test_a_problem_with_one_king_writes_no_record_and_says_why():
    # One king leaves 257 bits to code: cshogi itself cannot take it back.
    (g,) = kifu.read("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1 moves G*5b\n")
    with pytest.warns(kifu.FormatWarning, match="position-not-encodable"):
        assert g.to("hcpe") == b""


def test_a_floodgate_game_ended_by_the_move_limit_is_labelled_a_draw():
    (g,) = kifu.read(ROOT / "fixtures/csa/floodgate-max-moves.csa")
    assert g.result.winner is None
    rows = np.frombuffer(g.to("hcpe"), dtype=cshogi.HuffmanCodedPosAndEval)
    assert len(rows) == 4
    assert set(rows["gameResult"]) == {cshogi.DRAW}
    assert check_game(g) == 4


def test_the_cli_writes_the_same_bytes(kifu_bin, tmp_path):
    import subprocess

    src = ROOT / "fixtures/csa/multi.csa"
    for fmt in ("hcpe", "psv"):
        out = tmp_path / f"x.{fmt}"
        subprocess.run([kifu_bin, "convert", "-q", "--to", fmt, str(src), "-o", str(out)], check=True)
        assert out.read_bytes() == b"".join(g.to(fmt) for g in kifu.read(src))
