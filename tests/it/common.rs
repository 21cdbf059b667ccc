//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The shared corpus beside the checkout, or `None` (after saying so) when absent.
pub fn corpus_dir(test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        // Written to the stderr handle, not with eprintln!, so that the test
        // harness does not capture it: a skip must be seen.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: {test}: ../shared/corpus is absent"
        );
        None
    }
}

/// The shared format references beside the checkout, if present.
pub fn formats_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/formats");
    dir.is_dir().then_some(dir)
}

/// Every file under `dir` (recursively) whose extension is one of `exts`, sorted.
pub fn files_with_ext(dir: &std::path::Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.iter().any(|e| e.eq_ignore_ascii_case(x)))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Corpus files are UTF-8, Shift_JIS or (one) EUC-JP: decode strictly, in that order.
pub fn decode_strict(bytes: &[u8]) -> Option<String> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Some(s.to_string());
    }
    [encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP]
        .into_iter()
        .find_map(|enc| {
            enc.decode_without_bom_handling_and_without_replacement(bytes)
                .map(|s| s.into_owned())
        })
}

/// End a sweep over the corpus: print `tally`, name every failure (its
/// first line), and fail showing the first few in full if there are any.
pub fn assert_no_failures(tally: &str, failures: &[String]) {
    eprintln!("{tally}");
    for f in failures {
        eprintln!("FAILED {}", f.lines().next().unwrap_or_default());
    }
    assert!(
        failures.is_empty(),
        "{} failure(s); the first:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
