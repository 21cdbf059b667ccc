//! Analysis JSON Lines (`--to json`): one object per game for jq, pandas,
//! DuckDB and ML scripts. The field names are stable; `docs/json.md` lists them.

use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::notation::{push_csa_move, push_ki2_move, push_kif_move};
use crate::opening::Opening;
use crate::record::{HeaderField, Line, MoveEntry, Record, StartPosition};
use crate::replay::{Game, LineResult};
use crate::report::{ResultJson, VerdictJson, diagnostic_json, result_json, verdict_json};
use crate::rules::position::Position;
use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

/// The start position.
#[derive(Serialize)]
struct StartJson {
    /// Canonical SFEN.
    sfen: String,
    /// `hirate`, a handicap name, or null for a position written out.
    preset: Option<&'static str>,
}

/// Time of a move.
#[derive(Serialize)]
struct TimeJson {
    /// Time spent on the move.
    spent_ms: Option<u64>,
    /// The mover's total so far.
    total_ms: Option<u64>,
}

/// The position after the first `n` plies of `result` from `pos`.
fn advance(mut pos: Position, result: &LineResult, n: usize) -> Position {
    for p in result.plies.iter().take(n) {
        pos.play_unchecked(p.mv);
    }
    pos
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

// What `write` serializes, borrowed from the game, with each ply's strings
// made while it is written, into buffers reused along the line: an owned
// tree of the same shape cost a dozen allocations a ply, all freed again
// right after. docs/json.md names every field.

/// One game.
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
        let preset = record.start.preset().map(|h| h.name());
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

/// The common header fields by name, and every header line: the one place
/// the header keys are looked up.
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

/// The recorded ending.
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

/// One legal ply: the strings live in [`LineView`]'s buffers.
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

/// A line's plies as [`MoveView`]s, walking positions from `start`; empty
/// without a start or a line.
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
        let mut sfen_buf = [0u8; crate::notation::sfen::SFEN_MAX];
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
/// position before the move it replaces).
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
            // A child listed before its parent is dropped.
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

/// Variation `.1`, with the variations branching from it.
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
