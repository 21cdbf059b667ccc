//! The names formats go by: one table each for [`Format`] (read) and
//! [`Target`] (write), behind their `FromStr` and `Display`, so that every
//! caller (the Python binding, a library user's own command line) spells
//! them alike.

use crate::emit::csa::{CsaOptions, CsaVersion};
use crate::emit::{JsonSource, Target};
use crate::record::Format;
use std::fmt;
use std::str::FromStr;

/// Every name a record format is read by: its own name, then those of its
/// variants' files (`kifu` is KIF in UTF-8, `sfen` a USI position).
pub const FORMAT_NAMES: [(&str, Format); 8] = [
    ("kif", Format::Kif),
    ("ki2", Format::Ki2),
    ("csa", Format::Csa),
    ("usi", Format::Usi),
    ("jkf", Format::Jkf),
    ("kifu", Format::Kif),
    ("ki2u", Format::Ki2),
    ("sfen", Format::Usi),
];

/// Every name of a [`Target`], as `kifu convert --to` names it (`csa3` is
/// CSA V3.0, which the command writes with `--csa-version 3.0`).
pub const TARGET_NAMES: [&str; 12] = [
    "kif", "kifu", "ki2", "ki2u", "csa", "csa3", "jkf", "usi", "sfen", "json", "hcpe", "psv",
];

/// A name no format goes by.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {name:?}: one of {expected}")]
pub struct UnknownName {
    /// The name given.
    pub name: String,
    /// The names there are.
    pub expected: &'static str,
}

impl FromStr for Format {
    type Err = UnknownName;

    /// The format named `s` (any of [`FORMAT_NAMES`], in any case).
    ///
    /// ```
    /// use kifu::Format;
    ///
    /// assert_eq!("csa".parse::<Format>(), Ok(Format::Csa));
    /// assert_eq!("KIFU".parse::<Format>(), Ok(Format::Kif));
    /// assert_eq!(Format::Ki2.to_string(), "ki2");
    /// assert!("pgn".parse::<Format>().unwrap_err().to_string().contains("one of kif, ki2"));
    /// ```
    fn from_str(s: &str) -> Result<Format, UnknownName> {
        FORMAT_NAMES
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(s))
            .map(|&(_, f)| f)
            .ok_or_else(|| UnknownName {
                name: s.to_string(),
                expected: "kif, ki2, csa, usi, jkf",
            })
    }
}

impl Target {
    /// Its name in [`TARGET_NAMES`].
    pub fn name(&self) -> &'static str {
        match self {
            Target::Kif => "kif",
            Target::Kifu => "kifu",
            Target::Ki2 => "ki2",
            Target::Ki2u => "ki2u",
            Target::Csa(CsaOptions {
                version: CsaVersion::V30,
            }) => "csa3",
            Target::Csa(_) => "csa",
            Target::Jkf => "jkf",
            Target::Usi => "usi",
            Target::Sfen => "sfen",
            Target::Json(_) => "json",
            Target::Hcpe => "hcpe",
            Target::Psv => "psv",
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = UnknownName;

    /// The target named `s` (any of [`TARGET_NAMES`], in any case). `json`
    /// gives a [`JsonSource`] of an unnamed UTF-8 input: set the input's
    /// name, encoding and format for what the JSON says of it.
    ///
    /// ```
    /// use kifu::Target;
    ///
    /// let target: Target = "csa3".parse()?;
    /// assert_eq!(target.to_string(), "csa3");
    /// assert_eq!("kifu".parse::<Target>()?, Target::Kifu);
    /// assert!("pdf".parse::<Target>().is_err());
    /// # Ok::<(), kifu::names::UnknownName>(())
    /// ```
    fn from_str(s: &str) -> Result<Target, UnknownName> {
        let csa = |version| Target::Csa(CsaOptions { version });
        Ok(match s.to_ascii_lowercase().as_str() {
            "kif" => Target::Kif,
            "kifu" => Target::Kifu,
            "ki2" => Target::Ki2,
            "ki2u" => Target::Ki2u,
            "csa" => csa(CsaVersion::V22),
            "csa3" => csa(CsaVersion::V30),
            "jkf" => Target::Jkf,
            "usi" => Target::Usi,
            "sfen" => Target::Sfen,
            "json" => Target::Json(JsonSource {
                name: "-".to_string(),
                encoding: "UTF-8",
                format: Format::Usi,
                pretty: false,
            }),
            "hcpe" => Target::Hcpe,
            "psv" => Target::Psv,
            _ => {
                return Err(UnknownName {
                    name: s.to_string(),
                    expected: "kif, kifu, ki2, ki2u, csa, csa3, jkf, usi, sfen, json, hcpe, psv",
                });
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_name_reads_back_as_its_target() {
        for name in TARGET_NAMES {
            let target: Target = name.parse().unwrap();
            assert_eq!(target.name(), name);
        }
    }

    #[test]
    fn every_format_name_reads_as_a_format_named_by_its_first_entry() {
        for (name, format) in FORMAT_NAMES {
            assert_eq!(name.parse::<Format>(), Ok(format));
            assert_eq!(format.to_string().parse::<Format>(), Ok(format));
        }
    }
}
