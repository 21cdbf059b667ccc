//! The record files of a path, for the examples that read a collection:
//! a file itself, or every file under a directory in name order, so that
//! runs are reproducible.

use std::path::{Path, PathBuf};

/// Push `path`, or every file under it, onto `out`.
pub fn files(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for e in entries {
        files(&e, out)?;
    }
    Ok(())
}
