//! `kifu select`: the games of a collection that match every filter given
//! (or, with `--invert`, those that do not), listed, converted with
//! `kifu convert`'s writer, or split into files of N games or one folder a
//! player, event or year.

mod split;

use super::progress::{Kept, Progress, Tally};
use super::{Item, drive, read_options, sources};
use crate::{InputArgs, ToFormat};
use clap::{Args, ValueEnum};
use kifu::collection::{Filter, HandicapFilter, Outcome, Pattern, Range, plies_at};
use std::io::Write;
use std::path::PathBuf;

/// Options of `kifu select`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  kifu select --player 羽生 games/                  list the games (source, index)
  kifu select --date 2024-01..2024-06 --rating 3000.. --to csa -o best.csa floodgate/
  kifu select --foul=illegal-move --list games/     the games lost by an illegal move
  kifu select --position 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -' games/
                                                    every game and ply reaching the position
  kifu select --pattern 'R@7? k@8?' --material 'b=0' games/
                                                    sente's rook on file 7, gote's king on
                                                    file 8 and gote without a bishop, at once
  kifu select --split year --to csa --out-dir by-year/ games/")]
pub struct SelectArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// A player's name, either side (full-width and half-width letters,
    /// spaces and case folded; a part of the name matches).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Sente's name (as --player).
    #[arg(long, value_name = "NAME")]
    pub sente: Option<String>,
    /// Gote's name (as --player).
    #[arg(long, value_name = "NAME")]
    pub gote: Option<String>,
    /// The event (棋戦, $EVENT), folded as --player.
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
    /// The start date, FROM..TO (2024, 2024-05, 2024-05-04; either end
    /// may be left open), from 開始日時, $START_TIME, start_time or 対局日.
    #[arg(long, value_name = "FROM..TO", value_parser = date_range)]
    pub date: Option<Range<u32>>,
    /// Every rating the record gives, MIN..MAX (floodgate 'black_rate and
    /// 'white_rate); games with none do not match.
    #[arg(long, value_name = "MIN..MAX", value_parser = range::<f64>)]
    pub rating: Option<Range<f64>>,
    /// The start: a preset (hirate, two-pieces, 二枚落ち, …), or any for
    /// every start but the even game.
    #[arg(long, value_name = "NAME", value_parser = handicap)]
    pub handicap: Option<HandicapFilter>,
    /// The winner, or a draw (repetition, impasse, agreement, move limit).
    #[arg(long, value_enum)]
    pub result: Option<ResultArg>,
    /// How the game ended: resign, checkmate, sennichite, declaration,
    /// foul, time-up, jishogi, max-moves, interrupted, none, …
    #[arg(long, value_name = "REASON", value_parser = ending)]
    pub ending: Option<kifu::Reason>,
    /// Games whose main line ends in a foul; --foul=RULE for one rule
    /// (illegal-move, nifu, uchifuzume, perpetual-check, …).
    #[arg(long, value_name = "RULE", num_args = 0..=1, require_equals = true, value_parser = foul)]
    pub foul: Option<Option<kifu::Rule>>,
    /// The legal plies of the main line, MIN..MAX.
    #[arg(long, value_name = "MIN..MAX", value_parser = range::<usize>)]
    pub plies: Option<Range<usize>>,
    /// A position the main line reaches (SFEN, with or without the move
    /// number); --list then names the plies where it stands.
    #[arg(long, value_name = "SFEN", value_parser = position)]
    pub position: Option<u64>,
    /// Pieces on squares that one position of the main line holds: terms
    /// PIECE@SQUARE (SFEN letters, upper case sente's, + promoted; X/x any
    /// piece of a side, . empty; a file or rank may be ?), ! before one for
    /// "not": `R@2? !P@5?` is sente's rook on file 2 and no sente pawn on
    /// file 5. With --hand and --material, the same position meets all.
    #[arg(long, value_name = "TERMS", value_parser = board_pattern)]
    pub pattern: Option<Pattern>,
    /// Pieces in hand in that position: terms KIND OP N (B>=1, p=0; upper
    /// case sente's; = != < <= > >=).
    #[arg(long, value_name = "TERMS", value_parser = hand_pattern)]
    pub hand: Option<Pattern>,
    /// Material in that position, on board and in hand together (promoted
    /// pieces as their base kind): terms as --hand (R=2 b=0: sente has both
    /// rooks, gote no bishop).
    #[arg(long, value_name = "TERMS", value_parser = material_pattern)]
    pub material: Option<Pattern>,
    /// A name the game's 戦型, or either side's strategy or castle,
    /// contains, as `kifu classify` names them (四間飛車, 穴熊, 相振り飛車, …).
    #[arg(long, value_name = "NAME")]
    pub opening: Option<String>,
    /// Keep the games that do not match.
    #[arg(long)]
    pub invert: bool,
    /// List the games kept, one line each: source, game index (from 0) and,
    /// with --position, the plies where it stands, with --pattern, --hand
    /// or --material the plies where they hold (the default without --to).
    #[arg(long, conflicts_with = "to")]
    pub list: bool,
    /// Write the games kept in this format.
    #[arg(long, value_parser = crate::to_format_names(), ignore_case = true)]
    pub to: Option<ToFormat>,
    /// Write to this file, as `kifu convert -o`.
    #[arg(short, long, value_name = "FILE", requires = "to")]
    pub output: Option<PathBuf>,
    /// Write under this directory, as `kifu convert --out-dir` (or with
    /// --split, one file or folder a part).
    #[arg(long, value_name = "DIR", requires = "to")]
    pub out_dir: Option<PathBuf>,
    /// Split the games kept: into files of N games, or one folder a
    /// player (a game goes to both players'), event, year or opening (the
    /// game's 戦型). Needs --to and --out-dir.
    #[arg(long, value_name = "N|player|event|year|opening", value_parser = split::Split::parse,
          requires = "out_dir", conflicts_with = "output")]
    pub split: Option<split::Split>,
    /// No progress bar and no summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `--result`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultArg {
    /// Sente won.
    Sente,
    /// Gote won.
    Gote,
    /// A draw.
    Draw,
}

