//! Where outputs go and what they are called. A name depends only on its
//! input and the target format, never on which other files are in the
//! folder or on the command line; two inputs that would get one name are a
//! clash, reported by [`super::super::output::Outputs`].

use super::super::{Source, relative_to};
use crate::ToFormat;
use std::path::{Path, PathBuf};

/// Where the outputs of a run go.
#[derive(Clone, Debug)]
pub enum Plan {
    /// Standard output: one stream.
    Stdout,
    /// `-o FILE`: one file (a one-game-per-file format with several games
    /// adds `-2`, `-3`, … to the name).
    File(PathBuf),
    /// `--out-dir DIR`: one file per input, mirroring the input tree.
    Dir(PathBuf),
    /// `-o FILE` naming what is not a regular file (a FIFO, a device,
    /// `/dev/stdout`): one stream, written straight into as stdout is.
    Stream(PathBuf),
}

impl Plan {
    /// The file that holds the games of `src` under `--out-dir`: its path
    /// below the directory argument it was found in (or its file name),
    /// with the last extension replaced by the target's (`a/x.csa` →
    /// `DIR/a/x.kif`), or the target's added with `keep` (`--keep-extension`:
    /// `DIR/a/x.csa.kif`); standard input is `DIR/stdin.EXT`.
    pub fn input_target(&self, src: &Source, to: ToFormat, keep: bool) -> Option<PathBuf> {
        let Plan::Dir(dir) = self else {
            return None;
        };
        let ext = to.extension();
        let rel = match &src.path {
            Some(p) if keep => {
                let mut name = relative_to(p, src.root.as_deref()).as_os_str().to_owned();
                name.push(format!(".{ext}"));
                PathBuf::from(name)
            }
            Some(p) => relative_to(p, src.root.as_deref()).with_extension(ext),
            None => PathBuf::from(format!("stdin.{ext}")),
        };
        Some(dir.join(rel))
    }

    /// The file for game `index` of `src` in a one-game-per-file format,
    /// or `None` for standard output.
    pub fn game_target(
        &self,
        src: &Source,
        to: ToFormat,
        keep: bool,
        index: usize,
    ) -> Option<PathBuf> {
        let base = match self {
            Plan::Stdout | Plan::Stream(_) => return None,
            Plan::File(p) => p.clone(),
            Plan::Dir(_) => self.input_target(src, to, keep)?,
        };
        Some(with_game_number(&base, index))
    }
}

/// The file name for game `index` (0-based) of an output at `p`:
/// `x.kif`, `x-2.kif`, `x-3.kif`, ….
pub fn with_game_number(p: &Path, index: usize) -> PathBuf {
    if index == 0 {
        return p.to_path_buf();
    }
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = p
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    p.with_file_name(format!("{stem}-{}{ext}", index + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(path: &str, root: Option<&str>) -> Source {
        Source {
            path: Some(PathBuf::from(path)),
            root: root.map(PathBuf::from),
        }
    }

    #[test]
    fn an_output_name_depends_only_on_its_input_and_the_target() {
        let plan = Plan::Dir(PathBuf::from("o"));
        let t = |s: &Source| plan.input_target(s, ToFormat::Kif, false).unwrap();
        assert_eq!(t(&src("in/a/x.csa", Some("in"))), Path::new("o/a/x.kif"));
        assert_eq!(t(&src("in/x.json", Some("in"))), Path::new("o/x.kif"));
        assert_eq!(t(&src("d/x.tar.csa", None)), Path::new("o/x.tar.kif"));
        let stdin = Source {
            path: None,
            root: None,
        };
        assert_eq!(t(&stdin), Path::new("o/stdin.kif"));
    }

    #[test]
    fn keep_extension_adds_the_targets_extension_to_the_whole_name() {
        let plan = Plan::Dir(PathBuf::from("o"));
        let t = |s: &Source| plan.input_target(s, ToFormat::Csa, true).unwrap();
        assert_eq!(
            t(&src("in/a/x.kif", Some("in"))),
            Path::new("o/a/x.kif.csa")
        );
        assert_eq!(t(&src("in/x.KI2", Some("in"))), Path::new("o/x.KI2.csa"));
        let game = plan.game_target(&src("in/x.kifu", Some("in")), ToFormat::Kif, true, 1);
        assert_eq!(game.unwrap(), Path::new("o/x.kifu-2.kif"));
    }

    #[test]
    fn later_games_of_an_input_are_numbered_from_2() {
        assert_eq!(
            with_game_number(Path::new("o/x.kif"), 0),
            Path::new("o/x.kif")
        );
        assert_eq!(
            with_game_number(Path::new("o/x.kif"), 2),
            Path::new("o/x-3.kif")
        );
    }
}
