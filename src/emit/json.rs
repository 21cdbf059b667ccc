//! Analysis JSON Lines (`--to json`): one object per game for jq, pandas,
//! DuckDB and ML scripts. The field names are stable; `docs/json.md` lists them.

use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::notation::{csa_move, ki2_move, kif_move, push_csa_move, push_ki2_move, push_kif_move};
use crate::opening::Opening;
use crate::record::{Ending, HeaderField, Line, MoveEntry, Record, StartPosition};
use crate::replay::{Game, LineResult};
use crate::report::{
    DiagnosticJson, ResultJson, VerdictJson, diagnostic_json, game_report, result_json,
    verdict_json,
};
use crate::rules::position::Position;
use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

/// One game.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameJson {
    /// The input's path, or `-`.
    pub source: String,
    /// The game's index within its file.
    pub index: usize,
    /// The format read.
    pub format: &'static str,
    /// The encoding the input was decoded with.
    pub encoding: &'static str,
    /// Header fields.
    pub header: HeaderJson,
    /// The start position.
    pub start: StartJson,
    /// The legal plies of the main line.
    pub moves: Vec<MoveJson>,
    /// Variations, nested.
    pub variations: Vec<VariationJson>,
    /// The recorded ending of the main line.
    pub end: Option<EndJson>,
    /// As `kifu check --json`.
    pub result: ResultJson,
    /// As `kifu check --json`.
    pub verdict: VerdictJson,
    /// As `kifu check --json`.
    pub diagnostics: Vec<DiagnosticJson>,
    /// The game's 戦型 and each side's strategies and castles.
    pub opening: Opening,
}

/// The common header fields by name, and every header line.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HeaderJson {
    /// 先手 / 下手 / `N+` (the `json` column of
    /// [`SPELLINGS`](crate::record::SPELLINGS) names each field's keys).
    pub sente: Option<String>,
    /// 後手 / 上手 / `N-`.
    pub gote: Option<String>,
    /// 棋戦 / `$EVENT`.
    pub event: Option<String>,
    /// 場所 / `$SITE`.
    pub site: Option<String>,
    /// 開始日時 / `$START_TIME`.
    pub start_time: Option<String>,
    /// 終了日時 / `$END_TIME`.
    pub end_time: Option<String>,
    /// 持ち時間 / `$TIME_LIMIT` / `$TIME`.
    pub time_control: Option<String>,
    /// 手合割, or the preset's name.
    pub handicap: Option<String>,
    /// Every header line as `[key, value]`, in file order.
    pub raw: Vec<(String, String)>,
}

/// The start position.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StartJson {
    /// Canonical SFEN.
    pub sfen: String,
    /// `hirate`, a handicap name, or null for a position written out.
    pub preset: Option<&'static str>,
}

/// Time of a move.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct TimeJson {
    /// Time spent on the move.
    pub spent_ms: Option<u64>,
    /// The mover's total so far.
    pub total_ms: Option<u64>,
}

/// One legal ply.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MoveJson {
    /// 1-based ply.
    pub ply: u32,
    /// USI notation.
    pub usi: String,
    /// CSA notation.
    pub csa: String,
    /// KIF notation.
    pub kif: String,
    /// KI2 notation with JSA disambiguation.
    pub ki2: String,
    /// The piece before the move (CSA code).
    pub piece: &'static str,
    /// The piece captured (CSA code), or null.
    pub capture: Option<&'static str>,
    /// Whether the move promotes.
    pub promote: bool,
    /// Whether the move gives check.
    pub check: bool,
    /// The position after the move.
    pub sfen: String,
    /// Time, or null.
    pub time: Option<TimeJson>,
    /// Comments attached to the move.
    pub comments: Vec<String>,
    /// The evaluation, from sente's side: the move's floodgate `'**` score,
    /// else the one a GUI wrote in its comments; or null.
    pub eval: Option<i64>,
    /// The reading line of that evaluation in USI moves, as far as its moves
    /// are legal; or null.
    pub pv: Option<Vec<String>>,
    /// Line in the source.
    pub line: u32,
}

