//! A game reduced to a few hashes: the [`GameKey`].

use crate::record::Record;
use crate::replay::{Game, Verdict};
use crate::rules::types::Move;

/// The prefix lengths a [`GameKey`] keeps a hash of: powers of two, so a
/// prefix of any length `n` from 1 to 255 has one kept length `c ≤ n` with
/// `n < 2c`, and two games that share their first `n` moves share the hash
/// at `c`. Longer lines use 128.
pub const ANCHORS: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

/// A game as dedup sees it: 48 bytes, whatever the game's length.
///
/// * `line`: a hash of the start position (board, hands, side to move; the
///   move number is left out, so a diagram numbered from move 1 and the
///   same diagram numbered from move 37 are one start), of every move of
///   the main line, and of the foul that ends it, if one does (two copies
///   of a game that both end in the same illegal move are the same game,
///   and differ from a copy that stops before it).
/// * `plies`: the legal moves of the main line.
/// * `anchors`: the hash of the start and the line's first `c` moves for
///   each `c` of [`ANCHORS`] shorter than the line, truncated to 32 bits.
///
/// Two games with the same `line` and `plies` are the same game (64-bit
/// hashes: a false match is expected about once in 10¹¹ pairs); the start
/// is in every hash, so it needs no field of its own.
/// Whether one line is a prefix of another cannot be told from two fixed
/// size keys; the anchors tell which games may hold a shorter one, and
/// [`crate::collection::Groups`] asks only those for their full list of
/// prefix hashes ([`prefix_hashes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameKey {
    /// The main line's hash, from its start.
    pub line: u64,
    /// The main line's legal moves.
    pub plies: u32,
    anchors: [u32; 8],
    /// Whether the line ends in a foul: then its whole legal part is a
    /// prefix of it, and a copy that stops before the foul is held in it.
    foul: bool,
}

/// A 64-bit mixer (the splitmix64 finaliser): each bit of the input
/// changes about half the bits of the output.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A move as a small number, different for every move (origin, destination
/// and promotion; or the kind dropped and the destination), never 0.
#[inline]
pub fn move_code(m: Move) -> u64 {
    match m {
        Move::Normal { from, to, promote } => {
            1 + from.index() as u64 + ((to.index() as u64) << 7) + (u64::from(promote) << 14)
        }
        Move::Drop { kind, to } => (1 << 15) + (kind as u64) + ((to.index() as u64) << 7),
    }
}

