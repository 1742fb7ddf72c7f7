//! The HTML replay viewer in a real headless browser (issue 10, item 2): a game is played and
//! logged, `tegula replay --html` writes the page, and Chromium loads it at several turns (the URL
//! hash selects the turn), dumps the DOM after the script ran, and takes a screenshot. The test
//! asserts on what the page shows: the turn line, the one visible board with as many tiles as the
//! turn says, that turn's events, the score table, and a screenshot that is not blank; a harness
//! page drives the arrow keys, Home/End and the slider and records the turn line after each.
//!
//! Needs Chromium (`chromium`, `chromium-browser`, `google-chrome`, or the path in
//! `TEGULA_CHROMIUM`). Without one the test is skipped with a message, unless
//! `TEGULA_BROWSER_TEST=required` (set by `.ci/run`, which installs Chromium), when it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{assert_exit, play_and_replay, tegula};

fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TEGULA_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Run headless Chromium on `url` with `extra` arguments; returns stdout.
fn chromium(browser: &Path, profile: &Path, url: &str, extra: &[&str]) -> String {
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--hide-scrollbars",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The element text that follows `marker` up to the next `<`.
fn text_after<'a>(dom: &'a str, marker: &str) -> &'a str {
    let i = dom
        .find(marker)
        .unwrap_or_else(|| panic!("`{marker}` not in the page"));
    let rest = &dom[i + marker.len()..];
    &rest[..rest.find('<').unwrap_or(rest.len())]
}

/// The visible element (no `hidden` attribute left by the script) among those opened with
/// `open_prefix` (`<g class="turn" data-k="`): its index and its markup up to `close`.
fn visible<'a>(dom: &'a str, open_prefix: &str, close: &str) -> (usize, &'a str) {
    let mut shown = Vec::new();
    let mut from = 0;
    while let Some(i) = dom[from..].find(open_prefix) {
        let start = from + i;
        let tag_end = start + dom[start..].find('>').expect("tag end");
        let tag = &dom[start..tag_end];
        if !tag.contains("hidden") {
            let k: usize = tag[open_prefix.len()..]
                .split('"')
                .next()
                .and_then(|s| s.parse().ok())
                .expect("data-k");
            let end = tag_end + dom[tag_end..].find(close).expect("close tag");
            shown.push((k, &dom[tag_end..end]));
        }
        from = tag_end;
    }
    assert_eq!(shown.len(), 1, "exactly one `{open_prefix}` must be shown");
    shown[0]
}

/// Decode an 8-bit RGB or RGBA PNG into its pixels (RGB triples).
fn png_pixels(bytes: &[u8]) -> (u32, u32, Vec<[u8; 3]>) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let (mut w, mut h, mut channels) = (0u32, 0u32, 0usize);
    let mut idat = Vec::new();
    let mut i = 8;
    while i + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap()) as usize;
        let kind = &bytes[i + 4..i + 8];
        let data = &bytes[i + 8..i + 8 + len];
        match kind {
            b"IHDR" => {
                w = u32::from_be_bytes(data[0..4].try_into().unwrap());
                h = u32::from_be_bytes(data[4..8].try_into().unwrap());
                assert_eq!(data[8], 8, "8-bit PNG expected");
                channels = match data[9] {
                    2 => 3,
                    6 => 4,
                    t => panic!("PNG colour type {t} not handled"),
                };
                assert_eq!(data[12], 0, "interlaced PNG not handled");
            }
            b"IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        i += 12 + len;
    }
    let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&idat).expect("inflate");
    let stride = w as usize * channels;
    let mut prev = vec![0u8; stride];
    let mut pixels = Vec::with_capacity((w * h) as usize);
    for row in raw.chunks(stride + 1).take(h as usize) {
        let (filter, line) = (row[0], &row[1..]);
        let mut cur = vec![0u8; stride];
        for x in 0..stride {
            let a = if x >= channels { cur[x - channels] } else { 0 };
            let b = prev[x];
            let c = if x >= channels { prev[x - channels] } else { 0 };
            let pred = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => {
                    let p = i16::from(a) + i16::from(b) - i16::from(c);
                    let (pa, pb, pc) = (
                        (p - i16::from(a)).abs(),
                        (p - i16::from(b)).abs(),
                        (p - i16::from(c)).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => panic!("PNG filter {f}"),
            };
            cur[x] = line[x].wrapping_add(pred);
        }
        for px in cur.chunks(channels) {
            pixels.push([px[0], px[1], px[2]]);
        }
        prev = cur;
    }
    (w, h, pixels)
}

