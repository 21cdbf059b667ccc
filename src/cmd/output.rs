//! Writing the outputs of one run safely: every file goes through a
//! temporary file renamed into place, new files get the ordinary mode of new
//! files, a replaced file keeps its mode, a symbolic link is written
//! through, and no output of a run ever replaces another output of the same
//! run or one of its inputs. What is not a regular file (a FIFO, a device,
//! `/dev/stdout`) is written straight into, never replaced.

mod special;

use super::signal;
use anyhow::Context;
pub use special::is_stream;
use special::{Stream, descriptor, stream_kind};
use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// What to do with an output that already exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Leave it and report it (the default).
    Refuse,
    /// Replace it (`--force`).
    Replace,
    /// Leave it and count it as skipped (`--skip-existing`).
    Skip,
}

/// The outputs a run has claimed so far, and its inputs, so that no output
/// lands on another output of the run or on an input.
pub struct Outputs {
    existing: Existing,
    /// Output file (its directory canonical) → the input that writes it.
    claimed: HashMap<PathBuf, String>,
    /// Canonical paths of the run's inputs.
    inputs: HashMap<PathBuf, String>,
    /// Added to clash messages.
    clash_hint: String,
}

/// What opening an output gave.
pub enum Opened {
    /// A temporary file to write, renamed to the output by [`OutFile::commit`]
    /// (or the stream itself, for what is not a regular file).
    File(OutFile),
    /// The output exists and `--skip-existing` was given.
    Skipped,
    /// The output is not written, for the reason given (one line that names
    /// the output once); the run goes on.
    Refused(String),
}

impl Outputs {
    /// A registry for a run reading `inputs`.
    pub fn new<'a>(existing: Existing, inputs: impl Iterator<Item = (&'a Path, String)>) -> Self {
        let inputs = inputs
            .filter_map(|(p, name)| Some((p.canonicalize().ok()?, name)))
            .collect();
        Outputs {
            existing,
            claimed: HashMap::new(),
            inputs,
            clash_hint: String::new(),
        }
    }

    /// Claim `path` for `input` and open a temporary file for it. An `Err`
    /// is an I/O failure (a directory that cannot be created, a full disk)
    /// that should stop the run.
    pub fn open(&mut self, path: &Path, input: &str) -> anyhow::Result<Opened> {
        create_parent(path)?;
        Ok(match self.claim(path, input)? {
            Claimed::Ready(t) => Opened::File(t.create()?),
            Claimed::Skipped => Opened::Skipped,
            Claimed::Refused(why) => Opened::Refused(why),
        })
    }

    /// Claim `path` for `input` without creating anything yet: the file (and
    /// its directory) is made by [`Destination::create`], once there is something
    /// to write, so that a run that gives no game leaves no trace.
    pub fn claim(&mut self, path: &Path, input: &str) -> anyhow::Result<Claimed> {
        let resolved = match descriptor(path) {
            Some(_) => Ok((path.to_path_buf(), None)),
            None => resolve_link(path),
        };
        let (real, link) = match resolved {
            Ok(r) => r,
            Err(why) => return Ok(Claimed::Refused(why)),
        };
        let key = claim_key(&real);
        if let Some(input_name) = self.inputs.get(&key) {
            return Ok(Claimed::Refused(format!(
                "{}: not written: it is the input {input_name} of this run",
                path.display()
            )));
        }
        if let Some(first) = self.claimed.get(&key) {
            let who = if first == input {
                format!("{input} would write it twice")
            } else {
                format!(
                    "{first} and {input} both convert to this file{}",
                    self.clash_hint
                )
            };
            return Ok(Claimed::Refused(format!(
                "{}: not written: output clash: {who}",
                path.display()
            )));
        }
        let shown = path.to_path_buf();
        match stream_kind(path, &real) {
            Ok(Some(stream)) => {
                self.claimed.insert(key, input.to_string());
                return Ok(Claimed::Ready(Destination {
                    shown,
                    real,
                    mode: None,
                    stream: Some(stream),
                }));
            }
            Ok(None) => {}
            Err(why) => return Ok(Claimed::Refused(why)),
        }
        self.claimed.insert(key, input.to_string());
        let mode = match std::fs::metadata(&real) {
            Err(_) if link.is_none() => None,
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
            Ok(m) => match self.existing {
                Existing::Skip => return Ok(Claimed::Skipped),
                Existing::Refuse => {
                    return Ok(Claimed::Refused(format!(
                        "{}: not written: it exists (--force replaces it, --skip-existing skips it)",
                        path.display()
                    )));
                }
                Existing::Replace => Some(m.permissions()),
            },
        };
        Ok(Claimed::Ready(Destination {
            shown,
            real,
            mode,
            stream: None,
        }))
    }

    /// Add `hint` (say, the option that tells the clashing inputs apart) to
    /// every clash message.
    pub fn with_clash_hint(mut self, hint: String) -> Self {
        self.clash_hint = hint;
        self
    }
}