fn date_range(s: &str) -> Result<Range<u32>, String> {
    Range::parse_date(s).ok_or_else(|| {
        format!("`{s}` is not a date range: FROM..TO, each 2024, 2024-05 or 2024-05-04")
    })
}

fn range<T: std::str::FromStr + Copy>(s: &str) -> Result<Range<T>, String> {
    Range::parse(s).ok_or_else(|| format!("`{s}` is not a range: MIN..MAX, MIN.., ..MAX or N"))
}

fn handicap(s: &str) -> Result<HandicapFilter, String> {
    HandicapFilter::parse(s).ok_or_else(|| {
        let names: Vec<&str> = kifu::Handicap::ALL.iter().map(|h| h.name()).collect();
        format!("`{s}` names no handicap: any, {}", names.join(", "))
    })
}

fn ending(s: &str) -> Result<kifu::Reason, String> {
    kifu::Reason::from_code(s).ok_or_else(|| format!("`{s}` names no ending (resign, checkmate, sennichite, declaration, foul, time-up, jishogi, max-moves, …)"))
}

fn foul(s: &str) -> Result<kifu::Rule, String> {
    kifu::Rule::from_code(s)
        .ok_or_else(|| format!("`{s}` names no rule (see `kifu check` output for the codes)"))
}

fn board_pattern(s: &str) -> Result<Pattern, String> {
    Pattern::parse_board(s).map_err(|e| e.to_string())
}

fn hand_pattern(s: &str) -> Result<Pattern, String> {
    Pattern::parse_counts(s, true).map_err(|e| e.to_string())
}

fn material_pattern(s: &str) -> Result<Pattern, String> {
    Pattern::parse_counts(s, false).map_err(|e| e.to_string())
}

fn position(s: &str) -> Result<u64, String> {
    kifu::Position::from_sfen(s)
        .map(|p| p.key())
        .map_err(|e| format!("`{s}` is not a position: {e}"))
}