/// A variation.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct VariationJson {
    /// The ply its first move replaces.
    pub ply: u32,
    /// Its legal plies.
    pub moves: Vec<MoveJson>,
    /// Variations branching from it.
    pub variations: Vec<VariationJson>,
}

/// The recorded ending.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct EndJson {
    /// `resign`, `checkmate`, `sennichite`, `foul`, …
    pub kind: &'static str,
    /// The number of moves the record writes before the ending.
    pub ply: u32,
    /// As written.
    pub text: String,
}

fn header(record: &Record) -> HeaderJson {
    let v = HeaderView::of(record);
    let own = |f: Option<&str>| f.map(str::to_string);
    HeaderJson {
        sente: own(v.sente),
        gote: own(v.gote),
        event: own(v.event),
        site: own(v.site),
        start_time: own(v.start_time),
        end_time: own(v.end_time),
        time_control: own(v.time_control),
        handicap: own(v.handicap),
        raw: record
            .header
            .iter()
            .map(|h| (h.key.clone(), h.value.clone()))
            .collect(),
    }
}

/// The plies of a replayed line as JSON, walking positions from `pos`.
fn moves_json(mut pos: Position, line: &Line, result: &LineResult) -> Vec<MoveJson> {
    let mut out = Vec::with_capacity(result.plies.len());
    for (i, p) in result.plies.iter().enumerate() {
        let entry: Option<&MoveEntry> = line.moves.get(i);
        let ki2 = ki2_move(&pos, p.color, p.mv, p.piece, p.same);
        let (eval, pv) = entry.map_or((None, None), |e| super::pv::of(e, &pos, p.mv));
        pos.play_unchecked(p.mv);
        out.push(MoveJson {
            ply: result.first_ply + i as u32,
            usi: p.mv.to_usi(),
            csa: csa_move(p.color, p.mv, p.piece),
            kif: kif_move(p.mv, p.piece, p.same),
            ki2,
            piece: p.piece.csa(),
            capture: p.capture.map(|c| c.csa()),
            promote: p.mv.is_promotion(),
            check: p.check,
            sfen: pos.to_sfen(),
            time: entry.and_then(|e| e.time).map(|t| TimeJson {
                spent_ms: t.spent_ms,
                total_ms: t.total_ms,
            }),
            comments: entry.map(|e| e.comments().to_vec()).unwrap_or_default(),
            eval,
            pv,
            line: entry.map_or(0, |e| e.span.line),
        });
    }
    out
}

/// The position before ply `ply_index` (0-based) of a line that starts at `pos`.
fn advance(mut pos: Position, result: &LineResult, n: usize) -> Position {
    for p in result.plies.iter().take(n) {
        pos.play_unchecked(p.mv);
    }
    pos
}

fn end_json(e: Option<&Ending>, plies: u32) -> Option<EndJson> {
    e.map(|e| EndJson {
        kind: e.kind.name(),
        ply: plies,
        text: e.text.clone(),
    })
}