/// What claiming an output gave.
pub enum Claimed {
    /// The output may be written: [`Destination::create`] makes it.
    Ready(Destination),
    /// The output exists and `--skip-existing` was given.
    Skipped,
    /// The output is not written, for the reason given.
    Refused(String),
}

/// A claimed output, not yet created.
pub struct Destination {
    shown: PathBuf,
    real: PathBuf,
    mode: Option<std::fs::Permissions>,
    stream: Option<Stream>,
}

impl Destination {
    /// Create the output (its directory too): a temporary file beside it,
    /// or the stream opened for writing.
    pub fn create(self) -> anyhow::Result<OutFile> {
        match self.stream {
            Some(s) => OutFile::direct(&self.shown, s),
            None => {
                create_parent(&self.real)?;
                OutFile::create(&self.shown, &self.real, self.mode)
            }
        }
    }
}

fn create_parent(path: &Path) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

/// The path a write to `path` lands on: `path` itself, or the file a
/// symbolic link points to (with the link, for messages). A link to
/// nothing is refused: replacing it would silently turn it into a file.
fn resolve_link(path: &Path) -> Result<(PathBuf, Option<PathBuf>), String> {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return Ok((path.to_path_buf(), None));
    }
    match path.canonicalize() {
        Ok(real) => Ok((real, Some(path.to_path_buf()))),
        Err(e) => Err(format!(
            "{}: not written: it is a symbolic link to a file that cannot be reached ({e})",
            path.display()
        )),
    }
}

/// One name per file whatever way it is spelt: the directory canonical.
fn claim_key(path: &Path) -> PathBuf {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    match path.file_name() {
        Some(n) => dir.join(n),
        None => dir,
    }
}

/// Write `bytes` to `path` (replacing it, keeping its mode, writing
/// through a link) outside the claims of a run: for `--summary FILE` and
/// `kifu man --out-dir`.
pub fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut f = if let Some(fd) = descriptor(path) {
        OutFile::direct(path, Stream::Fd(fd))?
    } else {
        create_parent(path)?;
        let (real, _) = resolve_link(path).map_err(anyhow::Error::msg)?;
        match stream_kind(path, &real).map_err(anyhow::Error::msg)? {
            Some(s) => OutFile::direct(path, s)?,
            None => {
                let mode = std::fs::metadata(&real).ok().map(|m| m.permissions());
                OutFile::create(path, &real, mode)?
            }
        }
    };
    f.write_all(bytes)?;
    f.commit()
}

/// An output being written: a temporary file beside its target, removed if
/// it is dropped before [`OutFile::commit`] (or by an interrupt); or a
/// stream written straight into.
pub struct OutFile {
    /// `None` only once committed, or for a stream.
    tmp: Option<BufWriter<tempfile::NamedTempFile>>,
    /// The stream written straight into (a FIFO, a device, a descriptor).
    direct: Option<BufWriter<std::fs::File>>,
    /// The path named on the command line (or under `--out-dir`).
    shown: PathBuf,
    /// Where the file lands (the target of a symbolic link).
    real: PathBuf,
}

