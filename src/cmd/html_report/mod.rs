//! `kifu check --report FILE.html`: one self-contained HTML file with the
//! run's summary, one card per foul and per finding (each with the board
//! before the move), and the inputs that could not be read.
//!
//! Cards are built on the worker threads, as HTML, beside the text `check`
//! prints; the main thread only gathers them in input order. The page has no
//! external references: inline CSS, inline SVG and a small inline script
//! that filters cards by rule. The filter is also read from the URL
//! fragment (`report.html#rule=nifu`), so a link or a headless browser
//! applies exactly what the links in the page do. Boards are drawn when
//! their card nears the screen; `#draw=all` draws every shown board now.
//! `<body data-drawn>` counts the boards drawn, `data-shown` the cards shown.
//!
//! Games whose moves carry evaluations also get a graph and cards for
//! their worst moves ([`eval`]); `stats --by --report` has its own page
//! ([`stats`]).

pub mod eval;
pub mod stats;

use super::show::side_labels;
use super::summary::Summary;
use anyhow::Context;
use kifu::emit::diagram::{self, Diagram, MarkKind};
use kifu::emit::svg::{self, SvgOptions};
use kifu::judge::Thresholds;
use kifu::record::HeaderKey;
use kifu::replay::{Diagnostic, Game, LineResult, Verdict};
use kifu::{DiagnosticCode, Error, Rule};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// What one item of an input adds to the report (built on a worker).
#[derive(Default)]
pub struct Part {
    cards: Vec<Card>,
    /// The evaluation graph of the game, if it carries evaluations.
    graphs: Vec<String>,
    unreadable: Vec<String>,
    not_drawn: Vec<String>,
}

/// A card: its HTML before and after the board, and the board's SVG.
struct Card {
    rule: &'static str,
    head: String,
    svg: String,
    tail: String,
}

/// The report being gathered, in input order.
#[derive(Default)]
pub struct Report {
    cards: Vec<String>,
    /// Evaluation graphs, in input order.
    graphs: Vec<String>,
    /// The boards' SVG, by card.
    boards: Vec<String>,
    by_rule: BTreeMap<&'static str, usize>,
    unreadable: Vec<String>,
    /// Inputs whose findings have no card (variant records).
    not_drawn: Vec<String>,
    /// Cards per file, in input order.
    files: Vec<(String, usize)>,
}

impl Report {
    /// Add what one item of the input `name` gave.
    pub fn add(&mut self, name: &str, part: Part) {
        if !part.cards.is_empty() {
            match self.files.last_mut() {
                Some((n, count)) if n == name => *count += part.cards.len(),
                _ => self.files.push((name.to_string(), part.cards.len())),
            }
        }
        for c in part.cards {
            *self.by_rule.entry(c.rule).or_default() += 1;
            let i = self.cards.len();
            self.cards.push(format!(
                "{}<div class=\"board\" data-i=\"{i}\"></div>\n{}",
                c.head, c.tail
            ));
            self.boards.push(c.svg);
        }
        self.graphs.extend(part.graphs);
        self.unreadable.extend(part.unreadable);
        self.not_drawn.extend(part.not_drawn);
    }

    /// An input that could not even be listed (a directory walk error).
    pub fn walk_error(&mut self, message: &str) {
        self.unreadable
            .push(format!("<li>{}</li>\n", escape(message)));
    }

    /// Write the page to `path` atomically (a temporary file renamed into place).
    pub fn write(&self, path: &Path, sum: &Summary) -> anyhow::Result<()> {
        let mut html =
            String::with_capacity(self.cards.iter().map(String::len).sum::<usize>() + 16384);
        self.head(&mut html, sum);
        if !self.graphs.is_empty() {
            html.push_str("<details id=\"graphs\"><summary>Evaluation graphs (sente's chance of winning by ply)</summary>\n");
            for g in &self.graphs {
                html.push_str(g);
            }
            html.push_str("</details>\n");
        }
        html.push_str("<main id=\"cards\">\n");
        for c in &self.cards {
            html.push_str(c);
        }
        html.push_str("</main>\n");
        if !self.unreadable.is_empty() {
            html.push_str("<section id=\"unreadable\"><h2>Unreadable inputs</h2><ul>\n");
            for u in &self.unreadable {
                html.push_str(u);
            }
            html.push_str("</ul></section>\n");
        }
        if !self.not_drawn.is_empty() {
            html.push_str(
                "<section id=\"not-drawn\"><h2>Findings without a card</h2>\
                 <p>Variant records are judged, but their boards are not drawn here yet: \
                 <code>kifu check</code> lists their findings.</p><ul>\n",
            );
            for u in &self.not_drawn {
                html.push_str(u);
            }
            html.push_str("</ul></section>\n");
        }
        // Every board as raw text in one script element the browser does
        // not run: text parses without building nodes, and the page's
        // script turns a board into SVG when its card nears the screen.
        // Measured at 2,000 cards: one inline <svg> per card, or one text
        // element per card, took several times longer to load (see
        // docs/performance.md). The SVG never holds `</script` or a line `=`.
        html.push_str("<script type=\"text/x-svg\" id=\"boards\">");
        html.push_str(&self.boards.join("\n=\n"));
        html.push_str("</script>\n<script>\n");
        html.push_str(SCRIPT);
        html.push_str("</script>\n</body>\n</html>\n");
        // Atomically, as every output; a FIFO or /dev/stdout written into.
        super::output::write_file(path, html.as_bytes())
            .with_context(|| format!("cannot write the report to {}", path.display()))
    }

