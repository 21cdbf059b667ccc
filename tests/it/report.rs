//! `kifu check --report FILE.html`: one card per foul and finding that
//! `check --json` reports, every unreadable input listed, nothing fetched
//! from elsewhere; and, in headless Chromium, every card's board drawn and
//! the rule filter hiding the other cards.
//!
//! The browser test needs Debian's `chromium` (or `KIFU_CHROMIUM=path`).
//! Without one it prints SKIPPED and passes, unless `KIFU_REQUIRE_BROWSER=1`
//! (set by `.ci/run`, which installs it).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("kifu runs")
}

/// Games with known fouls and findings, one of each kind the report draws:
/// a drop (nifu), a move (bad-movement), a self-check (the king ringed), a
/// false mate claim, an irregular start, and an unreadable file.
fn fouls_dir(dir: &Path, copies: usize) {
    let games = [
        (
            "nifu.usi",
            "position startpos moves 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d 4a3b P*7f\n",
        ),
        ("move.usi", "position startpos moves 7g7f 3c3d 7f7d\n"),
        (
            "self.usi",
            "position startpos moves 5g5f 5c5d 5f5e 5d5e 5i5h 5e5f 5h5g\n",
        ),
        (
            "claim.kifu",
            "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 詰み\n",
        ),
        (
            "start.usi",
            "position sfen 4k3P/9/9/9/9/9/9/9/4K4 b - 1 moves 5i4h\n",
        ),
    ];
    for i in 0..copies {
        let sub = dir.join(format!("d{i:04}"));
        std::fs::create_dir_all(&sub).unwrap();
        for (name, text) in games {
            std::fs::write(sub.join(name), text).unwrap();
        }
    }
    std::fs::write(dir.join("broken.csa"), "V2.2\nPI\n+\n+7776FU\n+9999ZZ\n").unwrap();
}

/// Findings per `check --json`: fouls (main line and variations) and
/// diagnostics; and the inputs that could not be read.
fn json_counts(paths: &[&str]) -> (usize, usize) {
    let mut args = vec!["check", "--json"];
    args.extend_from_slice(paths);
    let o = kifu(&args);
    let mut findings = 0;
    let mut errors = 0;
    for line in String::from_utf8(o.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v.get("error").is_some() {
            errors += 1;
            continue;
        }
        let verdicts = std::iter::once(&v).chain(v["variations"].as_array().into_iter().flatten());
        for l in verdicts {
            findings += usize::from(l["verdict"]["legal"] == false);
            findings += l["diagnostics"].as_array().map_or(0, Vec::len);
        }
    }
    (findings, errors)
}

