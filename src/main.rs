//! The `kifu` command: check, convert, stats, classify, dedup, select,
//! explore, analyze, perft, show, completions and man.
//!
//! `main` → `run()` → exit code: 0 when every game is legal, 1 when some game
//! has a foul, 2 when an input could not be read or the usage is wrong.

mod cmd;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Read shogi game records (KIF, KI2, CSA, USI/SFEN, JKF), replay every move
/// against the full rules, and write them back out.
#[derive(Parser, Debug)]
#[command(name = "kifu", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour `ok`, fouls, warnings and errors: auto (on a terminal, unless
    /// NO_COLOR is set), always or never.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    color: cmd::color::When,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Replay every game and report every foul and finding.
    Check(CheckArgs),
    /// Convert records to another format.
    Convert(ConvertArgs),
    /// Count legal move sequences of a given length (a move-generator test).
    Perft(PerftArgs),
    /// Describe a collection: results, endings, lengths, handicaps and fouls.
    Stats(StatsArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print the man page (roff) of kifu, or write one page per command.
    Man(ManArgs),
    /// Print one position of a game as a KIF board diagram or an SVG board.
    Show(ShowArgs),
    /// Search every position with a USI engine and write its scores into the records.
    Analyze(cmd::analyze::AnalyzeArgs),
    /// Find the games that are one game across files, formats and
    /// encodings (the same moves, or a truncated copy), and keep one copy.
    Dedup(cmd::dedup::DedupArgs),
    /// Keep the games that match every filter given (players, event, date,
    /// rating, handicap, result, ending, foul, length, a position), listed,
    /// converted or split into parts.
    Select(cmd::select::SelectArgs),
    /// List the moves the games play from a position, with their games,
    /// wins for each side, draws and average rating.
    Explore(cmd::explore::ExploreArgs),
    /// Name what each game is: its 戦型, and each side's strategies and
    /// castles with the ply each first held (one line per game).
    Classify(ClassifyArgs),
}

#[derive(Args, Debug)]
struct ManArgs {
    /// Write kifu.1, kifu-check.1, kifu-convert.1, … into this directory
    /// (for packagers) instead of printing one page with every command.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct StatsArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Count games, wins, losses and average length for each value of KEY
    /// instead of describing the collection.
    #[arg(long, value_enum, value_name = "KEY")]
    by: Option<StatsBy>,
    /// With --by: also write the table as an HTML page with a bar chart of
    /// the win rates to this file.
    #[arg(long, value_name = "FILE.html", requires = "by")]
    report: Option<PathBuf>,
    #[command(flatten)]
    judge: JudgeArgs,
}

/// How a move's loss is named, from the evaluations a record carries
/// (`kifu analyze`, `stats --by`, `check --report`).
#[derive(Args, Debug, Clone)]
struct JudgeArgs {
    /// The loss in expected-win terms (0 to 1) from which a move is 疑問手.
    #[arg(long, default_value = "0.1", value_name = "LOSS")]
    dubious: f64,
    /// The loss from which a move is 悪手.
    #[arg(long, default_value = "0.2", value_name = "LOSS")]
    mistake: f64,
    /// The loss from which a move is 大悪手.
    #[arg(long, default_value = "0.3", value_name = "LOSS")]
    blunder: f64,
}

impl JudgeArgs {
    fn thresholds(&self) -> anyhow::Result<kifu::judge::Thresholds> {
        let t = kifu::judge::Thresholds {
            dubious: self.dubious,
            mistake: self.mistake,
            blunder: self.blunder,
        };
        if !t.is_valid() {
            anyhow::bail!(
                "the thresholds must satisfy 0 < --dubious <= --mistake <= --blunder <= 1"
            );
        }
        Ok(t)
    }
}

/// What `kifu stats --by` groups games by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum StatsBy {
    /// The game's 戦型 (`kifu classify`).
    Opening,
    /// Each side's main castle.
    Castle,
    /// Each side's player (先手/下手, 後手/上手, CSA N+ / N-).
    Player,
    /// The event (棋戦, $EVENT).
    Event,
    /// The year the game started (開始日時, $START_TIME).
    Year,
    /// Sente and gote.
    Side,
}

impl StatsBy {
    fn name(self) -> &'static str {
        match self {
            StatsBy::Opening => "opening",
            StatsBy::Castle => "castle",
            StatsBy::Player => "player",
            StatsBy::Event => "event",
            StatsBy::Year => "year",
            StatsBy::Side => "side",
        }
    }

    /// Whether each game gives one value for each side.
    fn per_side(self) -> bool {
        matches!(self, StatsBy::Castle | StatsBy::Player | StatsBy::Side)
    }
}