    fn head(&self, h: &mut String, sum: &Summary) {
        h.push_str("<!DOCTYPE html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\">\n");
        h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        h.push_str("<title>kifu check report</title>\n<style>\n");
        h.push_str(STYLE);
        h.push_str("</style>\n</head>\n<body>\n<header id=\"summary\">\n<h1>kifu check</h1>\n");
        let _ = writeln!(
            h,
            "<p class=\"totals\">{} files, {} games, {} plies: {} legal, {} with fouls; {} unreadable inputs; {} diagnostics.</p>",
            sum.files, sum.games, sum.plies, sum.legal, sum.fouls, sum.unreadable, sum.warnings
        );
        h.push_str("<table class=\"rules\"><tr><th>fouls by rule</th><th>games</th></tr>\n");
        for (rule, n) in &sum.fouls_by_rule {
            let _ = writeln!(h, "<tr><td>{}</td><td>{n}</td></tr>", escape(rule));
        }
        h.push_str("</table>\n");
        self.worst_files(h);
        h.push_str("<nav id=\"filter\">Show: <a href=\"#\" data-rule=\"\">all (");
        let _ = write!(h, "{})</a>", self.cards.len());
        for (rule, n) in &self.by_rule {
            let r = escape(rule);
            let _ = write!(h, " <a href=\"#rule={r}\" data-rule=\"{r}\">{r} ({n})</a>");
        }
        h.push_str("\n<span id=\"shown\"></span></nav>\n</header>\n");
    }

    fn worst_files(&self, h: &mut String) {
        let mut worst: Vec<&(String, usize)> = self.files.iter().collect();
        // Stable: files with as many cards stay in input order.
        worst.sort_by_key(|f| std::cmp::Reverse(f.1));
        if worst.is_empty() {
            return;
        }
        h.push_str("<details open><summary>Worst files (most fouls and findings)</summary><ol class=\"worst\">\n");
        for (name, n) in worst.into_iter().take(10) {
            let _ = writeln!(h, "<li><code>{}</code>: {n}</li>", escape(name));
        }
        h.push_str("</ol></details>\n");
    }
}

/// The report's share of a replayed game: a card per foul and per diagnostic,
/// main line first, then each variation.
pub fn game_part(name: &str, game: &Game, t: &Thresholds) -> Part {
    let mut part = Part::default();
    if let Some((graph, cards)) = eval::game_analysis(name, game, t) {
        part.graphs.push(graph);
        part.cards.extend(cards);
    }
    let lines = std::iter::once((None, &game.main)).chain(
        game.variations
            .iter()
            .enumerate()
            .map(|(i, v)| (Some(i), &v.line)),
    );
    for (id, line) in lines {
        if let Verdict::Foul(_) = &line.verdict {
            part.cards.push(foul_card(name, game, id, line));
        }
        for d in &line.diagnostics {
            part.cards.push(finding_card(name, game, id, line, d));
        }
    }
    part
}

/// A variant record's findings, which the report lists without cards.
pub fn not_drawn(name: &str, fouls: usize, diagnostics: usize) -> Part {
    Part {
        not_drawn: vec![format!(
            "<li><code>{}</code>: {fouls} foul(s), {diagnostics} other finding(s)</li>\n",
            escape(name)
        )],
        ..Part::default()
    }
}