fn report(paths: &[&str], out: &Path) -> String {
    let mut args = vec!["check", "-q", "--report"];
    let out_s = out.display().to_string();
    args.push(&out_s);
    args.extend_from_slice(paths);
    let o = kifu(&args);
    assert!(
        o.status.code().is_some_and(|c| c <= 2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read_to_string(out).expect("the report was written")
}

/// The findings the report lists without cards: the sum of the counts in
/// its "Findings without a card" section.
fn not_drawn_findings(html: &str) -> usize {
    let Some(start) = html.find("<section id=\"not-drawn\">") else {
        return 0;
    };
    let section = &html[start..start + html[start..].find("</section>").unwrap()];
    section
        .split("<li>")
        .skip(1)
        .map(|li| {
            let (_, counts) = li.split_once("</code>: ").unwrap();
            let n = |s: &str| {
                s.split_whitespace()
                    .next()
                    .unwrap()
                    .parse::<usize>()
                    .unwrap()
            };
            let (fouls, rest) = counts.split_once(", ").unwrap();
            n(fouls) + n(rest)
        })
        .sum()
}

fn cards(html: &str) -> usize {
    html.matches("<article class=\"card\" ").count()
}

#[test]
fn report_holds_one_card_per_finding_that_check_json_reports() {
    let dir = tempfile::tempdir().unwrap();
    fouls_dir(dir.path(), 2);
    let d = dir.path().display().to_string();
    let out = dir.path().join("r.html");
    let html = report(&["fixtures", &d], &out);
    let (findings, errors) = json_counts(&["fixtures", &d]);
    let (variant_findings, _) = json_counts(&["fixtures/variants"]);
    // Two copies of five games with at least one finding each, plus the fixtures'.
    assert!(findings >= 10 + variant_findings, "{findings}");
    // Every finding is a card, except the variant records', which are
    // listed with their counts (their boards are not drawn yet).
    assert_eq!(cards(&html), findings - variant_findings);
    assert_eq!(not_drawn_findings(&html), variant_findings);
    // broken.csa, and the two KIF/KI2 fixtures cut short by a garbled line.
    assert_eq!(errors, 3);
    let unreadable = html
        .split("<section id=\"unreadable\">")
        .nth(1)
        .and_then(|rest| rest.split("</section>").next())
        .expect("an unreadable section");
    assert_eq!(unreadable.matches("<li>").count(), errors);
    assert!(unreadable.contains("broken.csa:5:"), "{unreadable}");
    // Each card has its board, to be drawn by the page's script.
    assert_eq!(
        html.matches("<div class=\"board\" data-i=").count(),
        findings - variant_findings
    );
    let boards = html
        .split("<script type=\"text/x-svg\" id=\"boards\">")
        .nth(1)
        .and_then(|b| b.split("</script>").next())
        .expect("the boards");
    let svgs = boards
        .split("\n=\n")
        .filter(|b| b.starts_with("<svg"))
        .count();
    assert_eq!(svgs, findings - variant_findings);
    // The summary counts what `check` prints: 2 × 5 foul-or-finding games + fixtures.
    assert!(
        html.contains(&format!("{errors} unreadable inputs")),
        "no unreadable count"
    );
}

#[test]
fn report_card_names_file_position_players_move_and_rule() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.html");
    let html = report(
        &["fixtures/usi/nifu.usi", "fixtures/kif/uwate-shitate.kifu"],
        &out,
    );
    let card = html
        .split("<article class=\"card\" data-rule=\"nifu\">")
        .nth(1)
        .and_then(|c| c.split("</article>").next())
        .expect("a nifu card");
    assert!(card.contains("fixtures/usi/nifu.usi:3:65"), "{card}");
    assert!(card.contains("9 ▲７六歩打 (P*7f)"), "{card}");
    assert!(
        card.contains("already has an unpromoted pawn (二歩)"),
        "{card}"
    );
    // Its board (held apart, drawn by the page's script) marks the drop.
    let i: usize = card
        .split("data-i=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .and_then(|n| n.parse().ok())
        .expect("a board index");
    let board = html
        .split("<script type=\"text/x-svg\" id=\"boards\">")
        .nth(1)
        .and_then(|b| b.split("</script>").next())
        .and_then(|b| b.split("\n=\n").nth(i))
        .expect("the card's board");
    assert!(
        board.contains("class=\"drop\""),
        "the dropped square is marked"
    );
    // The finding about the handicap start names its players.
    let start = html
        .split("<article class=\"card\" data-rule=\"irregular-start\">")
        .nth(1)
        .expect("an irregular-start card");
    assert!(start.contains("下手 shitate – 上手 uwate"), "{start}");
    // A filter link per rule, with its count.
    assert!(html.contains("<a href=\"#rule=nifu\" data-rule=\"nifu\">nifu (1)</a>"));
}

#[test]
fn report_is_self_contained_and_escapes_names() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("<b>&x.usi");
    std::fs::write(&f, "position startpos moves 7g7f 3c3d 7f7d\n").unwrap();
    let out = dir.path().join("r.html");
    let html = report(&[&f.display().to_string()], &out);
    assert!(html.contains("&lt;b&gt;&amp;x.usi"), "the name is escaped");
    assert!(!html.contains("<b>&x"), "the raw name is not in the page");
    for banned in ["<link", " src=", "href=\"http", "url(", "@import", "<img"] {
        assert!(!html.contains(banned), "{banned} in the report");
    }
    // One script runs (inline); the other holds the boards as text.
    assert_eq!(html.matches("<script>").count(), 1);
    assert_eq!(html.matches("<script").count(), 2);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&out).unwrap().permissions().mode();
        assert_ne!(
            mode & 0o044,
            0,
            "the report is readable by others: {mode:o}"
        );
    }
}

/// Chromium, or `None` after saying why (a failure under `KIFU_REQUIRE_BROWSER=1`).
fn chromium() -> Option<PathBuf> {
    let named = std::env::var_os("KIFU_CHROMIUM").map(PathBuf::from);
    let found = named.or_else(|| {
        std::env::var_os("PATH").and_then(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join("chromium"))
                .find(|c| c.is_file())
        })
    });
    if found.is_none() {
        assert!(
            std::env::var_os("KIFU_REQUIRE_BROWSER").is_none_or(|v| v != "1"),
            "KIFU_REQUIRE_BROWSER=1 but no chromium on PATH (apt-get install chromium)"
        );
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: browser test: no chromium on PATH"
        );
    }
    found
}

