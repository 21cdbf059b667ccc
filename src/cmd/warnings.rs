//! Conversion warnings: listed per file with `--verbose`, otherwise summed
//! up by code at the end of the run, so that a directory of records does not
//! bury its output under the same few lines repeated for every file.

use super::color::{Stream, Style, paint};
use kifu::emit::Warning;
use std::collections::BTreeMap;

/// Every warning of one code seen so far.
struct ByCode {
    count: usize,
    files: usize,
    /// The input of the last warning counted (to count files).
    last_file: usize,
    /// The first warning, as it would be printed with `--verbose`.
    first: String,
    /// The first warning's input and message.
    first_short: String,
}

/// The warnings of a run.
pub struct WarningLog {
    verbose: bool,
    by_code: BTreeMap<&'static str, ByCode>,
    /// Warnings counted in all.
    pub total: usize,
}

impl WarningLog {
    /// A log that prints each warning (`verbose`) or sums them up.
    pub fn new(verbose: bool) -> Self {
        WarningLog {
            verbose,
            by_code: BTreeMap::new(),
            total: 0,
        }
    }

    /// Take the warnings of input number `file` (named `name`), and return
    /// the text to print now (empty unless verbose).
    pub fn add(&mut self, file: usize, name: &str, warnings: Vec<Warning>) -> String {
        let mut now = String::new();
        for w in warnings {
            self.total += 1;
            let tag = paint(Stream::Stderr, Style::Warn, &format!("warning[{}]", w.code));
            let line = format!("{name}: {tag}: {}\n", w.message);
            if self.verbose {
                now.push_str(&line);
                continue;
            }
            let e = self.by_code.entry(w.code.code()).or_insert(ByCode {
                count: 0,
                files: 0,
                last_file: usize::MAX,
                first: line,
                first_short: format!("{name}: {}\n", w.message),
            });
            e.count += 1;
            if e.last_file != file {
                e.last_file = file;
                e.files += 1;
            }
        }
        now
    }

    /// One line per code for the end of the run (empty when verbose): a
    /// code seen once is printed as it is; otherwise its count and its first
    /// occurrence.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for (code, e) in &self.by_code {
            if e.count == 1 {
                out.push_str(&e.first);
                continue;
            }
            out.push_str(&format!(
                "kifu: {}: {} times in {} {}; the first: {}",
                paint(Stream::Stderr, Style::Warn, &format!("warning[{code}]")),
                e.count,
                e.files,
                super::summary::plural(e.files, "file", "files"),
                e.first_short
            ));
        }
        if self.by_code.values().any(|e| e.count > 1) {
            out.push_str("kifu: note: --verbose lists every warning\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu::codes::WarningCode;
    const X: WarningCode = WarningCode::CommentsDropped;
    const Y: WarningCode = WarningCode::TimesDropped;

    fn w(code: WarningCode, message: &str) -> Warning {
        Warning {
            code,
            message: message.to_string(),
        }
    }

    #[test]
    fn warnings_are_summed_by_code_with_the_first_shown() {
        let mut log = WarningLog::new(false);
        assert_eq!(log.add(0, "a.kif", vec![w(X, "one"), w(Y, "alone")]), "");
        assert_eq!(log.add(1, "b.kif", vec![w(X, "two"), w(X, "three")]), "");
        assert_eq!(log.total, 4);
        assert_eq!(
            log.summary(),
            "kifu: warning[comments-dropped]: 3 times in 2 files; the first: a.kif: one\n\
             a.kif: warning[times-dropped]: alone\n\
             kifu: note: --verbose lists every warning\n"
        );
    }

    #[test]
    fn verbose_prints_each_warning_at_once_and_sums_nothing() {
        let mut log = WarningLog::new(true);
        assert_eq!(
            log.add(0, "a.kif", vec![w(X, "one")]),
            "a.kif: warning[comments-dropped]: one\n"
        );
        assert_eq!(log.summary(), "");
    }
}