/// The report's line for an input or game that could not be read.
pub fn unreadable(name: &str, e: &Error, index: Option<usize>) -> Part {
    let pos = e
        .position()
        .map_or(String::new(), |p| format!(":{}:{}", p.line, p.column));
    let game = index.map_or(String::new(), |i| format!(" (game {})", i + 1));
    // The message of a parse error starts with the file and position the
    // line already shows.
    let msg = e.to_string();
    let msg = msg
        .strip_prefix(&format!("{name}{pos}: "))
        .or_else(|| msg.strip_prefix(&format!("{name}: ")))
        .unwrap_or(&msg);
    Part {
        cards: Vec::new(),
        graphs: Vec::new(),
        not_drawn: Vec::new(),
        unreadable: vec![format!(
            "<li><code>{}{pos}</code>{game}: {}</li>\n",
            escape(name),
            escape(msg)
        )],
    }
}

fn foul_card(name: &str, game: &Game, id: Option<usize>, line: &LineResult) -> Card {
    let Verdict::Foul(f) = &line.verdict else {
        unreachable!("called for fouls only")
    };
    let d = diagram::before_foul(game, id)
        .unwrap_or_else(|| diagram::after_plies(game, id, line.plies.len()));
    let mv = match (&d.mark_text, f.mv) {
        (Some(text), Some(m)) if d.mark_kind == MarkKind::Next => {
            format!("{text} ({})", m.to_usi())
        }
        (_, Some(m)) => m.to_usi(),
        _ => "declaration".to_string(),
    };
    let detail = format!("{}; {} loses by foul", f.detail, f.loser.name());
    let facts = CardFacts {
        rule: f.rule.code(),
        kind: "foul",
        title: f.rule.kanji(),
        why: rule_sentence(f.rule),
        at: Some((f.span.line, f.span.column)),
        ply: Some(f.ply),
        mv,
        detail,
    };
    card_html(name, game, id, line, &facts, &d)
}

fn finding_card(
    name: &str,
    game: &Game,
    id: Option<usize>,
    line: &LineResult,
    d: &Diagnostic,
) -> Card {
    // A finding about a move shows the board before it; one about the start
    // shows the start; one about the ending shows the end.
    let index = d
        .ply
        .and_then(|p| p.checked_sub(line.first_ply))
        .map(|i| i as usize);
    let (board, mv) = match index {
        Some(i) if i < line.plies.len() => {
            let mut b = diagram::after_plies(game, id, i);
            let p = &line.plies[i];
            b.mark = diagram::mark_of(p.mv);
            b.mark_kind = MarkKind::Next;
            let text = kifu::notation::ja_move(p.color, p.mv, p.piece, p.same);
            (b, format!("{text} ({})", p.mv.to_usi()))
        }
        None if d.code == DiagnosticCode::IrregularStart => {
            (diagram::after_plies(game, id, 0), String::new())
        }
        _ => match diagram::before_foul(game, id) {
            Some(b) => (b, String::new()),
            None => (
                diagram::after_plies(game, id, line.plies.len()),
                String::new(),
            ),
        },
    };
    let facts = CardFacts {
        rule: d.code.code(),
        kind: "finding",
        title: "",
        why: finding_sentence(d.code.code()),
        at: d.span.map(|s| (s.line, s.column)),
        ply: d.ply,
        mv,
        detail: d.message.clone(),
    };
    card_html(name, game, id, line, &facts, &board)
}

/// What a card says, besides its board and its game.
struct CardFacts {
    rule: &'static str,
    /// `foul`, `finding` or `judgement` (a move the evaluations name).
    kind: &'static str,
    /// The Japanese name, for fouls and judgements.
    title: &'static str,
    why: &'static str,
    at: Option<(u32, u32)>,
    ply: Option<u32>,
    mv: String,
    detail: String,
}

fn card_html(
    name: &str,
    game: &Game,
    id: Option<usize>,
    line: &LineResult,
    f: &CardFacts,
    board: &Diagram,
) -> Card {
    let rule = escape(f.rule);
    let mut h = String::with_capacity(6144);
    let _ = writeln!(h, "<article class=\"card\" data-rule=\"{rule}\">");
    let kind = f.kind;
    let _ = writeln!(
        h,
        "<h2><span class=\"tag {kind}\">{rule}</span> {}</h2>",
        escape(f.title)
    );
    let svg_opts = SvgOptions {
        standalone: false,
        labels: side_labels(game),
    };
    let svg = svg::write(board, svg_opts);
    let head = std::mem::replace(&mut h, String::with_capacity(1024));
    h.push_str("<dl>\n");
    let at = f.at.map_or(String::new(), |(l, c)| format!(":{l}:{c}"));
    let _ = writeln!(h, "<dt>file</dt><dd><code>{}{at}</code></dd>", escape(name));
    let _ = writeln!(h, "<dt>game</dt><dd>{}</dd>", escape(&game_line(game)));
    if id.is_some() {
        let _ = writeln!(
            h,
            "<dt>line</dt><dd>variation at ply {}</dd>",
            line.first_ply
        );
    }
    if let Some(p) = f.ply {
        let _ = writeln!(h, "<dt>ply</dt><dd>{p} {}</dd>", escape(&f.mv));
    }
    let _ = writeln!(h, "<dt>rule</dt><dd>{}</dd>", escape(f.why));
    let _ = writeln!(h, "<dt>detail</dt><dd>{}</dd>", escape(&f.detail));
    h.push_str("</dl>\n</article>\n");
    Card {
        rule: f.rule,
        head,
        svg,
        tail: h,
    }
}

