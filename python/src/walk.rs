//! The inputs `read_many` is given, directories expanded as the CLI
//! expands them (`kifu check DIR`): every file with a record extension
//! under it, in the order of a walk that visits entries by name, a `.json`
//! file only when it is a JKF record.

use kifu::input::{EXTENSIONS, json_is_record};
use std::path::{Path, PathBuf};

/// One input: a file to read, or a part of a directory that could not be
/// walked (its path and why), which becomes an error item in its place.
pub enum Input {
    File(PathBuf),
    Unwalkable(PathBuf, std::io::ErrorKind, String),
}

/// The inputs named by `paths`, in order, directories expanded.
pub fn inputs(paths: &[PathBuf]) -> Vec<Input> {
    let mut out = Vec::with_capacity(paths.len());
    for p in paths {
        if !p.is_dir() {
            out.push(Input::File(p.clone()));
            continue;
        }
        let mut files = Vec::new();
        for entry in walkdir::WalkDir::new(p).follow_links(true) {
            match entry {
                Ok(e) if e.file_type().is_file() && is_record(e.path()) => {
                    files.push((tree_order_key(e.path()), e.into_path()));
                }
                Ok(_) => {}
                Err(e) => {
                    let at = e.path().unwrap_or(p).to_path_buf();
                    let kind = e
                        .io_error()
                        .map_or(std::io::ErrorKind::Other, |io| io.kind());
                    out.push(Input::Unwalkable(at, kind, e.to_string()));
                }
            }
        }
        files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        out.extend(files.into_iter().map(|(_, path)| Input::File(path)));
    }
    out
}

/// Whether a file met in a directory is a record by its extension (and,
/// for `.json`, its content).
fn is_record(path: &Path) -> bool {
    let ext = path.extension().and_then(|x| x.to_str());
    let known = ext.is_some_and(|x| EXTENSIONS.iter().any(|k| k.eq_ignore_ascii_case(x)));
    let json = ext.is_some_and(|x| x.eq_ignore_ascii_case("json"));
    known && (!json || json_is_record(path))
}

/// A key whose byte order is that of a depth-first walk visiting each
/// directory's entries by name: separators become NUL, which sorts before
/// every byte a name holds, so `a/x` comes before `a-b` as `a` does.
fn tree_order_key(path: &Path) -> Vec<u8> {
    let mut key = path.as_os_str().as_encoded_bytes().to_vec();
    for b in &mut key {
        if std::path::is_separator(char::from(*b)) {
            *b = 0;
        }
    }
    key
}