/// The DOM after load of `page#fragment` in headless Chromium.
fn dump_dom(chromium: &Path, page: &Path, fragment: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let url = format!("file://{}#{fragment}", page.display());
    let o = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=10000",
            "--window-size=1280,1000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(&url)
        .stdin(Stdio::null())
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        dom.contains("</html>"),
        "no DOM from chromium: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    dom
}

/// Cards whose board element holds an SVG.
fn boards_in_dom(dom: &str) -> usize {
    dom.split("<div class=\"board\" data-i=\"")
        .skip(1)
        .filter(|rest| {
            rest.split_once("\">")
                .is_some_and(|(_, b)| b.starts_with("<svg"))
        })
        .count()
}

/// The value of `data-NAME="…"` on `<body>`.
fn body_data(dom: &str, name: &str) -> Option<usize> {
    let body = dom.split("<body").nth(1)?.split('>').next()?;
    let key = format!("data-{name}=\"");
    body.split(&key).nth(1)?.split('"').next()?.parse().ok()
}

#[test]
fn browser_draws_every_board_and_filtering_by_rule_hides_the_other_cards() {
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    fouls_dir(dir.path(), 40);
    let d = dir.path().display().to_string();
    for (name, paths) in [
        ("fixtures.html", vec!["fixtures"]),
        ("many.html", vec!["fixtures", &d]),
    ] {
        let page = dir.path().join(name);
        let html = report(&paths, &page);
        let total = cards(&html);
        let nifu = html
            .matches("<article class=\"card\" data-rule=\"nifu\"")
            .count();
        assert!(nifu > 0 && nifu < total, "{name}: {nifu} of {total}");
        // Loaded as a reader opens it: the boards near the screen are
        // drawn, those far below are not yet.
        let plain = dump_dom(&chromium, &page, "");
        let near = body_data(&plain, "drawn").expect("boards drawn on load");
        assert!(near > 0, "{name}: no board drawn on load");
        assert_eq!(boards_in_dom(&plain), near);
        if total > 50 {
            assert!(near < total, "{name}: {near} of {total} drawn on load");
        }
        // Every card drawn now: each board laid out with its pieces.
        let all = dump_dom(&chromium, &page, "draw=all");
        assert_eq!(body_data(&all, "shown"), Some(total), "{name}");
        assert_eq!(body_data(&all, "drawn"), Some(total), "{name}");
        assert_eq!(body_data(&all, "laid-out"), Some(total), "{name}");
        assert_eq!(cards(&all), total, "{name}: cards lost in the DOM");
        assert_eq!(boards_in_dom(&all), total);
        // Filtered: only the nifu cards are shown, and each is drawn.
        let filtered = dump_dom(&chromium, &page, "rule=nifu&draw=all");
        assert_eq!(body_data(&filtered, "shown"), Some(nifu), "{name}");
        assert_eq!(body_data(&filtered, "laid-out"), Some(nifu), "{name}");
        assert_eq!(cards(&filtered), total, "{name}: hidden, not removed");
        let hidden = filtered
            .split("<article class=\"card\" ")
            .skip(1)
            .filter(|c| {
                c.split('>')
                    .next()
                    .is_some_and(|tag| tag.contains("hidden"))
            })
            .count();
        assert_eq!(hidden, total - nifu, "{name}: the other cards are hidden");
        assert!(
            filtered.contains(&format!("{nifu} of {total} cards shown")),
            "{name}: the page says what is shown"
        );
    }
}

/// The card of a perpetual check names the move that completed it with its
/// own side (gote's △１一玉, not `▲同　玉`) and draws the board before it.
#[test]
fn report_card_of_a_perpetual_check_shows_the_move_and_the_board_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.html");
    let html = report(&["fixtures/kif/perpetual-check.kifu"], &out);
    let card = html
        .split("<article class=\"card\" data-rule=\"perpetual-check\">")
        .nth(1)
        .and_then(|c| c.split("</article>").next())
        .expect("a perpetual-check card");
    assert!(card.contains("<dd>12 △１一玉 (1b1a)</dd>"), "{card}");
    assert!(!card.contains("同"), "{card}");
    assert!(
        card.contains("one side has given check with every one of its moves"),
        "{card}"
    );
    let board = html
        .split("<script type=\"text/x-svg\" id=\"boards\">")
        .nth(1)
        .and_then(|b| b.split("</script>").next())
        .expect("the card's board");
    // Before gote's move: gote to move, the move drawn as an arrow.
    assert!(board.contains("△後手・手番"), "{board}");
    assert_eq!(board.matches("class=\"arrow\"").count(), 1, "{board}");
}
