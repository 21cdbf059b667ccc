//! `kifu stats --by KEY --report FILE.html`: the table of `stats --by` as
//! one self-contained HTML page, each row with a bar of its win rate (the
//! wins, losses and other results side by side, to scale) and, where the
//! records carry evaluations, its average loss.

use super::escape;
use crate::StatsBy;
use crate::cmd::stats_by::Row;
use anyhow::Context;
use std::fmt::Write as _;
use std::path::Path;

/// The width in pixels of a full bar.
const BAR: f64 = 240.0;

/// Write the page to `path`, atomically as every output.
pub(in crate::cmd) fn write(
    path: &Path,
    rows: &[(&String, &Row)],
    by: StatsBy,
) -> anyhow::Result<()> {
    let html = page(rows, by);
    crate::cmd::output::write_file(path, html.as_bytes())
        .with_context(|| format!("cannot write the report to {}", path.display()))
}

fn page(rows: &[(&String, &Row)], by: StatsBy) -> String {
    let judged = rows.iter().any(|(_, r)| r.loss.moves > 0);
    let games: usize = rows.iter().map(|(_, r)| r.games).sum();
    let mut h = String::with_capacity(4096 + rows.len() * 512);
    h.push_str("<!DOCTYPE html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(h, "<title>kifu stats by {}</title>", by.name());
    h.push_str("<style>\n");
    h.push_str(STYLE);
    h.push_str("</style>\n</head>\n<body>\n");
    let _ = writeln!(h, "<h1>kifu stats by {}</h1>", by.name());
    let whose = if by.per_side() {
        "Wins and losses are the side's of each row."
    } else {
        "Wins and losses are sente's (下手's in a handicap game)."
    };
    let _ = writeln!(
        h,
        "<p>{} rows, {games} counts. {whose} The bar shows wins (dark), losses (light) and other results (grey) to scale.</p>",
        rows.len()
    );
    h.push_str("<table id=\"stats\">\n<thead><tr>");
    let mut heads = vec![by.name()];
    heads.extend(crate::cmd::stats_by::COUNTS);
    heads.extend(["", "avg plies"]);
    if judged {
        heads.extend(["avg loss", "疑問手", "悪手", "大悪手"]);
    }
    for c in heads {
        let _ = write!(h, "<th>{}</th>", escape(c));
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for (k, r) in rows {
        row(&mut h, k, r, judged);
    }
    h.push_str("</tbody>\n</table>\n</body>\n</html>\n");
    h
}

fn row(h: &mut String, key: &str, r: &Row, judged: bool) {
    let rate = r.win_rate();
    let _ = write!(
        h,
        "<tr data-key=\"{k}\"><td class=\"key\">{k}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td>",
        r.games,
        r.wins,
        r.losses,
        r.other,
        rate.map_or("-".to_string(), |w| format!("{w:.1}")),
        bar(r),
        r.average_plies,
        k = escape(key),
    );
    if judged {
        for cell in r.loss_cells() {
            let _ = write!(h, "<td>{cell}</td>");
        }
    }
    h.push_str("</tr>\n");
}

/// An inline SVG bar: wins, losses and other results of the row's games.
fn bar(r: &Row) -> String {
    let total = r.games.max(1) as f64;
    let mut x = 0.0;
    let mut s = format!(
        "<svg class=\"bar\" width=\"{BAR}\" height=\"14\" viewBox=\"0 0 {BAR} 14\" role=\"img\"><title>{} wins, {} losses, {} other</title>",
        r.wins, r.losses, r.other
    );
    for (n, class) in [(r.wins, "w"), (r.losses, "l"), (r.other, "o")] {
        let w = BAR * n as f64 / total;
        if n > 0 {
            let _ = write!(
                s,
                "<rect class=\"{class}\" x=\"{x:.1}\" y=\"0\" width=\"{w:.1}\" height=\"14\"/>"
            );
        }
        x += w;
    }
    s.push_str("</svg>");
    s
}

const STYLE: &str = "body{font-family:system-ui,'Noto Sans CJK JP',sans-serif;margin:1em 1.5em;color:#111;background:#fafafa}
table{border-collapse:collapse}th,td{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}
td.key,th:first-child{text-align:left}
.bar .w{fill:#2b5797}.bar .l{fill:#9ab8e0}.bar .o{fill:#bbb}
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_is_split_by_result_to_scale() {
        let r = Row {
            games: 4,
            wins: 3,
            losses: 1,
            ..Row::default()
        };
        let s = bar(&r);
        assert!(
            s.contains("class=\"w\" x=\"0.0\" y=\"0\" width=\"180.0\""),
            "{s}"
        );
        assert!(
            s.contains("class=\"l\" x=\"180.0\" y=\"0\" width=\"60.0\""),
            "{s}"
        );
        assert!(!s.contains("class=\"o\""), "{s}");
    }
}