impl SelectArgs {
    /// The filter the options give.
    fn filter(&self) -> Filter {
        Filter {
            player: self.player.clone(),
            sente: self.sente.clone(),
            gote: self.gote.clone(),
            event: self.event.clone(),
            date: self.date,
            rating: self.rating,
            handicap: self.handicap,
            result: self.result.map(|r| match r {
                ResultArg::Sente => Outcome::Sente,
                ResultArg::Gote => Outcome::Gote,
                ResultArg::Draw => Outcome::Draw,
            }),
            ending: self.ending,
            foul: self.foul,
            plies: self.plies,
            position: self.position,
            pattern: self.pattern(),
            opening: self.opening.clone(),
        }
    }

    /// `--pattern`, `--hand` and `--material` as one pattern.
    fn pattern(&self) -> Option<Pattern> {
        [&self.pattern, &self.hand, &self.material]
            .into_iter()
            .flatten()
            .cloned()
            .reduce(Pattern::and)
    }
}

/// Run `kifu select`.
pub fn run(a: &SelectArgs) -> anyhow::Result<u8> {
    let filter = a.filter();
    let keep = |game: &kifu::Game| filter.matches(game) != a.invert;
    match (a.to, &a.split) {
        (Some(to), Some(s)) => split::run(a, to, s, &keep),
        (Some(to), None) => {
            let convert = super::convert::args_for(
                &a.input,
                a.input.paths_or_cwd(),
                to,
                a.output.clone(),
                a.out_dir.clone(),
                a.quiet,
            );
            super::convert::run_kept(&convert, &|_, g| keep(g))
        }
        (None, _) => list(a, &keep),
    }
}

fn list_item(
    name: &str,
    item: Item,
    a: &SelectArgs,
    keep: &(dyn Fn(&kifu::Game) -> bool + Sync),
    opts: &kifu::ReplayOptions,
    pattern: Option<&Pattern>,
) -> Kept<String> {
    let (index, game) = match super::replayed_game(name, item, opts) {
        Ok(g) => g,
        Err((err, unreadable)) => return Kept::failed(err, unreadable),
    };
    if !keep(&game) {
        return Kept::read(None);
    }
    let mut line = format!("{name}\t{index}");
    let column = |plies: Vec<u32>| {
        let plies: Vec<String> = plies.iter().map(u32::to_string).collect();
        format!("\t{}", plies.join(","))
    };
    if let (Some(k), false) = (a.position, a.invert) {
        line.push_str(&column(plies_at(&game, k)));
    }
    if let (Some(p), false) = (pattern, a.invert) {
        line.push_str(&column(p.plies_in(&game)));
    }
    line.push('\n');
    Kept::read(Some(line))
}

/// `--list`: one line a kept game, in input order.
fn list(a: &SelectArgs, keep: &(dyn Fn(&kifu::Game) -> bool + Sync)) -> anyhow::Result<u8> {
    let (read_opts, replay_opts) = read_options(&a.input)?;
    let (srcs, walk_errors) = sources(&a.input.paths_or_cwd());
    for e in &walk_errors {
        eprintln!("kifu: {e}");
    }
    let pattern = a.pattern();
    let mut progress = Progress::new(srcs.len(), !a.quiet);
    let mut tally = Tally::new(&mut progress, walk_errors.len());
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let mut kept = 0;
    drive(
        &srcs,
        a.input.jobs,
        &read_opts,
        |name, _, item| list_item(name, item, a, keep, &replay_opts, pattern.as_ref()),
        |_, ev| {
            if let Some(line) = tally.event(ev).and_then(|l| l.kept) {
                kept += 1;
                out.write_all(line.as_bytes())?;
            }
            Ok(())
        },
    )?;
    out.flush()?;
    let (files, games, unreadable) = (tally.files, tally.games, tally.unreadable);
    progress.finish();
    if !a.quiet {
        eprintln!(
            "kifu: {}: {kept} selected; {unreadable} unreadable",
            super::summary::files_and_games(files, games),
        );
    }
    Ok(if unreadable > 0 { 2 } else { 0 })
}
