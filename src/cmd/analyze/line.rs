//! Positions as the analysis keys them, and the engine's PV checked by
//! playing it on the board.

use kifu::notation::{csa_move, kif_move};
use kifu::record::Notation;
use kifu::rules::position::Position;
use kifu::{Color, Move};

/// The position as a cache key: its SFEN without the move number, so that
/// the same board, hands and side to move meet again across plies and games.
pub fn key(pos: &Position) -> String {
    let mut sfen = pos.to_sfen();
    if let Some(i) = sfen.rfind(' ') {
        sfen.truncate(i);
    }
    sfen
}

/// Why a PV cannot be written: the first move that cannot be played.
#[derive(Debug, PartialEq, Eq)]
pub struct IllegalPv {
    /// 1-based index of the move in the PV.
    pub at: usize,
    /// The word the engine wrote.
    pub word: String,
}

/// The engine's PV from `pos`, each move played: in CSA notation (the form
/// the records' evaluations hold), or the first move that is not legal.
pub fn checked_pv(pos: &Position, pv: &[String]) -> Result<Vec<Notation>, IllegalPv> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for (i, word) in pv.iter().enumerate() {
        let illegal = || IllegalPv {
            at: i + 1,
            word: word.clone(),
        };
        let mv = Move::from_usi(word).ok_or_else(illegal)?;
        let color: Color = pos.side_to_move();
        let piece = match mv {
            Move::Drop { kind, .. } => Some(kind),
            Move::Normal { from, .. } => pos.piece_at(from).map(|p| p.kind),
        }
        .ok_or_else(illegal)?;
        pos.play(mv).map_err(|_| illegal())?;
        out.push(Notation::from_csa_word(&csa_move(color, mv, piece)).ok_or_else(illegal)?);
    }
    Ok(out)
}

/// The comment (after KIF's `*`) in which ShogiGUI writes an analysis and
/// reads it back: `*解析 0 深さ 3 ノード数 236 評価値 157 読み筋 △３四歩(33)
/// ▲２六歩(27)`, the score from sente's side, the PV (already checked
/// legal) from `pos` in KIF moves with their marks.
pub fn gui_comment(
    pos: &Position,
    depth: Option<u32>,
    nodes: Option<u64>,
    sente_score: i64,
    pv: &[String],
) -> String {
    let mut s = String::from("*解析 0");
    if let Some(d) = depth {
        s.push_str(&format!(" 深さ {d}"));
    }
    if let Some(n) = nodes {
        s.push_str(&format!(" ノード数 {n}"));
    }
    s.push_str(&format!(" 評価値 {sente_score}"));
    let mut pos = pos.clone();
    let mut prev_to = None;
    let mut words = Vec::with_capacity(pv.len());
    for word in pv {
        let Some(mv) = Move::from_usi(word) else {
            break;
        };
        let piece = match mv {
            Move::Drop { kind, .. } => Some(kind),
            Move::Normal { from, .. } => pos.piece_at(from).map(|p| p.kind),
        };
        let Some(piece) = piece else { break };
        let color = pos.side_to_move();
        if pos.play(mv).is_err() {
            break;
        }
        let same = prev_to == Some(mv.to());
        words.push(format!("{}{}", color.mark(), kif_move(mv, piece, same)));
        prev_to = Some(mv.to());
    }
    if !words.is_empty() {
        s.push_str(" 読み筋 ");
        s.push_str(&words.join(" "));
    }
    s
}

/// Whether a comment holds an evaluation a GUI wrote (the forms
/// `kifu::parse` reads as a move's GUI evaluation), to be replaced by
/// `--overwrite`.
pub fn is_gui_eval_comment(c: &str) -> bool {
    [
        "*対局",
        "*解析",
        "*検討",
        "#評価値=",
        "#読み筋=",
        "*評価値=",
        "*読み筋=",
    ]
    .iter()
    .any(|p| c.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_legal_pv_becomes_csa_moves() {
        let pv = checked_pv(&Position::startpos(), &words("7g7f 3c3d 8h2b+")).unwrap();
        let mut s = String::new();
        for n in &pv {
            n.write_csa_word(&mut s);
        }
        assert_eq!(s, "+7776FU-3334FU+8822UM");
    }

    #[test]
    fn the_first_illegal_move_is_named() {
        let e = checked_pv(&Position::startpos(), &words("7g7f 7g7f")).unwrap_err();
        assert_eq!(
            e,
            IllegalPv {
                at: 2,
                word: "7g7f".into()
            }
        );
        assert_eq!(
            checked_pv(&Position::startpos(), &words("zz"))
                .unwrap_err()
                .at,
            1
        );
        assert_eq!(
            checked_pv(&Position::startpos(), &words("P*5e"))
                .unwrap_err()
                .at,
            1
        );
    }

    #[test]
    fn keys_leave_out_the_move_number() {
        let mut p = Position::startpos();
        assert_eq!(
            key(&p),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"
        );
        p.play(Move::from_usi("7g7f").unwrap()).unwrap();
        assert!(key(&p).ends_with(" w -"));
    }

    #[test]
    fn gui_comments_write_the_pv_in_kif_moves() {
        let p = Position::startpos();
        let c = gui_comment(&p, Some(3), Some(236), -40, &words("7g7f 3c3d 8h2b+ 3a2b"));
        assert_eq!(
            c,
            "*解析 0 深さ 3 ノード数 236 評価値 -40 読み筋 ▲７六歩(77) △３四歩(33) ▲２二角成(88) △同　銀(31)"
        );
        assert_eq!(gui_comment(&p, None, None, 5, &[]), "*解析 0 評価値 5");
        assert!(is_gui_eval_comment(&c) && !is_gui_eval_comment("好手"));
    }
}