/// The analysis object of one game.
pub fn game_json(
    source: &str,
    encoding: &'static str,
    format: crate::Format,
    game: &Game,
) -> (GameJson, Vec<Warning>) {
    let report = game_report(source, format, game);
    let record = &game.record;
    // Start positions of each variation: the position before the move it replaces.
    let mut starts: Vec<Option<Position>> = Vec::with_capacity(game.variations.len());
    let mut objs: Vec<Option<VariationJson>> = Vec::with_capacity(game.variations.len());
    for (i, v) in game.variations.iter().enumerate() {
        let (parent_start, parent_result) = match v.parent {
            None => (Some(game.start.clone()), &game.main),
            Some(p) => (starts[p].clone(), &game.variations[p].line),
        };
        let start = parent_start.map(|s| advance(s, parent_result, v.entry));
        let moves = match (&start, game.variation_line(i)) {
            (Some(s), Some(line)) => moves_json(s.clone(), line, &v.line),
            _ => Vec::new(),
        };
        starts.push(start);
        objs.push(Some(VariationJson {
            ply: v.line.first_ply,
            moves,
            variations: Vec::new(),
        }));
    }
    // Nest children under parents; children always come after their parent.
    let mut top = Vec::new();
    // Children are pushed in reverse and each list is reversed once it is
    // complete (inserting at the front was quadratic in sibling count).
    for i in (0..objs.len()).rev() {
        let Some(mut obj) = objs[i].take() else {
            continue;
        };
        obj.variations.reverse();
        match game.variations[i].parent {
            Some(p) => {
                if let Some(parent) = objs[p].as_mut() {
                    parent.variations.push(obj);
                }
            }
            None => top.push(obj),
        }
    }
    top.reverse();
    let preset = match &record.start {
        StartPosition::Preset(h) => Some(h.name()),
        StartPosition::Setup(s) => s.preset().map(|h| h.name()),
    };
    let g = GameJson {
        source: source.to_string(),
        index: record.index,
        format: format.name(),
        encoding,
        header: header(record),
        start: StartJson {
            sfen: game.start.to_sfen(),
            preset,
        },
        moves: moves_json(game.start.clone(), &record.main, &game.main),
        variations: top,
        end: end_json(record.main.ending.as_ref(), record.main.moves.len() as u32),
        result: report.result,
        verdict: report.verdict,
        diagnostics: report.diagnostics,
        opening: report.opening,
    };
    (g, warnings(game))
}

fn warnings(game: &Game) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let depth = game.max_variation_depth();
    if depth > JSON_READABLE_DEPTH {
        warnings.push(Warning {
            code: WarningCode::DeepNesting,
            message: format!(
                "variations nest {depth} deep: JSON readers with serde_json's default \
                 recursion limit (128) refuse more than {JSON_READABLE_DEPTH}"
            ),
        });
    }
    warnings
}

/// The deepest variation nesting a JSON reader with serde_json's default
/// recursion limit (128 containers) can read back from [`write`](fn@write): each level
/// costs a `variations` array and an object, beneath the top-level object.
pub const JSON_READABLE_DEPTH: usize = 61;

/// One JSON line (no newline); `pretty` indents.
pub fn write(
    source: &str,
    encoding: &'static str,
    format: crate::Format,
    game: &Game,
    pretty: bool,
) -> (String, Vec<Warning>) {
    let view = GameView::new(source, encoding, format, game);
    let s = if pretty {
        serde_json::to_string_pretty(&view)
    } else {
        serde_json::to_string(&view)
    };
    (s.unwrap_or_default(), warnings(game))
}

// What `write` serializes: the shape of `GameJson` (same names, order and
// nesting, so serde_json writes the same bytes), but borrowed from the game,
// and each ply's strings made while it is written, into buffers reused along
// the line. Building `GameJson` cost a dozen allocations a ply, all freed
// again right after.

/// [`GameJson`], borrowed.
#[derive(Serialize)]
struct GameView<'a> {
    source: &'a str,
    index: usize,
    format: &'static str,
    encoding: &'static str,
    header: HeaderView<'a>,
    start: StartJson,
    moves: LineView<'a>,
    variations: TopVariations<'a>,
    end: Option<EndView<'a>>,
    result: ResultJson,
    verdict: VerdictJson,
    diagnostics: Diagnostics<'a>,
    opening: Opening,
}

impl<'a> GameView<'a> {
    fn new(
        source: &'a str,
        encoding: &'static str,
        format: crate::Format,
        game: &'a Game,
    ) -> GameView<'a> {
        let record = &game.record;
        let preset = match &record.start {
            StartPosition::Preset(h) => Some(h.name()),
            StartPosition::Setup(s) => s.preset().map(|h| h.name()),
        };
        GameView {
            source,
            index: record.index,
            format: format.name(),
            encoding,
            header: HeaderView::of(record),
            start: StartJson {
                sfen: game.start.to_sfen(),
                preset,
            },
            moves: LineView {
                start: Some(&game.start),
                line: Some(&record.main),
                result: &game.main,
            },
            variations: TopVariations(Tree::new(game)),
            end: record.main.ending.as_ref().map(|e| EndView {
                kind: e.kind.name(),
                ply: record.main.moves.len() as u32,
                text: &e.text,
            }),
            result: result_json(&game.main.result),
            verdict: verdict_json(&game.main.verdict),
            diagnostics: Diagnostics(&game.main),
            opening: crate::opening::classify(game),
        }
    }
}