/// `先手 A – 後手 B · 2024/01/02 · game 3`, from whatever the header holds.
fn game_line(game: &Game) -> String {
    let r = &game.record;
    let [down, up] = side_labels(game);
    let sente = r.header_get(&[HeaderKey::Sente]).unwrap_or("?");
    let gote = r.header_get(&[HeaderKey::Gote]).unwrap_or("?");
    let mut s = format!("{down} {} – {up} {}", sente.trim(), gote.trim());
    let dates = [HeaderKey::StartTime, HeaderKey::Date, HeaderKey::EndTime];
    if let Some(date) = r.header_get(&dates) {
        s.push_str(" · ");
        s.push_str(date.trim());
    }
    if r.index > 0 {
        let _ = write!(s, " · game {}", r.index + 1);
    }
    s
}

/// One sentence for each rule, as docs/cli.md explains the codes.
fn rule_sentence(r: Rule) -> &'static str {
    match r {
        Rule::NoPiece => {
            "The move starts on an empty square, moves an opponent's piece, or names another piece than the one on its origin."
        }
        Rule::BadMovement => {
            "The piece cannot move that way: wrong direction or distance, a blocked path, or a capture of its own piece."
        }
        Rule::NotInHand => "The move drops a piece its side does not hold.",
        Rule::OccupiedDrop => "The move drops a piece onto an occupied square.",
        Rule::BadPromotion => {
            "The move promotes outside the zone, or promotes a piece that cannot promote."
        }
        Rule::DeadPiece => {
            "The move leaves a pawn or lance on the last rank, or a knight on the last two, where it can never move again."
        }
        Rule::Nifu => {
            "A pawn is dropped on a file where its side already has an unpromoted pawn (二歩)."
        }
        Rule::Uchifuzume => "A dropped pawn gives checkmate (打ち歩詰め).",
        Rule::SelfCheck => "The move leaves or puts its own king in check (王手放置).",
        Rule::WrongTurn => "The move is played by the side that is not to move (二手指し).",
        Rule::PerpetualCheck => {
            "The move makes a position occur for the fourth time, and one side has given check with every one of its moves since the first occurrence: that side loses (the move may be the other side's)."
        }
        Rule::FalseDeclaration => "The entering-king declaration does not meet the rule.",
        _ => "The move breaks a rule of shogi.",
    }
}

/// One sentence for each diagnostic code of `check`.
fn finding_sentence(code: &str) -> &'static str {
    match code {
        "moves-after-foul" => {
            "The record goes on after a foul; those moves are kept but not replayed."
        }
        "moves-after-end" => "The record goes on after the fourth repetition ended the game.",
        "moves-after-checkmate" => {
            "The record goes on after a checkmate; the next move is judged, and is a foul."
        }
        "moves-not-replayed" => "Moves after a point where the replay had to stop.",
        "ambiguous-move" => {
            "A KI2 move fits several pieces even with its modifiers; the replay stops there."
        }
        "bad-notation" => "同 is written with no previous move.",
        "false-mate-claim" => "The record claims checkmate, but the side to move is not mated.",
        "false-sennichite-claim" => {
            "The record claims sennichite, but no position occurred four times."
        }
        "false-max-moves-claim" => {
            "The record ends by the move limit, but its main line is not as long as the limit it names."
        }
        "unverified-foul-claim" => "The record says a side lost by a foul its moves do not show.",
        "ending-disagrees" => {
            "The recorded ending contradicts a foul or repetition found on the board."
        }
        "closing-count-disagrees" => {
            "The closing まで line counts a different number of moves than the main line holds."
        }
        "closing-winner-disagrees" => {
            "The closing まで line names another winner than the replay finds."
        }
        "irregular-start" => {
            "The start position breaks a rule of the game; it is replayed as written."
        }
        _ => "A finding of the replay.",
    }
}