#[derive(Args, Debug)]
struct ClassifyArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Print one JSON object per game (JSON Lines) instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Options shared by the commands that read records.
#[derive(Args, Debug, Clone)]
struct InputArgs {
    /// Files or directories (searched recursively); `-` reads stdin, and so
    /// does nothing, unless stdin is a terminal: then the current directory
    /// is read.
    paths: Vec<PathBuf>,
    /// The input format (default: detect from extension and content).
    #[arg(long, value_parser = format_names(), ignore_case = true)]
    from: Option<kifu::Format>,
    /// The input encoding (utf-8, shift_jis/cp932, euc-jp; default: detect).
    #[arg(long)]
    encoding: Option<String>,
    /// Files processed in parallel (default: all cores).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Read the records as a shogi variant: shoshogi, torishogi, minishogi,
    /// judkins, micro or chushogi (see "Variants" in docs/cli.md). Without it a variant
    /// is recognised from its SFEN, `setoption name UCI_Variant` line or KIF 手合割.
    #[arg(long, value_parser = ["shoshogi", "torishogi", "minishogi", "judkins", "micro", "chushogi"])]
    variant: Option<String>,
    /// Entering-king rule for declarations (入玉宣言): 27 or 24 points.
    #[arg(long, default_value = "27", value_parser = ["24", "27"])]
    declaration: String,
}

#[derive(Args, Debug)]
struct CheckArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Print one JSON object per game (JSON Lines) instead of text.
    #[arg(long)]
    json: bool,
    /// Print only the games that have findings, no summary and no progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// Also write the summary as a JSON object to this file.
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    /// Also write an HTML report (summary, one card per foul and finding, boards) to this file.
    #[arg(long, value_name = "FILE.html")]
    report: Option<PathBuf>,
    #[command(flatten)]
    judge: JudgeArgs,
    /// Fail (exit 1) on every diagnostic and input warning too, not only on fouls:
    /// refuse what only a lenient reading accepts.
    #[arg(long)]
    strict: bool,
}

/// Where and how the outputs are written: `convert`'s, and the commands
/// that write through it (`analyze`).
#[derive(Args, Debug, Clone)]
struct OutputArgs {
    /// Write to this file. The line formats (usi, sfen, json, hcpe, psv)
    /// write the games of every input into it, one stream; the others take
    /// one input (its later games go to FILE-2, FILE-3, …). A FIFO, a device
    /// or /dev/stdout is written straight into, never replaced; `-` is
    /// standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write one file per input under this directory, mirroring the input tree.
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Name each output after its input's whole file name (x.kif →
    /// x.kif.csa), so that x.kif and x.kifu in one folder do not both
    /// become x.csa.
    #[arg(long)]
    keep_extension: bool,
    /// Replace existing output files (keeping their mode; a symbolic link
    /// is written through to its target).
    #[arg(long, conflicts_with = "skip_existing")]
    force: bool,
    /// Leave existing output files alone and count them as skipped.
    #[arg(long)]
    skip_existing: bool,
    /// CSA version to write.
    #[arg(long, default_value = "2.2", value_parser = ["2.2", "3.0"])]
    csa_version: String,
    /// Indent JSON output (--to json).
    #[arg(long)]
    pretty: bool,
}

impl OutputArgs {
    /// Standard output, or the file or directory given; nothing replaced.
    fn to(output: Option<PathBuf>, out_dir: Option<PathBuf>) -> OutputArgs {
        OutputArgs {
            output,
            out_dir,
            keep_extension: false,
            force: false,
            skip_existing: false,
            csa_version: "2.2".into(),
            pretty: false,
        }
    }
}

#[derive(Args, Debug)]
struct ConvertArgs {
    #[command(flatten)]
    input: InputArgs,
    /// The target format.
    #[arg(long, value_parser = to_format_names(), ignore_case = true)]
    to: ToFormat,
    #[command(flatten)]
    out: OutputArgs,
    /// Do not print warnings, the summary or a progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// List every warning of every file (by default they are summed up by
    /// code at the end).
    #[arg(short, long)]
    verbose: bool,
    /// Also write the summary as a JSON object to this file.
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    /// Write each variation as a game of its own (for formats without variations).
    #[arg(long)]
    split_variations: bool,
    /// Convert the readable part of a game whose text has a syntax error
    /// (the moves before the bad line), with a warning naming what was left out.
    #[arg(long)]
    lenient: bool,
    /// Name each game's opening in the header it is written with (KIF/KI2
    /// `戦型：`, CSA `$OPENING:`) when it has none; a written one is kept.
    #[arg(long)]
    classify: bool,
    /// With --classify, replace a written 戦型 / `$OPENING` too.
    #[arg(long, requires = "classify")]
    overwrite_opening: bool,
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// Count on a variant's board: shoshogi, torishogi, minishogi, judkins
    /// micro or chushogi (the table-driven engine; `shogi` runs modern shogi on it).
    #[arg(long, value_parser = ["shogi", "shoshogi", "torishogi", "minishogi", "judkins", "micro", "chushogi"])]
    variant: Option<String>,
    /// Start from this SFEN instead of the initial position.
    #[arg(long)]
    sfen: Option<String>,
    /// Print each legal move with its count first.
    #[arg(long)]
    divide: bool,
    /// Depth in plies.
    depth: u32,
}