/// [`HeaderJson`], borrowed: the one place the header keys are looked up,
/// for [`game_json`] and [`write()`] alike.
#[derive(Serialize)]
struct HeaderView<'a> {
    sente: Option<&'a str>,
    gote: Option<&'a str>,
    event: Option<&'a str>,
    site: Option<&'a str>,
    start_time: Option<&'a str>,
    end_time: Option<&'a str>,
    time_control: Option<&'a str>,
    handicap: Option<&'a str>,
    raw: Raw<'a>,
}

impl<'a> HeaderView<'a> {
    fn of(record: &'a Record) -> HeaderView<'a> {
        let mut view = HeaderView {
            sente: None,
            gote: None,
            event: None,
            site: None,
            start_time: None,
            end_time: None,
            time_control: None,
            handicap: None,
            raw: Raw(&record.header),
        };
        // Each field is the first header line whose key the vocabulary
        // gives that JSON name (`event`: 棋戦 or $EVENT, else 表題).
        for h in &record.header {
            let Some(name) = h.spelling().and_then(|s| s.json) else {
                continue;
            };
            let slot = match name {
                "sente" => &mut view.sente,
                "gote" => &mut view.gote,
                "event" => &mut view.event,
                "site" => &mut view.site,
                "start_time" => &mut view.start_time,
                "end_time" => &mut view.end_time,
                "time_control" => &mut view.time_control,
                "handicap" => &mut view.handicap,
                _ => continue,
            };
            slot.get_or_insert(h.value.as_str());
        }
        if view.handicap.is_none()
            && let StartPosition::Preset(h) = &record.start
        {
            view.handicap = Some(h.kif_name());
        }
        view
    }
}

/// The header lines as `[key, value]` pairs, like `Vec<(String, String)>`.
struct Raw<'a>(&'a [HeaderField]);

impl Serialize for Raw<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|h| (h.key.as_str(), h.value.as_str())))
    }
}

/// [`EndJson`], borrowed.
#[derive(Serialize)]
struct EndView<'a> {
    kind: &'static str,
    ply: u32,
    text: &'a str,
}

/// The main line's diagnostics, converted one at a time as they are written.
struct Diagnostics<'a>(&'a LineResult);

impl Serialize for Diagnostics<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.diagnostics.iter().map(diagnostic_json))
    }
}

/// [`MoveJson`], borrowed: the strings live in [`LineView`]'s buffers.
#[derive(Serialize)]
struct MoveView<'a> {
    ply: u32,
    usi: &'a str,
    csa: &'a str,
    kif: &'a str,
    ki2: &'a str,
    piece: &'static str,
    capture: Option<&'static str>,
    promote: bool,
    check: bool,
    sfen: &'a str,
    time: Option<TimeJson>,
    comments: &'a [String],
    eval: Option<i64>,
    pv: Option<&'a [String]>,
    line: u32,
}

/// A line's plies as [`MoveJson`]s, walking positions from `start`; empty
/// without a start or a line, as [`game_json`] has it.
struct LineView<'a> {
    start: Option<&'a Position>,
    line: Option<&'a Line>,
    result: &'a LineResult,
}

