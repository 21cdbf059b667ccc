//! The multi-game CSA text the tests of the chunked readers share (the
//! library's `reader::csa` and the command's `stream`), kept in one file
//! that both include.

/// A multi-game CSA text whose games vary: file fields that change, a
/// Shift_JIS-free but non-ASCII name, games that fail to parse, blank
/// pieces, and games of every length.
pub(crate) fn mixed_file(games: usize) -> String {
    let mut out = String::new();
    for g in 0..games {
        if g > 0 {
            out.push_str("/\n");
        }
        match g % 11 {
            0 => out.push_str(&format!("V2.{}\n", g % 3)),
            3 => {
                out.push_str("\n\n");
                continue;
            }
            _ => {}
        }
        let name = if g % 7 == 2 { "先手" } else { "black" };
        out.push_str(&format!("N+{name}{g}\nN-white{g}\n$EVENT:e{g}\nPI\n+\n"));
        let moves = ["+7776FU", "-3334FU", "+8822UM", "-3122GI"];
        for m in moves.iter().take(g % 5) {
            out.push_str(m);
            out.push('\n');
        }
        if g % 13 == 5 {
            out.push_str("+77\n");
        }
        if g % 4 == 0 {
            out.push_str("%TORYO\n");
        }
    }
    out
}
