//! One header vocabulary: what a header key means, and how each format
//! spells it.
//!
//! A [`HeaderField`](super::HeaderField) keeps its key as written (order and
//! spelling matter for a byte-identical round trip); [`HeaderKey::of`] says
//! what that key means, from the one table [`SPELLINGS`] every writer, the
//! report and the recogniser read.

/// What a header key means, whichever format spelled it.
///
/// ```
/// use kifu::record::HeaderKey;
///
/// assert_eq!(HeaderKey::of("先手"), HeaderKey::Sente);
/// assert_eq!(HeaderKey::of("N+"), HeaderKey::Sente);
/// assert_eq!(HeaderKey::of("下手"), HeaderKey::Sente);
/// assert_eq!(HeaderKey::of("EVENT"), HeaderKey::Event);
/// assert_eq!(HeaderKey::Event.kif(), Some("棋戦"));
/// assert_eq!(HeaderKey::Event.csa(), Some("EVENT"));
/// assert_eq!(HeaderKey::of("先手の戦型"), HeaderKey::Other("先手の戦型".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HeaderKey {
    /// The player who moves first: 先手 (下手 in a handicap game), `N+`.
    Sente,
    /// The other player: 後手 (上手), `N-`.
    Gote,
    /// 棋戦, `$EVENT`.
    Event,
    /// 表題: a title, which the JSON `event` falls back to.
    Title,
    /// 場所, `$SITE`.
    Site,
    /// 開始日時, `$START_TIME`.
    StartTime,
    /// 対局日: the date alone, which the JSON `start_time` falls back to.
    Date,
    /// 終了日時, `$END_TIME`.
    EndTime,
    /// 持ち時間, `$TIME_LIMIT` (`HH:MM+SS` in CSA, free text in KIF).
    TimeLimit,
    /// CSA V3.0 `$TIME` (`600+10+0`); KIF writes it as 持ち時間.
    Time,
    /// 先手持ち時間, CSA V3.0 `$TIME+`.
    SenteTime,
    /// 後手持ち時間, `$TIME-`.
    GoteTime,
    /// 手合割: the handicap's name.
    Handicap,
    /// 戦型, `$OPENING`.
    Opening,
    /// 最大手数, `$MAX_MOVES`.
    MaxMoves,
    /// 持将棋 (the points for an impasse), `$JISHOGI`.
    Jishogi,
    /// The CSA version line (`V2.2`), which the CSA reader keeps as `Version`.
    Version,
    /// The CSA `'CSA encoding=…` line, kept as `Encoding`.
    Encoding,
    /// Any other key, as written.
    Other(String),
}

/// How each format spells one [`HeaderKey`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spelling {
    /// The key.
    pub key: HeaderKey,
    /// The KIF/KI2 names: the first is written (for the players, the second
    /// in a handicap game); each is read.
    pub kif: &'static [&'static str],
    /// The CSA name (after `$`, or `N+`/`N-`), as the CSA reader stores it.
    pub csa: Option<&'static str>,
    /// The JKF key a CSA field is stored under (`jkf.md` §2); `None` where
    /// JKF keeps the CSA name as it is (`OPENING`).
    pub jkf: Option<&'static str>,
    /// The field of the analysis JSON `header` that gives it; several keys
    /// share one (`event` is 棋戦, else 表題), the first in the header wins.
    pub json: Option<&'static str>,
}

/// One row of [`SPELLINGS`], without the field names.
const fn row(
    key: HeaderKey,
    kif: &'static [&'static str],
    csa: Option<&'static str>,
    jkf: Option<&'static str>,
    json: Option<&'static str>,
) -> Spelling {
    Spelling {
        key,
        kif,
        csa,
        jkf,
        json,
    }
}

/// Every format's spellings of every key, in one place.
pub static SPELLINGS: [Spelling; 18] = [
    row(
        HeaderKey::Sente,
        &["先手", "下手"],
        Some("N+"),
        Some("先手"),
        Some("sente"),
    ),
    row(
        HeaderKey::Gote,
        &["後手", "上手"],
        Some("N-"),
        Some("後手"),
        Some("gote"),
    ),
    row(
        HeaderKey::Event,
        &["棋戦"],
        Some("EVENT"),
        Some("棋戦"),
        Some("event"),
    ),
    row(HeaderKey::Title, &["表題"], None, None, Some("event")),
    row(
        HeaderKey::Site,
        &["場所"],
        Some("SITE"),
        Some("場所"),
        Some("site"),
    ),
    row(
        HeaderKey::StartTime,
        &["開始日時"],
        Some("START_TIME"),
        Some("開始日時"),
        Some("start_time"),
    ),
    row(HeaderKey::Date, &["対局日"], None, None, Some("start_time")),
    row(
        HeaderKey::EndTime,
        &["終了日時"],
        Some("END_TIME"),
        Some("終了日時"),
        Some("end_time"),
    ),
    row(
        HeaderKey::TimeLimit,
        &["持ち時間"],
        Some("TIME_LIMIT"),
        Some("持ち時間"),
        Some("time_control"),
    ),
    // 持ち時間 reads as TimeLimit (the row above): KIF has one name for both.
    row(
        HeaderKey::Time,
        &["持ち時間"],
        Some("TIME"),
        None,
        Some("time_control"),
    ),
    row(
        HeaderKey::SenteTime,
        &["先手持ち時間"],
        Some("TIME+"),
        None,
        None,
    ),
    row(
        HeaderKey::GoteTime,
        &["後手持ち時間"],
        Some("TIME-"),
        None,
        None,
    ),
    row(
        HeaderKey::Handicap,
        &["手合割"],
        None,
        None,
        Some("handicap"),
    ),
    row(HeaderKey::Opening, &["戦型"], Some("OPENING"), None, None),
    row(
        HeaderKey::MaxMoves,
        &["最大手数"],
        Some("MAX_MOVES"),
        None,
        None,
    ),
    row(HeaderKey::Jishogi, &["持将棋"], Some("JISHOGI"), None, None),
    row(HeaderKey::Version, &[], Some("Version"), None, None),
    row(HeaderKey::Encoding, &[], Some("Encoding"), None, None),
];