impl Serialize for LineView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (Some(start), Some(line)) = (self.start, self.line) else {
            return serializer.collect_seq(std::iter::empty::<()>());
        };
        let plies = &self.result.plies;
        let mut seq = serializer.serialize_seq(Some(plies.len()))?;
        let mut pos = start.clone();
        let (mut usi, mut csa, mut kif, mut ki2) = (
            String::with_capacity(8),
            String::with_capacity(8),
            String::with_capacity(32),
            String::with_capacity(48),
        );
        let mut sfen_buf = [0u8; crate::rules::setup::SFEN_MAX];
        let mut ranks = pos.sfen_ranks();
        for (i, p) in plies.iter().enumerate() {
            let entry: Option<&MoveEntry> = line.moves.get(i);
            for s in [&mut usi, &mut csa, &mut kif, &mut ki2] {
                s.clear();
            }
            push_ki2_move(&mut ki2, &pos, p.color, p.mv, p.piece, p.same);
            let (eval, pv) = match entry {
                Some(e) if super::pv::may_have(e) => super::pv::of(e, &pos, p.mv),
                _ => (None, None),
            };
            // The replayer keeps only plies that `play` accepted,
            // so the cheaper path for legal moves applies.
            pos.play_safe(p.mv);
            p.mv.push_usi(&mut usi);
            push_csa_move(&mut csa, p.color, p.mv, p.piece);
            push_kif_move(&mut kif, p.mv, p.piece, p.same);
            seq.serialize_element(&MoveView {
                ply: self.result.first_ply + i as u32,
                usi: &usi,
                csa: &csa,
                kif: &kif,
                ki2: &ki2,
                piece: p.piece.csa(),
                capture: p.capture.map(|c| c.csa()),
                promote: p.mv.is_promotion(),
                check: p.check,
                sfen: pos.sfen_after(p.mv, &mut ranks, &mut sfen_buf),
                time: entry.and_then(|e| e.time).map(|t| TimeJson {
                    spent_ms: t.spent_ms,
                    total_ms: t.total_ms,
                }),
                comments: entry.map_or(&[], |e| e.comments()),
                eval,
                pv: pv.as_deref(),
                line: entry.map_or(0, |e| e.span.line),
            })?;
        }
        seq.end()
    }
}

/// The variations' nesting, and the position each one starts from (the
/// position before the move it replaces), as [`game_json`] works them out.
struct Tree<'a> {
    game: &'a Game,
    starts: Vec<Option<Position>>,
    top: Vec<usize>,
    children: Vec<Vec<usize>>,
}

impl<'a> Tree<'a> {
    fn new(game: &'a Game) -> Tree<'a> {
        let n = game.variations.len();
        let mut starts: Vec<Option<Position>> = Vec::with_capacity(n);
        let mut top = Vec::new();
        let mut children = vec![Vec::new(); n];
        for (i, v) in game.variations.iter().enumerate() {
            let (parent_start, parent_result) = match v.parent {
                None => (Some(&game.start), &game.main),
                Some(p) => (starts[p].as_ref(), &game.variations[p].line),
            };
            starts.push(parent_start.map(|s| advance(s.clone(), parent_result, v.entry)));
            // A child listed before its parent is dropped, as in `game_json`.
            match v.parent {
                None => top.push(i),
                Some(p) if p < i => children[p].push(i),
                Some(_) => {}
            }
        }
        Tree {
            game,
            starts,
            top,
            children,
        }
    }
}

/// The variations branching from the main line, owning the tree.
struct TopVariations<'a>(Tree<'a>);

impl Serialize for TopVariations<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ChildrenOf(&self.0, None).serialize(serializer)
    }
}

/// The variations branching from variation `.1` (the main line for `None`).
struct ChildrenOf<'t, 'a>(&'t Tree<'a>, Option<usize>);

impl Serialize for ChildrenOf<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tree = self.0;
        let list = match self.1 {
            None => &tree.top,
            Some(i) => &tree.children[i],
        };
        serializer.collect_seq(list.iter().map(|&i| VariationView(tree, i)))
    }
}

/// Variation `.1` as a [`VariationJson`].
struct VariationView<'t, 'a>(&'t Tree<'a>, usize);

impl Serialize for VariationView<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Fields<'t, 'a> {
            ply: u32,
            moves: LineView<'a>,
            variations: ChildrenOf<'t, 'a>,
        }
        let (tree, i) = (self.0, self.1);
        let v = &tree.game.variations[i];
        Fields {
            ply: v.line.first_ply,
            moves: LineView {
                start: tree.starts[i].as_ref(),
                line: tree.game.variation_line(i),
                result: &v.line,
            },
            variations: ChildrenOf(tree, Some(i)),
        }
        .serialize(serializer)
    }
}