impl OutFile {
    fn create(
        shown: &Path,
        real: &Path,
        mode: Option<std::fs::Permissions>,
    ) -> anyhow::Result<OutFile> {
        let dir = match real.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut b = tempfile::Builder::new();
        #[cfg(unix)]
        {
            // Created as any new file is, under the umask (tempfile's own
            // default is 0600, which would leave outputs private).
            use std::os::unix::fs::PermissionsExt;
            b.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let tmp = b
            .tempfile_in(dir)
            .with_context(|| format!("cannot write {}", shown.display()))?;
        signal::register(tmp.path());
        if let Some(mode) = mode {
            tmp.as_file()
                .set_permissions(mode)
                .with_context(|| format!("cannot write {}", shown.display()))?;
        }
        Ok(OutFile {
            tmp: Some(BufWriter::new(tmp)),
            direct: None,
            shown: shown.to_path_buf(),
            real: real.to_path_buf(),
        })
    }

    /// Open a stream for writing straight into it.
    fn direct(shown: &Path, stream: Stream) -> anyhow::Result<OutFile> {
        let cannot = || format!("cannot write {}", shown.display());
        let file = special::open(shown, stream).with_context(cannot)?;
        Ok(OutFile {
            tmp: None,
            direct: Some(BufWriter::new(file)),
            shown: shown.to_path_buf(),
            real: shown.to_path_buf(),
        })
    }

    /// Rename the finished file into place (flush a stream).
    pub fn commit(mut self) -> anyhow::Result<()> {
        if let Some(mut d) = self.direct.take() {
            return d.flush().map_err(|e| name_error(&self.shown, e).into());
        }
        let Some(tmp) = self.tmp.take() else {
            return Ok(());
        };
        let shown = &self.shown;
        let named = |e: std::io::Error| {
            anyhow::Error::new(bare(&e)).context(format!("cannot write {}", shown.display()))
        };
        let tmp = tmp.into_inner().map_err(|e| named(e.into_error()))?;
        let tmp_path = tmp.path().to_path_buf();
        // No fsync: the rename alone keeps readers from ever seeing half a
        // file, and syncing each of many small outputs costs more than the
        // conversion itself.
        let r = tmp
            .persist(&self.real)
            .map(drop)
            .map_err(|e| named(e.error));
        signal::unregister(&tmp_path);
        r
    }

    fn tmp(&mut self) -> std::io::Result<&mut dyn Write> {
        if let Some(d) = self.direct.as_mut() {
            return Ok(d);
        }
        match self.tmp.as_mut() {
            Some(t) => Ok(t),
            None => Err(std::io::Error::other("written after it was committed")),
        }
    }
}

impl Drop for OutFile {
    fn drop(&mut self) {
        // The temporary file itself is removed by tempfile (if still there).
        if let Some(tmp) = &self.tmp {
            signal::unregister(tmp.get_ref().path());
        }
    }
}

impl Write for OutFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let r = self.tmp()?.write(buf);
        r.map_err(|e| name_error(&self.shown, e))
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        let r = self.tmp()?.write_all(buf);
        r.map_err(|e| name_error(&self.shown, e))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let r = self.tmp()?.flush();
        r.map_err(|e| name_error(&self.shown, e))
    }
}

/// An I/O error that names the output, not its temporary file.
fn name_error(path: &Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(
        e.kind(),
        format!("cannot write {}: {}", path.display(), bare(&e)),
    )
}

/// An I/O error without the temporary file's path that tempfile adds.
fn bare(e: &std::io::Error) -> std::io::Error {
    match e.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code),
        None => std::io::Error::from(e.kind()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(outputs: &mut Outputs, path: &Path, input: &str, text: &str) -> String {
        match outputs.open(path, input).unwrap() {
            Opened::File(mut f) => {
                f.write_all(text.as_bytes()).unwrap();
                f.commit().unwrap();
                "written".to_string()
            }
            Opened::Skipped => "skipped".to_string(),
            Opened::Refused(why) => why,
        }
    }

    #[test]
    fn a_second_claim_on_one_output_is_refused_naming_both_inputs() {
        let d = tempfile::tempdir().unwrap();
        let mut o = Outputs::new(Existing::Replace, std::iter::empty());
        let p = d.path().join("x.usi");
        assert_eq!(write(&mut o, &p, "a/x.kif", "one\n"), "written");
        let why = write(&mut o, &d.path().join("./x.usi"), "b/x.kif", "two\n");
        assert!(
            why.contains("output clash") && why.contains("a/x.kif"),
            "{why}"
        );
        assert!(why.contains("b/x.kif"), "{why}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "one\n");
    }

    #[test]
    fn an_input_of_the_run_is_never_an_output() {
        let d = tempfile::tempdir().unwrap();
        let input = d.path().join("x.usi");
        std::fs::write(&input, "keep\n").unwrap();
        let mut o = Outputs::new(
            Existing::Replace,
            std::iter::once((input.as_path(), "x.usi".to_string())),
        );
        let why = write(&mut o, &input, "x.usi", "new\n");
        assert!(why.contains("is the input"), "{why}");
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "keep\n");
    }
}