impl HeaderKey {
    /// What a key means, whichever format spelled it (KIF, CSA or JKF).
    pub fn of(written: &str) -> HeaderKey {
        match spelling_of(written) {
            Some(s) => s.key.clone(),
            None => HeaderKey::Other(written.to_string()),
        }
    }

    /// The key a KIF/KI2 name means, if it is in the table.
    pub fn from_kif(name: &str) -> Option<HeaderKey> {
        SPELLINGS
            .iter()
            .find(|s| s.kif.contains(&name))
            .map(|s| s.key.clone())
    }

    /// The key a CSA name (without `$`) means, if it is in the table.
    pub fn from_csa(name: &str) -> Option<HeaderKey> {
        by_csa(name).map(|s| s.key.clone())
    }

    /// This key's row of [`SPELLINGS`]; `None` for [`HeaderKey::Other`].
    pub fn spelling(&self) -> Option<&'static Spelling> {
        SPELLINGS.iter().find(|s| s.key == *self)
    }

    /// The KIF name written for this key (for the players, the even-game one).
    pub fn kif(&self) -> Option<&'static str> {
        self.spelling().and_then(|s| s.kif.first().copied())
    }

    /// The CSA name for this key.
    pub fn csa(&self) -> Option<&'static str> {
        self.spelling().and_then(|s| s.csa)
    }
}

/// The row a written key (any format's spelling) belongs to. No allocation:
/// writers ask this of every header field.
pub(crate) fn spelling_of(written: &str) -> Option<&'static Spelling> {
    SPELLINGS
        .iter()
        .find(|s| s.kif.contains(&written) || s.csa == Some(written))
}

/// The row whose CSA name is `name`.
pub(crate) fn by_csa(name: &str) -> Option<&'static Spelling> {
    SPELLINGS.iter().find(|s| s.csa == Some(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_formats_spelling_reads_back_as_its_key() {
        for s in &SPELLINGS {
            if let Some(csa) = s.csa {
                assert_eq!(HeaderKey::from_csa(csa).as_ref(), Some(&s.key), "{csa}");
                assert_eq!(HeaderKey::of(csa), s.key, "{csa}");
            }
            if let Some(jkf) = s.jkf {
                // JKF keys are KIF names.
                assert_eq!(HeaderKey::from_kif(jkf).as_ref(), Some(&s.key), "{jkf}");
            }
            if let Some(json) = s.json {
                assert!(
                    SPELLINGS
                        .iter()
                        .any(|o| o.json == Some(json) && o.key == s.key),
                    "{json}"
                );
            }
            for &kif in s.kif {
                // KIF has one name for CSA's TIME_LIMIT and V3.0 TIME.
                let expected = if s.key == HeaderKey::Time {
                    HeaderKey::TimeLimit
                } else {
                    s.key.clone()
                };
                assert_eq!(HeaderKey::from_kif(kif), Some(expected.clone()), "{kif}");
                assert_eq!(HeaderKey::of(kif), expected, "{kif}");
            }
            assert_eq!(s.key.spelling(), Some(s));
        }
    }

    #[test]
    fn the_players_and_other_keys() {
        for k in ["先手", "下手", "N+"] {
            assert_eq!(HeaderKey::of(k), HeaderKey::Sente);
        }
        for k in ["後手", "上手", "N-"] {
            assert_eq!(HeaderKey::of(k), HeaderKey::Gote);
        }
        assert_eq!(HeaderKey::Gote.kif(), Some("後手"));
        assert_eq!(HeaderKey::of("$EVENT"), HeaderKey::Other("$EVENT".into()));
        assert_eq!(HeaderKey::Other("x".into()).kif(), None);
        assert_eq!(HeaderKey::from_csa("棋戦"), None);
        assert_eq!(HeaderKey::from_kif("EVENT"), None);
    }
}
