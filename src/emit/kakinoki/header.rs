//! The header both formats start with: the lines the source kept without
//! meaning, the `key：value` lines, and the start position (`手合割` or a
//! board diagram) where Kifu for Windows puts it, before the players.

use super::Sheet;
use crate::codes::WarningCode;
use crate::emit::sjis::Origin;
use crate::record::{HandicapName, HeaderKey, header};
use crate::replay::Game;
use crate::rules::setup::{Handicap, Setup};
use crate::rules::types::Color;

impl Sheet<'_> {
    /// The notes, the header lines and the start position.
    pub(crate) fn header(&mut self) {
        let game = self.game;
        // Lines the source kept without meaning (`#` lines, CSA `'` lines,
        // unknown lines) go back as `#` lines, which every KIF reader skips.
        // The source's own `#KIF` line describes the source file: not copied.
        let mut prefixed = 0usize;
        self.mark(Origin::Unknown);
        for n in &game.record.notes {
            if n.starts_with("#KIF version") {
                continue;
            }
            if n.starts_with('#') {
                self.line(n);
            } else {
                self.line(&format!("#{n}"));
                prefixed += 1;
            }
        }
        if prefixed > 0 {
            self.warn(
                WarningCode::NotesAsComments,
                format!("{prefixed} line(s) without meaning in this format kept as `#` lines"),
            );
        }
        let mut start_written = false;
        let handicap_value = game.record.header_value(&["手合割"]).map(str::to_string);
        for h in &game.record.header {
            let Some(key) = self.kif_key(&h.key) else {
                continue;
            };
            if !start_written && h.is(&[HeaderKey::Sente, HeaderKey::Gote]) {
                self.start(handicap_value.as_deref());
                start_written = true;
            }
            self.mark(Origin::Line(h.span.line));
            // A key no KIF reader would take as a header key (it starts like
            // a move line or holds a colon) is kept as a `#` line instead.
            if !kif_header_key_ok(key) {
                self.line(&format!("#{key}：{}", h.value.trim()));
                self.warn(
                    WarningCode::HeaderAsComment,
                    format!("header key {key:?} cannot be a KIF header line; kept as a # line"),
                );
                continue;
            }
            // Readers trim values, so a CSA `$START_TIME: …` space would
            // not survive a second write.
            self.line(&format!("{key}：{}", h.value.trim()));
        }
        if !start_written {
            self.start(handicap_value.as_deref());
        }
        self.mark(Origin::Unknown);
    }

    /// The record's own comments and bookmarks, after the header.
    pub(crate) fn record_comments(&mut self) {
        let record = &self.game.record;
        for c in &record.comments {
            self.line(&format!("*{c}"));
        }
        for b in &record.bookmarks {
            self.line(&format!("&{b}"));
        }
    }

    /// The KIF key for a record key, or `None` for keys written elsewhere
    /// (手合割) or describing a source file (CSA `Version`, `Encoding`).
    fn kif_key<'k>(&self, key: &'k str) -> Option<&'k str> {
        let Some(spelling) = header::spelling_of(key) else {
            return Some(key);
        };
        let mapped = match spelling.key {
            HeaderKey::Handicap | HeaderKey::Version | HeaderKey::Encoding => return None,
            // Both pairs written: each is the source's own, kept as written.
            HeaderKey::Sente | HeaderKey::Gote if self.both_name_pairs && !key.is_ascii() => key,
            // 先手/後手, or 下手/上手 in a handicap game.
            HeaderKey::Sente | HeaderKey::Gote => spelling.kif[usize::from(self.handicap)],
            _ => spelling.kif.first().copied().unwrap_or(key),
        };
        Some(mapped)
    }

    /// `手合割：…` for an exact preset, else the board diagram (under the
    /// source's own 手合割 name, if it had one, as KfW keeps it).
    fn start(&mut self, source_name: Option<&str>) {
        self.mark(Origin::Unknown);
        let setup = self.game.start.to_setup();
        let preset = setup.preset().filter(|_| setup.move_number == 1);
        if let Some(h) = preset {
            // The source's own value when it names the same preset: it may
            // carry a note (`平手#…`) that the canonical name would drop.
            // Trimmed as readers trim it, so that writing twice gives the same bytes.
            let own = source_name
                .map(str::trim)
                .filter(|_| self.game.record.handicap == Some(HandicapName::Preset(h)))
                .unwrap_or(h.kif_name());
            self.line(&format!("手合割：{own}"));
            return;
        }
        if let Some(name) = source_name {
            self.line(&format!("手合割：{}", name.trim()));
        }
        self.bod(&setup);
    }

    fn bod(&mut self, s: &Setup) {
        use crate::emit::{bod, diagram::Diagram};
        let labels = [self.label(Color::Sente), self.label(Color::Gote)];
        let d = Diagram::from_setup(s);
        bod::write(&mut self.out, &d, labels, bod::BodOptions::default());
    }
}

/// Whether the header names the players both ways (先手/後手 and 下手/上手).
pub(super) fn both_name_pairs(game: &Game) -> bool {
    let has = |i: usize| {
        let names = [HeaderKey::Sente, HeaderKey::Gote].map(|k| k.spelling().map(|s| s.kif[i]));
        game.record
            .header
            .iter()
            .any(|h| names.contains(&Some(h.key.as_str())))
    };
    has(0) && has(1)
}

/// Whether players are 上手/下手: a handicap preset, a handicap named in
/// 手合割 (両香落ち …), or a header that already uses those labels.
pub(super) fn is_handicap(game: &Game) -> bool {
    let preset = game.record.start.preset();
    if preset.is_some_and(|h| h != Handicap::Hirate) {
        return true;
    }
    match &game.record.handicap {
        Some(HandicapName::Preset(h)) if *h != Handicap::Hirate => return true,
        Some(HandicapName::Setup(_)) => return true,
        _ => {}
    }
    let names = [HeaderKey::Sente, HeaderKey::Gote].map(|k| k.spelling().map(|s| s.kif[1]));
    game.record
        .header
        .iter()
        .any(|h| names.contains(&Some(h.key.as_str())))
}

/// Whether `key` reads back as the key of a `key：value` header line.
fn kif_header_key_ok(key: &str) -> bool {
    let first = key.chars().next();
    !key.is_empty()
        && key.trim() == key
        && !key.contains([':', '：', '\r', '\n'])
        && !first
            .is_some_and(|c| c.is_ascii_digit() || c.is_whitespace() || "*&#|+▲△☗☖▼▽".contains(c))
        && !key.starts_with("変化")
        && !key.starts_with("まで")
}