/// Arguments of `kifu show`.
#[derive(Args, Debug)]
struct ShowArgs {
    /// The record (`-` reads stdin).
    file: PathBuf,
    /// The game of a multi-game file, from 1.
    #[arg(long, default_value_t = 1)]
    game: usize,
    /// Show the position after this ply of the main line (0: the start).
    /// Default: the last position, or the one before the foul.
    #[arg(long)]
    ply: Option<usize>,
    /// What to print.
    #[arg(long, value_enum, default_value = "bod")]
    to: ShowFormat,
    /// The input format (default: detect from extension and content).
    #[arg(long, value_parser = format_names(), ignore_case = true)]
    from: Option<kifu::Format>,
    /// The input encoding (utf-8, shift_jis/cp932, euc-jp; default: detect).
    #[arg(long)]
    encoding: Option<String>,
    /// Read the record as a shogi variant: shoshogi, torishogi, minishogi,
    /// judkins, micro or chushogi (default: as `check` sniffs it).
    #[arg(long)]
    variant: Option<String>,
}

/// The drawings `show` prints.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ShowFormat {
    /// The KIF board diagram (BOD), which kifu reads back as a start position.
    Bod,
    /// A standalone SVG 1.1 board.
    Svg,
}

/// `--from`'s names: the library's table ([`kifu::names::FORMAT_NAMES`]),
/// which the Python package reads by too.
fn format_names() -> impl clap::builder::TypedValueParser<Value = kifu::Format> {
    use clap::builder::TypedValueParser as _;
    let names = kifu::names::FORMAT_NAMES.map(|(name, _)| name);
    clap::builder::PossibleValuesParser::new(names)
        .map(|name| name.parse::<kifu::Format>().unwrap_or(kifu::Format::Kif))
}

/// `--to`'s formats. Their names are the library's table
/// ([`kifu::names::TARGET_NAMES`], less `csa3`, which the command spells
/// `--to csa --csa-version 3.0`): see [`to_format_names`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ToFormat {
    Usi,
    Csa,
    Sfen,
    Kif,
    Kifu,
    Ki2,
    Ki2u,
    Jkf,
    Json,
    Hcpe,
    Psv,
}

/// `--to`'s names, each parsed by the library as a [`kifu::Target`], with
/// the command's help for it.
fn to_format_names() -> ToFormatNames {
    ToFormatNames
}

/// The parser [`to_format_names`] gives: its own type, so that `--help`
/// lists the names with their help (clap's mapped parsers do not).
#[derive(Clone, Copy)]
struct ToFormatNames;

impl ToFormatNames {
    fn values() -> impl Iterator<Item = clap::builder::PossibleValue> {
        kifu::names::TARGET_NAMES.iter().filter_map(|name| {
            let to = ToFormat::of(&name.parse().ok()?)?;
            Some(clap::builder::PossibleValue::new(*name).help(to.help()))
        })
    }
}

impl clap::builder::TypedValueParser for ToFormatNames {
    type Value = ToFormat;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<ToFormat, clap::Error> {
        let name =
            clap::builder::PossibleValuesParser::new(Self::values()).parse_ref(cmd, arg, value)?;
        name.parse()
            .ok()
            .and_then(|t| ToFormat::of(&t))
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(Self::values()))
    }
}

impl ToFormat {
    /// The command's format for a library target; `None` for `csa3`
    /// (`csa` with `--csa-version 3.0`) and targets the command lacks.
    fn of(target: &kifu::Target) -> Option<ToFormat> {
        use kifu::Target as T;
        Some(match target {
            T::Usi => ToFormat::Usi,
            T::Csa(o) if o.version == kifu::emit::csa::CsaVersion::V22 => ToFormat::Csa,
            T::Sfen => ToFormat::Sfen,
            T::Kif => ToFormat::Kif,
            T::Kifu => ToFormat::Kifu,
            T::Ki2 => ToFormat::Ki2,
            T::Ki2u => ToFormat::Ki2u,
            T::Jkf => ToFormat::Jkf,
            T::Json(_) => ToFormat::Json,
            T::Hcpe => ToFormat::Hcpe,
            T::Psv => ToFormat::Psv,
            _ => return None,
        })
    }

