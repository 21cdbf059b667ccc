//! Outputs that are not regular files: a FIFO, a device, a descriptor of
//! the process (`/dev/stdout`). They are written straight into: replacing
//! one by a renamed temporary file would turn it into a plain file.

use std::path::{Path, PathBuf};

/// Something written straight into, never replaced.
pub(super) enum Stream {
    /// A descriptor of this process (`/dev/stdout`, `/dev/fd/N`,
    /// `/proc/self/fd/N`): written through a copy of the descriptor, so that
    /// what the shell set up (a pipe, `>>`) is kept whatever is behind it.
    Fd(u32),
    /// A FIFO, a device or a socket: opened for writing.
    Path(PathBuf),
}

/// Whether `path` (landing on `real`) is to be written straight into;
/// `Err` for what cannot be an output at all (a directory).
pub(super) fn stream_kind(path: &Path, real: &Path) -> Result<Option<Stream>, String> {
    if let Some(fd) = descriptor(path) {
        return Ok(Some(Stream::Fd(fd)));
    }
    let Ok(m) = std::fs::metadata(real) else {
        return Ok(None);
    };
    if m.is_dir() {
        return Err(format!(
            "{}: not written: it is a directory",
            path.display()
        ));
    }
    Ok((!m.is_file()).then(|| Stream::Path(real.to_path_buf())))
}

/// Whether `path` is written straight into (a FIFO, a device, a
/// descriptor such as `/dev/stdout`) rather than replaced.
pub fn is_stream(path: &Path) -> bool {
    descriptor(path).is_some() || std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The descriptor `path` names, following symbolic links one at a time
/// (`/dev/stdout` → `/proc/self/fd/1`): canonicalizing would go past the
/// descriptor to the file behind it.
pub(super) fn descriptor(path: &Path) -> Option<u32> {
    let mut p = path.to_path_buf();
    for _ in 0..16 {
        let s = p.to_str()?;
        let n = match s {
            "/dev/stdout" => Some("1"),
            "/dev/stderr" => Some("2"),
            _ => s
                .strip_prefix("/dev/fd/")
                .or_else(|| s.strip_prefix("/proc/self/fd/")),
        };
        if let Some(n) = n.and_then(|n| n.parse().ok()) {
            return Some(n);
        }
        let next = std::fs::read_link(&p).ok()?;
        p = match p.parent() {
            Some(dir) if next.is_relative() => dir.join(next),
            _ => next,
        };
    }
    None
}

/// Open `stream` (named `shown` in messages) for writing.
pub(super) fn open(shown: &Path, stream: Stream) -> std::io::Result<std::fs::File> {
    match stream {
        Stream::Fd(fd) => match standard_stream(fd) {
            Some(f) => f,
            None => std::fs::OpenOptions::new().write(true).open(shown),
        },
        Stream::Path(p) => std::fs::OpenOptions::new().write(true).open(p),
    }
}

/// A copy of standard output (1) or standard error (2), sharing its offset
/// and flags (an `>>` append stays an append).
#[cfg(unix)]
fn standard_stream(fd: u32) -> Option<std::io::Result<std::fs::File>> {
    use std::os::fd::AsFd;
    let owned = match fd {
        1 => std::io::stdout().as_fd().try_clone_to_owned(),
        2 => std::io::stderr().as_fd().try_clone_to_owned(),
        _ => return None,
    };
    Some(owned.map(std::fs::File::from))
}

#[cfg(not(unix))]
fn standard_stream(_: u32) -> Option<std::io::Result<std::fs::File>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn a_descriptor_is_found_through_its_links_not_past_them() {
        assert_eq!(descriptor(Path::new("/dev/stdout")), Some(1));
        assert_eq!(descriptor(Path::new("/dev/stderr")), Some(2));
        assert_eq!(descriptor(Path::new("/dev/fd/7")), Some(7));
        assert_eq!(descriptor(Path::new("/proc/self/fd/1")), Some(1));
        let d = tempfile::tempdir().unwrap();
        let link = d.path().join("out");
        std::os::unix::fs::symlink("/dev/stdout", &link).unwrap();
        assert_eq!(descriptor(&link), Some(1));
        let file = d.path().join("f");
        std::fs::write(&file, "").unwrap();
        assert_eq!(descriptor(&file), None);
        assert!(matches!(stream_kind(&file, &file), Ok(None)));
        assert!(stream_kind(d.path(), d.path()).is_err());
        assert!(matches!(
            stream_kind(Path::new("/dev/null"), Path::new("/dev/null")),
            Ok(Some(Stream::Path(_)))
        ));
    }
}