/// Text for HTML content and attribute values.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = r#"body{font-family:system-ui,'Noto Sans CJK JP',sans-serif;margin:0 1.5em 2em;color:#111;background:#fafafa}
header#summary{position:sticky;top:0;background:#fafafa;padding:.5em 0;border-bottom:1px solid #ccc;z-index:1}
h1{font-size:1.3em;margin:.2em 0}
table.rules{border-collapse:collapse;font-size:.9em;margin:.3em 0}
table.rules td,table.rules th{border:1px solid #ccc;padding:.1em .6em;text-align:left}
ol.worst{margin:.2em 0;font-size:.9em}
nav#filter a{margin-right:.5em;padding:.1em .4em;border:1px solid #999;border-radius:4px;text-decoration:none;color:#124}
nav#filter a.on{background:#124;color:#fff}
#shown{margin-left:1em;color:#555}
main#cards{display:flex;flex-wrap:wrap;gap:1em;margin-top:1em}
.card{content-visibility:auto;contain-intrinsic-size:auto 420px auto 660px;width:420px;background:#fff;border:1px solid #ccc;border-radius:6px;padding:.6em}
.card[hidden]{display:none}
.card h2{font-size:1em;margin:0 0 .4em}
.tag{padding:.05em .4em;border-radius:3px;color:#fff;background:#a00}
.tag.finding{background:#a60}.tag.judgement{background:#6a3d9a}
.analysis h2{font-size:1em;margin:.8em 0 .2em}.analysis p{margin:0 0 .3em}
svg.graph{background:#fff;border:1px solid #ccc}svg.graph polyline{fill:none;stroke:#2b5797;stroke-width:1.5}
svg.graph .mid{stroke:#bbb;stroke-dasharray:4 3}svg.graph .dubious{fill:#e8b400}svg.graph .mistake{fill:#e06000}svg.graph .blunder{fill:#c00}
.card dl{display:grid;grid-template-columns:4em 1fr;gap:.1em .5em;margin:.4em 0 0;font-size:.9em}
.card dt{color:#555}
.card dd{margin:0;overflow-wrap:anywhere}
.board{aspect-ratio:402/510}
.board svg{display:block;width:100%;height:auto}
"#;

const SCRIPT: &str = r#"(function () {
  var cards = document.querySelectorAll('article.card');
  var links = document.querySelectorAll('nav#filter a');
  function params() {
    var p = {};
    location.hash.slice(1).split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) p[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
    });
    return p;
  }
  var boards = document.getElementById('boards').textContent.split('\n=\n');
  var drawn = 0;
  function draw(c) {
    if (c.getAttribute('data-drawn')) return;
    var board = c.querySelector('div.board');
    if (!board) return;
    board.innerHTML = boards[+board.getAttribute('data-i')] || '';
    c.setAttribute('data-drawn', '1');
    drawn++;
    document.body.setAttribute('data-drawn', String(drawn));
  }
  var near = null;
  if ('IntersectionObserver' in window) {
    near = new IntersectionObserver(function (seen) {
      seen.forEach(function (e) {
        if (e.isIntersecting) { draw(e.target); near.unobserve(e.target); }
      });
    }, { rootMargin: '1000px 0px' });
  }
  for (var k = 0; k < cards.length; k++) {
    if (near) near.observe(cards[k]); else draw(cards[k]);
  }
  function apply() {
    var p = params(), rule = p.rule || '', shown = 0, laid = 0, i, c, s;
    for (i = 0; i < cards.length; i++) {
      c = cards[i];
      c.hidden = rule !== '' && c.getAttribute('data-rule') !== rule;
      if (!c.hidden) shown++;
    }
    for (i = 0; i < links.length; i++) {
      links[i].className = links[i].getAttribute('data-rule') === rule ? 'on' : '';
    }
    // The first screens are drawn now rather than on the observer's first
    // callback, which a busy or headless browser may deliver late.
    var limit = 2 * (window.innerHeight || 1000);
    for (i = 0; i < cards.length; i++) {
      c = cards[i];
      if (c.hidden) continue;
      if (c.getBoundingClientRect().top > limit) break;
      draw(c);
    }
    if (p.draw === 'all') {
      for (i = 0; i < cards.length; i++) {
        c = cards[i];
        if (c.hidden) continue;
        draw(c);
        c.style.contentVisibility = 'visible';
        s = c.querySelector('div.board svg');
        if (s && s.getBoundingClientRect().width > 0 && s.querySelectorAll('text.piece').length > 0) laid++;
      }
      document.body.setAttribute('data-laid-out', String(laid));
    }
    document.body.setAttribute('data-drawn', String(drawn));
    document.body.setAttribute('data-shown', String(shown));
    document.getElementById('shown').textContent = shown + ' of ' + cards.length + ' cards shown';
  }
  window.addEventListener('hashchange', apply);
  apply();
})();
"#;