    /// What `--help` says of it.
    fn help(self) -> &'static str {
        match self {
            ToFormat::Usi => "`position … moves …` lines",
            ToFormat::Csa => "CSA V2.2 (or V3.0 with --csa-version 3.0); several games per file",
            ToFormat::Sfen => {
                "One line per position: SFEN, next move, result and eval from the mover's side (for ML)"
            }
            ToFormat::Kif => "KIF in Shift_JIS (CP932), as Kifu for Windows writes it",
            ToFormat::Kifu => "KIF in UTF-8",
            ToFormat::Ki2 => {
                "KI2 (traditional notation) in Shift_JIS (CP932), as Kifu for Windows writes it"
            }
            ToFormat::Ki2u => "KI2 in UTF-8",
            ToFormat::Jkf => "JSON Kifu Format, one game per file",
            ToFormat::Json => "Analysis JSON Lines: one object per game (see docs/json.md)",
            ToFormat::Hcpe => {
                "dlshogi HuffmanCodedPosAndEval, 38 bytes a position (see docs/training.md)"
            }
            ToFormat::Psv => {
                "YaneuraOu PackedSfenValue, 40 bytes a position (see docs/training.md)"
            }
        }
    }

    /// The extension of the files of this format.
    fn extension(self) -> &'static str {
        match self {
            ToFormat::Usi => "usi",
            ToFormat::Csa => "csa",
            ToFormat::Sfen => "sfen",
            ToFormat::Kif => "kif",
            ToFormat::Kifu => "kifu",
            ToFormat::Ki2 => "ki2",
            ToFormat::Ki2u => "ki2u",
            ToFormat::Jkf => "jkf",
            ToFormat::Json => "jsonl",
            ToFormat::Hcpe => "hcpe",
            ToFormat::Psv => "psv",
        }
    }
}

/// Allocate and free one large zeroed block before any work. glibc serves
/// it with `mmap`, and freeing it raises the allocator's dynamic thresholds
/// (mallopt(3): the mmap threshold to the block's size, the trim threshold
/// to twice it). Without that, a conversion frees each game's large output
/// string at the top of the heap, glibc gives the pages back, and the next
/// game faults them in again: `--to json` of 2,000 games went from 215 to
/// 173 ms (system time 49 -> 4 ms) with this, and peak RSS streaming a
/// 211 MiB file from 17 to 20 MB. The zeroed pages are never touched, so it
/// costs one `mmap`/`munmap` pair; other allocators just free the block.
fn raise_allocator_thresholds() {
    drop(std::hint::black_box(vec![0u8; 8 << 20]));
}

fn main() -> ExitCode {
    raise_allocator_thresholds();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            if cmd::is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            let error =
                cmd::color::paint(cmd::color::Stream::Stderr, cmd::color::Style::Bad, "error");
            eprintln!("kifu: {error}: {}", cmd::error_text(&e));
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    cmd::color::init(cli.color);
    match cli.command {
        Command::Check(a) => cmd::check::run(&a),
        Command::Convert(a) => cmd::convert::run(&a),
        Command::Perft(a) => cmd::perft::run(&a),
        Command::Stats(a) => cmd::stats::run(&a),
        Command::Completions(a) => cmd::extra::completions(a.shell),
        Command::Man(a) => cmd::extra::man(a.out_dir.as_deref()),
        Command::Show(a) => cmd::show::run(&a),
        Command::Analyze(a) => cmd::analyze::run(&a),
        Command::Dedup(a) => cmd::dedup::run(&a),
        Command::Select(a) => cmd::select::run(&a),
        Command::Explore(a) => cmd::explore::run(&a),
        Command::Classify(a) => cmd::classify::run(&a),
    }
}

#[cfg(test)]
mod tests {
    use super::to_format_names;

    /// `--to` names the targets as the library's table does (less `csa3`,
    /// which the command spells `--to csa --csa-version 3.0`), each one
    /// parsing as the library's `Target`.
    #[test]
    fn to_names_are_the_librarys_target_names() {
        use clap::builder::TypedValueParser as _;
        let cli: Vec<String> = to_format_names()
            .possible_values()
            .into_iter()
            .flatten()
            .map(|p| p.get_name().to_string())
            .collect();
        let lib: Vec<&str> = kifu::names::TARGET_NAMES
            .iter()
            .copied()
            .filter(|&n| n != "csa3")
            .collect();
        let mut sorted_cli = cli.clone();
        sorted_cli.sort();
        let mut sorted_lib = lib.clone();
        sorted_lib.sort();
        assert_eq!(sorted_cli, sorted_lib);
        for name in &cli {
            assert!(name.parse::<kifu::Target>().is_ok(), "{name}");
        }
    }
}