/// The hash of a line after `prev` and one more move.
#[inline]
pub fn step(prev: u64, m: Move) -> u64 {
    mix(prev ^ move_code(m).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// Marks the hash of a line that ends in a foul.
const FOUL: u64 = 0x666f_756c_5f65_6e64;

/// The hash of the main line after each of its legal moves: element `k - 1`
/// is the hash of the first `k` moves (the start position's key seeds it).
pub fn prefix_hashes(game: &Game) -> Vec<u64> {
    let mut h = mix(game.start.key());
    game.main
        .plies
        .iter()
        .map(|p| {
            h = step(h, p.mv);
            h
        })
        .collect()
}

impl GameKey {
    /// The key of a replayed game (its main line; variations are not part
    /// of it).
    pub fn of(game: &Game) -> GameKey {
        GameKey::from_prefixes(game, &prefix_hashes(game))
    }

    /// The key of `game` from its [`prefix_hashes`], already computed.
    pub fn from_prefixes(game: &Game, prefixes: &[u64]) -> GameKey {
        let mut line = prefixes
            .last()
            .copied()
            .unwrap_or_else(|| mix(game.start.key()));
        let foul = matches!(game.main.verdict, Verdict::Foul(_));
        if let Verdict::Foul(f) = &game.main.verdict {
            let mv = if game.main.foul_played() {
                0
            } else {
                f.mv.map_or(0, move_code)
            };
            line = mix(line ^ FOUL ^ (mv << 8) ^ f.rule as u64);
        }
        let mut anchors = [0u32; 8];
        for (a, &c) in anchors.iter_mut().zip(&ANCHORS) {
            if let Some(&h) = prefixes.get(c as usize - 1) {
                *a = h as u32;
            }
        }
        GameKey {
            line,
            plies: u32::try_from(prefixes.len()).unwrap_or(u32::MAX),
            anchors,
            foul,
        }
    }

    /// The key with `line` in place of the line's hash: a position's key
    /// ([`position_after`]), for grouping by a position
    /// ([`crate::collection::Groups::by_position`]).
    pub fn with_line(self, line: u64) -> GameKey {
        GameKey { line, ..self }
    }

    /// The key as text, to be kept in a file and read back with
    /// [`GameKey::from_text`] (dedup's `--save-keys`): the line's hash, the
    /// plies, the anchors and the foul mark, in hexadecimal words.
    ///
    /// ```
    /// use kifu::collection::GameKey;
    /// use kifu::{Format, ReplayOptions, parse, replay};
    ///
    /// let r = parse::parse("position startpos moves 7g7f 3c3d\n", Format::Usi)?.remove(0);
    /// let key = GameKey::of(&replay(r, &ReplayOptions::default())?);
    /// assert_eq!(GameKey::from_text(&key.to_text()), Some(key));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_text(&self) -> String {
        let mut s = format!("{:016x}.{:x}", self.line, self.plies);
        for a in &self.anchors {
            s.push_str(&format!(".{a:x}"));
        }
        s.push_str(if self.foul { ".f" } else { ".-" });
        s
    }

    /// The key [`GameKey::to_text`] wrote; `None` for any other text.
    pub fn from_text(s: &str) -> Option<GameKey> {
        let mut words = s.split('.');
        let line = u64::from_str_radix(words.next()?, 16).ok()?;
        let plies = u32::from_str_radix(words.next()?, 16).ok()?;
        let mut anchors = [0u32; 8];
        for a in &mut anchors {
            *a = u32::from_str_radix(words.next()?, 16).ok()?;
        }
        let foul = match words.next()? {
            "f" => true,
            "-" => false,
            _ => return None,
        };
        words.next().is_none().then_some(GameKey {
            line,
            plies,
            anchors,
            foul,
        })
    }

    /// Whether a foul ends the main line.
    pub fn foul(&self) -> bool {
        self.foul
    }

    /// The anchor this game's containers must share with it: the kept
    /// length `c` for its length, and its hash there (the start is in it). `None` for a game
    /// with no moves, which is a prefix of every game from its start and
    /// is not reported as contained in one.
    pub fn probe(&self) -> Option<(u32, u32)> {
        let i = ANCHORS.iter().rposition(|&c| c <= self.plies)?;
        Some((ANCHORS[i], self.anchors[i]))
    }

    /// The anchors of this game that a shorter game's [`GameKey::probe`]
    /// could name: `(c, hash)` for every kept length `c` shorter than the
    /// line (or as long, when a foul ends it).
    pub fn anchors(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        ANCHORS
            .iter()
            .zip(&self.anchors)
            .filter(|&(&c, _)| c < self.plies || (self.foul && c == self.plies))
            .map(|(&c, &a)| (c, a))
    }
}

/// How much a copy of a game holds beyond its moves, for choosing the copy
/// to keep: header fields, comments, move times and evaluations, and an
/// ending (each counts one).
pub fn information(record: &Record) -> u32 {
    let moves: usize = record
        .main
        .moves
        .iter()
        .map(|m| {
            usize::from(m.time.is_some()) + usize::from(m.eval().is_some()) + m.comments().len()
        })
        .sum();
    let n = record.header.len()
        + record.comments.len()
        + moves
        + usize::from(record.main.ending.is_some());
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The key of the position (board, hands, side to move) after the first
/// `n` moves of the main line, `None` when the line is shorter; with `n`
/// `None`, after the last legal move.
pub fn position_after(game: &Game, n: Option<usize>) -> Option<u64> {
    let plies = &game.main.plies;
    let n = n.unwrap_or(plies.len());
    if n > plies.len() {
        return None;
    }
    let mut pos = game.start.clone();
    for p in &plies[..n] {
        pos.play_unchecked(p.mv);
    }
    Some(pos.key())
}

#[cfg(test)]
mod size {
    #[test]
    fn a_key_is_48_bytes_whatever_the_game() {
        // With dedup's 16 bytes of place and size: 64 a game (issue #28).
        assert_eq!(std::mem::size_of::<super::GameKey>(), 48);
    }
}