/// Chromium, or `None` (the test is then skipped) unless `TEGULA_BROWSER_TEST=required`.
fn chromium_or_skip() -> Option<PathBuf> {
    let found = find_chromium();
    if found.is_none() {
        let required = std::env::var("TEGULA_BROWSER_TEST").is_ok_and(|v| v == "required");
        assert!(
            !required,
            "TEGULA_BROWSER_TEST=required but no Chromium found (install the `chromium` package)"
        );
        eprintln!(
            "SKIPPED: no Chromium found (install the `chromium` package, or set TEGULA_CHROMIUM); \
             .ci/run installs it and requires this test"
        );
    }
    found
}

#[test]
fn replay_viewer_steps_through_a_game_in_a_real_browser() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("tegula-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("game.jsonl");
    let html = dir.join("replay.html");
    let page = play_and_replay(
        &["--variant", "variants/base.toml", "--seed", "7"],
        &log,
        &html,
    );
    // Self-contained: no external resources.
    for bad in ["<link", "src=\"http", "href=\"http", "@import"] {
        assert!(
            !page.contains(bad),
            "the page loads something external: {bad}"
        );
    }
    let last_turn: usize = {
        let text = std::fs::read_to_string(&log).unwrap();
        text.lines()
            .filter(|l| l.contains("\"type\":\"place\""))
            .count()
    };
    let profile = dir.join("profile");
    let url = |turn: &str| format!("file://{}#turn={turn}", html.display());
    for turn in [0usize, 1, 12, 40, last_turn] {
        let dom = chromium(&browser, &profile, &url(&turn.to_string()), &["--dump-dom"]);
        let status = text_after(&dom, "id=\"status\">");
        assert!(
            status.starts_with(&format!("Turn {turn} of {last_turn}")),
            "turn {turn}: status line is `{status}`"
        );
        let (k, board) = visible(&dom, "<g class=\"turn\" data-k=\"", "</g>\n</g>");
        assert_eq!(k, turn, "the board shown is not turn {turn}'s");
        assert_eq!(
            board.matches("class=\"placed\"").count(),
            turn + 1,
            "turn {turn}: the board shows the start tile and one tile per turn"
        );
        let (_, events) = visible(&dom, "<ol class=\"events\" data-k=\"", "</ol>");
        if turn > 0 {
            assert!(events.contains(" places "), "turn {turn}: events: {events}");
        }
        let (_, scores) = visible(&dom, "<table class=\"scores\" data-k=\"", "</table>");
        assert!(
            scores.contains("seat 0") && scores.contains("seat 1"),
            "{scores}"
        );
        if turn == last_turn {
            assert!(status.contains("final scores"), "{status}");
            assert!(events.contains("game over"), "{events}");
            assert!(
                events.contains("[B-6]"),
                "final scoring cites B-6: {events}"
            );
        }
        assert!(dom.contains("id=\"final-breakdown\""));
    }
    // Keys and slider, as a reader uses them: a harness page loads the viewer in a frame,
    // presses keys and moves the slider, and writes the turn line after each step.
    let harness = dir.join("harness.html");
    std::fs::write(
        &harness,
        r#"<!DOCTYPE html><html><body><pre id="out">waiting</pre>
<iframe id="f" src="replay.html#turn=10" width="1000" height="700"></iframe>
<script>
var f = document.getElementById('f');
f.onload = function () {
  var d = f.contentDocument, w = f.contentWindow, log = [];
  var status = function () { return d.getElementById('status').textContent; };
  var press = function (k) { d.dispatchEvent(new w.KeyboardEvent('keydown', { key: k, bubbles: true })); };
  log.push('start ' + status());
  press('ArrowRight'); log.push('right ' + status());
  press('ArrowLeft'); press('ArrowLeft'); log.push('left left ' + status());
  press('Home'); log.push('home ' + status());
  press('End'); log.push('end ' + status());
  var s = d.getElementById('slider'); s.value = '5'; s.dispatchEvent(new w.Event('input'));
  log.push('slider ' + status());
  // Zoom: + shows the whole board at a pixel scale larger than fit's; fit sizes it to the panel.
  var svg = d.getElementById('board'), fitted = d.getElementById('turn-board').getBoundingClientRect().width;
  d.getElementById('zoom-in').click();
  var zoomed = d.getElementById('turn-board').getBoundingClientRect().width;
  log.push('zoom ' + (zoomed > fitted ? 'larger' : 'not larger') + ' ' + (svg.getAttribute('width') === '100%' ? 'fit' : 'pixels'));
  d.getElementById('zoom-fit').click();
  log.push('fit ' + svg.getAttribute('width') + ' ' + svg.getAttribute('height'));
  document.getElementById('out').textContent = log.join('|');
};
</script></body></html>"#,
    )
    .unwrap();
    let dom = chromium(
        &browser,
        &profile,
        &format!("file://{}", harness.display()),
        &["--allow-file-access-from-files", "--dump-dom"],
    );
    let steps = text_after(&dom, "<pre id=\"out\">");
    let want = format!(
        "start Turn 10 of {last_turn}|right Turn 11 of {last_turn}|left left Turn 9 of \
         {last_turn}|home Turn 0 of {last_turn}|end Turn {last_turn} of {last_turn} (final \
         scores)|slider Turn 5 of {last_turn}|zoom larger pixels|fit 100% 100%"
    );
    assert_eq!(steps, want, "keys and slider step through the turns");
    // A screenshot of turn 40 shows a board: many non-white pixels, field greens among them.
    let shot = dir.join("turn40.png");
    chromium(
        &browser,
        &profile,
        &url("40"),
        &[
            "--window-size=1200,900",
            &format!("--screenshot={}", shot.display()),
        ],
    );
    let (w, h, pixels) = png_pixels(&std::fs::read(&shot).expect("screenshot written"));
    assert!(w >= 1000 && h >= 800, "screenshot {w}x{h}");
    let non_white = pixels.iter().filter(|p| p.iter().any(|&c| c < 235)).count();
    let green = pixels
        .iter()
        .map(|p| p.map(i32::from))
        .filter(|p| p[1] > 150 && p[1] > p[0] + 20 && p[1] > p[2] + 40)
        .count();
    assert!(
        non_white * 20 > pixels.len(),
        "the screenshot is almost blank ({non_white} of {} pixels not white)",
        pixels.len()
    );
    assert!(
        green > 2000,
        "no board visible ({green} field-green pixels)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The replay page `page` with its board deltas replaced by one piece, shown at every position:
/// `markup`, the board of one position drawn whole by `board_body` (not from deltas).
fn with_whole_board(page: &str, markup: &str) -> String {
    let open = "<script id=\"data\" type=\"application/json\">";
    let start = page.find(open).expect("the page's data") + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    let mut data: serde_json::Value = serde_json::from_str(&page[start..end]).unwrap();
    let positions = data["turns"].as_array().unwrap().len();
    data["pieces"] = serde_json::json!([[0, positions, markup]]);
    let json = serde_json::to_string(&data).unwrap().replace("</", "<\\/");
    format!("{}{json}{}", &page[..start], &page[end..])
}

/// Pixels (of two equal-sized pictures) that differ by more than a little in some channel, and
/// the number of pixels.
fn differing_pixels(a: &[[u8; 3]], b: &[[u8; 3]]) -> (usize, usize) {
    assert_eq!(a.len(), b.len(), "pictures of different sizes");
    let differ = a
        .iter()
        .zip(b)
        .filter(|(x, y)| x.iter().zip(y.iter()).any(|(c, d)| c.abs_diff(*d) > 24))
        .count();
    (differ, a.len())
}

/// A harness page that loads `replay.html` in a frame, steps through every turn with the slider
/// and checks what a reader sees at each: one board, one event list, and a score table with the
/// same header at every turn and a cell under every header in every seat's row. Then how much
/// of its panel the board fills at "fit", the least over the turns from a third of the game on
/// (earlier, a few tiles are not drawn larger than 4 cells a side). Writes `ok fill=F` or the
/// first problem into `#out`.
const STEP_HARNESS: &str = r#"<!DOCTYPE html><html><body style="margin:0"><pre id="out">waiting</pre>
<iframe id="f" src="replay.html#turn=0" width="1200" height="900"></iframe>
<script>
var f = document.getElementById('f');
f.onload = function () {
  var d = f.contentDocument, w = f.contentWindow, problems = [], header = null;
  var s = d.getElementById('slider'), last = Number(s.max);
  var shown = function (sel) {
    return Array.prototype.filter.call(d.querySelectorAll(sel), function (e) { return !e.hidden; });
  };
  for (var k = 0; k <= last; k++) {
    s.value = String(k); s.dispatchEvent(new w.Event('input'));
    var tables = shown('table.scores'), lists = shown('ol.events');
    if (tables.length !== 1 || lists.length !== 1) { problems.push(k + ': ' + tables.length + ' tables, ' + lists.length + ' event lists'); continue; }
    var rows = tables[0].querySelectorAll('tr');
    var heads = Array.prototype.map.call(rows[0].querySelectorAll('th'), function (h) { return h.textContent; }).join(',');
    if (header === null) { header = heads; }
    if (heads !== header) { problems.push(k + ': columns ' + heads + ' after ' + header); }
    for (var r = 1; r < rows.length; r++) {
      var cells = rows[r].querySelectorAll('td').length;
      if (cells !== rows[0].querySelectorAll('th').length || cells < 2) { problems.push(k + ': row ' + r + ' has ' + cells + ' cells under ' + heads); }
    }
    if (d.getElementById('turn-board').getAttribute('data-k') !== String(k)) { problems.push(k + ': board not drawn'); }
  }
  // How much of the panel the board fills at fit, at the least from a third of the game on.
  var fill = 1;
  for (var j = Math.floor(last / 3); j <= last; j++) {
    s.value = String(j); s.dispatchEvent(new w.Event('input'));
    var box = d.getElementById('board-box').getBoundingClientRect();
    var drawn = d.getElementById('turn-board').getBoundingClientRect();
    fill = Math.min(fill, Math.max(drawn.width / box.width, drawn.height / box.height));
  }
  document.getElementById('out').textContent = problems.length ? problems.slice(0, 5).join(' | ') : 'ok fill=' + fill.toFixed(2);
};
</script></body></html>"#;

/// Every shipped variant's replay page in a real browser: a seeded two-player game is played,
/// logged and replayed into the viewer; a harness steps through every turn checking the tables
/// (above) and how much of its panel the board fills; and a screenshot of the viewer
/// two thirds into the game is compared with one of the same page whose board is the whole
/// drawing of that turn (`board_body`) instead of the page's deltas. Both pictures come from the
/// same Chromium in the same run, so the comparison is exact on any Chromium version and font
/// set (reference PNGs committed to the repository would depend on both); it shows that what the reader sees after
/// stepping is the board of that turn, figures, marks and highlight included.
#[test]
fn every_shipped_variant_steps_through_and_draws_each_turn_in_a_real_browser() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("tegula-browser-variants-{}", std::process::id()));
    let variants = common::toml_files("variants");
    assert!(variants.len() >= 5, "{variants:?}");
    std::thread::scope(|scope| {
        // Two at a time: the machine may have two cores, and Chromium uses several processes.
        let halves = variants.split_at(variants.len() / 2);
        for part in [halves.0, halves.1] {
            let (browser, dir) = (&browser, &dir);
            scope.spawn(move || {
                for v in part {
                    check_variant_in_browser(browser, dir, v);
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// One variant of [`every_shipped_variant_steps_through_and_draws_each_turn_in_a_real_browser`].
fn check_variant_in_browser(browser: &Path, dir: &Path, variant: &Path) {
    let name = variant.file_stem().unwrap().to_string_lossy().into_owned();
    let dir = dir.join(&name);
    std::fs::create_dir_all(&dir).unwrap();
    let (log, html) = (dir.join("game.jsonl"), dir.join("replay.html"));
    let rel = format!("variants/{name}.toml");
    let play = [
        "play",
        "--variant",
        &rel,
        "--seed",
        "3",
        "--log",
        log.to_str().unwrap(),
    ];
    assert_exit(&tegula(&play), 0);
    let replay = [
        "replay",
        log.to_str().unwrap(),
        "--variant",
        &rel,
        "--html",
        html.to_str().unwrap(),
    ];
    assert_exit(&tegula(&replay), 0);
    let page = std::fs::read_to_string(&html).unwrap();
    let profile = dir.join("profile");
    // Every turn, stepped with the slider.
    std::fs::write(dir.join("harness.html"), STEP_HARNESS).unwrap();
    let dom = chromium(
        browser,
        &profile,
        &format!("file://{}", dir.join("harness.html").display()),
        &[
            "--allow-file-access-from-files",
            "--window-size=1300,1000",
            "--dump-dom",
        ],
    );
    let result = text_after(&dom, "<pre id=\"out\">");
    let fill: f64 = result
        .strip_prefix("ok fill=")
        .unwrap_or_else(|| panic!("{name}: {result}"))
        .parse()
        .unwrap();
    assert!(
        fill > 0.9,
        "{name}: at fit the final board fills {fill} of its panel"
    );
    // A turn as the page draws it and as drawn whole.
    let rules = common::variant_rules(&rel);
    let game = tegula_engine::log::replay(rules, &std::fs::read_to_string(&log).unwrap()).unwrap();
    let (compiled, _) = tegula_model::variant::compile_variant(&common::root().join(&rel));
    let drawings = compiled.unwrap().tiles;
    let views = tegula_render::board::timeline(&game, &drawings, &[]).unwrap();
    let bounds = views.last().unwrap().bounds();
    let pad = tegula_render::html::BOARD_PAD;
    let last = views.len() - 1;
    // Two thirds in: figures have come and gone, features completed, so most kinds of delta.
    {
        let k = last * 2 / 3;
        let v = &views[k];
        let whole = tegula_render::svg::board::board_body(v, bounds, pad, pad);
        let inner = whole
            .strip_prefix(&tegula_render::svg::board::board_open(v.turn))
            .and_then(|b| b.strip_suffix("</g>\n"))
            .expect("a board group");
        let reference = dir.join(format!("reference-{k}.html"));
        std::fs::write(&reference, with_whole_board(&page, inner)).unwrap();
        // One screenshot, the two pages side by side: one Chromium run per turn.
        let pair = dir.join(format!("pair-{k}.html"));
        let frame = |page: &Path| {
            format!(
                r#"<iframe src="{}#turn={}" width="1200" height="900" style="border:0"></iframe>"#,
                page.file_name().unwrap().to_string_lossy(),
                v.turn
            )
        };
        std::fs::write(
            &pair,
            format!(
                r#"<!DOCTYPE html><html><body style="margin:0;display:flex">{}{}</body></html>"#,
                frame(&html),
                frame(&reference)
            ),
        )
        .unwrap();
        let png = dir.join(format!("pair-{k}.png"));
        let url = format!("file://{}", pair.display());
        let shot = format!("--screenshot={}", png.display());
        chromium(browser, &profile, &url, &["--window-size=2400,900", &shot]);
        let (w, h, pixels) = png_pixels(&std::fs::read(&png).expect("screenshot written"));
        assert_eq!((w, h), (2400, 900));
        let half = |right: bool| -> Vec<[u8; 3]> {
            pixels
                .chunks(w as usize)
                .flat_map(|row| if right { &row[1200..] } else { &row[..1200] })
                .copied()
                .collect()
        };
        let (viewer, whole) = (half(false), half(true));
        let (differ, all) = differing_pixels(&viewer, &whole);
        assert!(
            differ * 2000 <= all,
            "{name}, turn {}: {differ} of {all} pixels differ from the whole board's picture \
             (kept in {})",
            v.turn,
            dir.display()
        );
        let green = viewer
            .iter()
            .map(|p| p.map(i32::from))
            .filter(|p| p[1] > 150 && p[1] > p[0] + 20 && p[1] > p[2] + 40)
            .count();
        assert!(green > 2000, "{name}, turn {}: no board visible", v.turn);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
