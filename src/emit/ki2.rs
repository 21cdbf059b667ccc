//! KI2 out, laid out the way Kifu for Windows writes it (`ki2.md` §1, §3,
//! §5, §7): the KIF header and start position, moves in traditional
//! notation six to a line, the `まで` line, then the variation blocks.
//!
//! Everything but the move lines is the KIF writer's ([`super::kif`]), so
//! the two formats cannot drift apart. Moves come from the replay and carry
//! the shortest JSA disambiguation ([`crate::notation::ki2_move`]).

use crate::emit::Warning;
use crate::emit::kif::{self, KifOptions, Style};
use crate::replay::Game;

/// KI2 text for `game` (UTF-8, LF; encode it with [`encode`]), plus
/// warnings for what KI2 could not hold (`times-dropped`,
/// `evaluations-dropped`, `variations-dropped`) or had to change (a replaced
/// ending, `moves-after-foul-commented`).
pub fn write(game: &Game) -> (String, Vec<Warning>) {
    kif::render(game, Style::Ki2, &KifOptions::utf8())
}

/// KI2 for `game` as a `.ki2` file holds it: Shift_JIS (CP932, with the
/// best-fit characters Windows writes) and CRLF, as Kifu for Windows writes
/// it. Warnings for characters CP932 cannot hold (`unencodable-char`) name
/// the input line they came from.
pub fn write_sjis(game: &Game) -> (Vec<u8>, Vec<Warning>) {
    kif::encoded(game, Style::Ki2)
}

/// The bytes of KI2 text from [`write`](fn@write): Shift_JIS (CP932) with CRLF for
/// `.ki2` when `sjis`, as Kifu for Windows writes it, else UTF-8 as is for
/// `.ki2u`. Characters CP932 cannot hold become `?` and are reported
/// (`unencodable-char`, with the line of `text`; [`write_sjis`] names the
/// input's line).
pub fn encode(text: &str, sjis: bool) -> (Vec<u8>, Vec<Warning>) {
    if sjis {
        kif::encode_sjis(&text.replace('\n', "\r\n"))
    } else {
        (text.as_bytes().to_vec(), Vec::new())
    }
}

#[cfg(test)]
mod tests;
