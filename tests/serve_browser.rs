//! The play page of `tegula serve` in a real headless Chromium, driven through chromedriver
//! (WebDriver, the `fantoccini` client) — issue 32, items 6 and 8:
//! - the autoplay URL ends with `data-phase="over"` and its log is, byte for byte, the log of
//!   `tegula play` with the same variant, seed and agents;
//! - a whole 2-player base game, seat 0 played by clicks on the board against `random`; the
//!   page's log, replayed by `tegula replay`, gives the page's final scores;
//! - one turn of Abbey & Mayor (an own tile placed by clicks) and of the Wonders (a pool take);
//! - author mode: a saved edit shows its diagnostic in the page.
//!
//! Needs `chromedriver` and Chromium (`chromium`, or the paths in `TEGULA_CHROMEDRIVER` and
//! `TEGULA_CHROMIUM`). Without them the test is skipped with a message, unless
//! `TEGULA_BROWSER_TEST=required` (set by `.ci/run`, which installs them), when it fails.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

mod common;
mod serve_support;
use common::tegula;
use serve_support::Server;

/// How long the page may take to settle after a click (agents at full speed, a debug build).
const SETTLE: Duration = Duration::from_secs(60);

fn find_program(var: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(var) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .find(|p| p.is_file())
}

/// chromedriver on a free loopback port, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start(program: &Path) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(program)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn browser(driver: &Driver, chromium: Option<&Path>) -> Client {
    let mut opts = json!({
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1000", "--disable-breakpad", "--disable-crash-reporter"],
    });
    if let Some(p) = chromium {
        opts["binary"] = json!(p.display().to_string());
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), opts);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a Chromium session")
}

/// The root element's `data-*` attributes.
async fn dataset(c: &Client) -> Value {
    c.execute(
        "return Object.assign({}, document.getElementById('app').dataset);",
        vec![],
    )
    .await
    .expect("read the page")
}

/// Wait until the page waits for a person or the game is over; its dataset then.
async fn settle(c: &Client) -> Value {
    wait_for(c, SETTLE, |d| d["busy"] == "0").await
}

/// Click the first element matching `css`; false when there is none.
async fn click_first(c: &Client, css: &str) -> bool {
    match c.find_all(Locator::Css(css)).await.expect("find").first() {
        Some(e) => {
            e.click().await.expect("click");
            true
        }
        None => false,
    }
}

/// The log the page's "Save log" link gives.
async fn page_log(c: &Client) -> String {
    let v = c
        .execute(
            "return fetch(document.getElementById('save-log').href).then(r => r.text());",
            vec![],
        )
        .await
        .expect("fetch the log");
    v.as_str().expect("log text").to_string()
}

/// Make one decision of seat 0 by clicks: a placement on the board, a figure every other
/// turn (else no figure), the first other choice. `turn` varies the figure decision.
async fn human_decision(c: &Client, d: &Value, turn: usize) {
    let phase = d["phase"].as_str().unwrap_or("");
    let clicked = match phase {
        "placing" => click_first(c, "#targets .target.fit").await,
        "figure" if turn.is_multiple_of(2) && click_first(c, "#targets .figure-option").await => {
            true
        }
        _ => click_first(c, "#others .other-action").await,
    };
    assert!(clicked, "nothing to click in phase {phase}: {d}");
}

async fn autoplay_is_tegula_play(c: &Client, url: &str) {
    c.goto(&format!(
        "{url}play?variant=base&seats=random,greedy&seed=7&autoplay=1"
    ))
    .await
    .unwrap();
    let d = settle(c).await;
    assert_eq!(d["phase"], "over", "{d}");
    let log = page_log(c).await;
    let dir = scratch("autoplay");
    let path = dir.join("play.jsonl");
    let out = tegula(&[
        "play",
        "--variant",
        "variants/base.toml",
        "--seed",
        "7",
        "--agents",
        "random,greedy",
        "--log",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let played = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        log == played,
        "the page's game differs from `tegula play`'s"
    );
    let scores: Value = serde_json::from_str(d["scores"].as_str().unwrap()).unwrap();
    let end: Value = serde_json::from_str(played.lines().last().unwrap()).unwrap();
    assert_eq!(scores, end["scores"]);
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tegula-serve-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn whole_base_game_by_clicks(c: &Client, url: &str) {
    c.goto(&format!(
        "{url}play?variant=base&seats=human,random&seed=11&speed=0"
    ))
    .await
    .unwrap();
    let mut decisions = 0;
    loop {
        let d = settle(c).await;
        if d["phase"] == "over" {
            break;
        }
        assert_eq!(d["human"], "1", "{d}");
        human_decision(c, &d, decisions).await;
        decisions += 1;
        assert!(decisions < 400, "the game does not end");
    }
    let d = dataset(c).await;
    let scores: Vec<u32> = serde_json::from_str(d["scores"].as_str().unwrap()).unwrap();
    assert!(decisions >= 60, "seat 0 decided {decisions} times");
    let log = page_log(c).await;
    let dir = scratch("clicks");
    let path = dir.join("game.jsonl");
    std::fs::write(&path, &log).unwrap();
    let out = tegula(&["replay", path.to_str().unwrap(), "--format", "json"]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replayed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        replayed["scores"],
        json!(scores),
        "tegula replay gives the page's scores"
    );
    let placed_by_0 = (log.lines())
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "place" && v["player"] == 0)
        .count();
    assert!(
        placed_by_0 >= 30,
        "seat 0 placed {placed_by_0} tiles by clicks"
    );
}

/// Abbey & Mayor: play seat 0 by clicks until its own tile can go into a hole, and place it.
async fn abbey_mayor_own_tile(c: &Client, url: &str) {
    c.goto(&format!(
        "{url}play?variant=abbey-mayor&seats=human,random&seed=3&speed=0"
    ))
    .await
    .unwrap();
    for turn in 0..300 {
        let d = settle(c).await;
        assert_ne!(
            d["phase"], "over",
            "no hole for an own tile in the whole game"
        );
        if d["enginePhase"] == "Hand" && click_first(c, "#targets .target.fit").await {
            let after = settle(c).await;
            let log = page_log(c).await;
            let last_place = log
                .lines()
                .rev()
                .find(|l| l.contains("\"type\":\"place\""))
                .unwrap();
            let setup: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
            let placed: Value = serde_json::from_str(last_place).unwrap();
            let pile = setup["pile"].as_array().unwrap();
            assert_eq!(placed["player"], 0, "{last_place}");
            assert!(
                !pile.contains(&placed["tile"]),
                "an own tile, not a drawn one: {last_place}"
            );
            assert_ne!(after["enginePhase"], "Hand", "{after}");
            return;
        }
        human_decision(c, &d, turn).await;
    }
    panic!("no own tile placed");
}

/// The Wonders: seat 0's first decision is a pick into the open pool (W-1), by a click.
async fn wonders_pool_take(c: &Client, url: &str) {
    c.goto(&format!(
        "{url}play?variant=wonders&seats=human,random&seed=2&speed=0"
    ))
    .await
    .unwrap();
    let d = settle(c).await;
    assert_eq!(
        (&d["phase"], &d["enginePhase"]),
        (&json!("choice"), &json!("Pick")),
        "{d}"
    );
    let button = c.find(Locator::Css("#others .other-action")).await.unwrap();
    let words = button.text().await.unwrap();
    assert!(words.contains("take"), "{words}");
    button.click().await.unwrap();
    settle(c).await;
    let log = page_log(c).await;
    let take: Value = log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["type"] == "take")
        .expect("a take in the log");
    assert_eq!(take["player"], 0);
    let events = c
        .find(Locator::Id("events"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(events.contains("seat 0 (human)"), "{events}");
}

/// Author mode: a broken save shows its diagnostic, with file and line, within seconds.
async fn author_mode_shows_a_diagnostic(c: &Client) {
    let dir = scratch("author");
    let file = dir.join("river.toml");
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tiles/river.toml"))
            .unwrap();
    std::fs::write(&file, &text).unwrap();
    let server = Server::start(&["--watch", dir.to_str().unwrap()]);
    c.goto(&format!("{}author", server.url)).await.unwrap();
    let first = wait_for(c, Duration::from_secs(20), |d| {
        d["generation"].as_str().is_some()
    })
    .await;
    assert_eq!(
        first["diagnostics"], "0",
        "the copied set is valid: {first}"
    );
    assert!(
        c.find(Locator::Css("#sheet svg")).await.is_ok(),
        "the contact sheet of the valid set is drawn"
    );
    let lines = text.lines().count();
    std::fs::write(&file, format!("{text}\n[[tile]]\nid = \n")).unwrap();
    let saved = Instant::now();
    let d = wait_for(c, Duration::from_secs(20), |d| {
        d["diagnostics"].as_str().is_some_and(|n| n != "0")
    })
    .await;
    assert!(
        saved.elapsed() < Duration::from_secs(5),
        "{:?}",
        saved.elapsed()
    );
    let shown = c
        .find(Locator::Id("diagnostics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        shown.contains(&format!("river.toml:{}", lines + 3)),
        "{shown} ({d})"
    );
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

/// Wait (at most `limit`) until the page's dataset satisfies `ok`; the dataset then.
async fn wait_for(c: &Client, limit: Duration, ok: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + limit;
    loop {
        let d = dataset(c).await;
        if ok(&d) {
            return d;
        }
        assert!(Instant::now() < deadline, "the page never showed it: {d}");
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_play_page_in_chromium() {
    let required = std::env::var("TEGULA_BROWSER_TEST").is_ok_and(|v| v == "required");
    let driver = find_program("TEGULA_CHROMEDRIVER", &["chromedriver"]);
    let chromium = find_program(
        "TEGULA_CHROMIUM",
        &["chromium", "chromium-browser", "google-chrome"],
    );
    let Some(driver) = driver.filter(|_| chromium.is_some()) else {
        assert!(
            !required,
            "chromedriver or Chromium missing, and TEGULA_BROWSER_TEST=required"
        );
        eprintln!("serve_browser: skipped: no chromedriver or Chromium (see the file's comment)");
        return;
    };
    let driver = Driver::start(&driver);
    let server = Server::start(&[]);
    let c = browser(&driver, chromium.as_deref()).await;
    // The steps run in a task of their own, so that a failed one still closes the browser.
    let (c2, url) = (c.clone(), server.url.clone());
    let all = tokio::spawn(async move {
        autoplay_is_tegula_play(&c2, &url).await;
        wonders_pool_take(&c2, &url).await;
        abbey_mayor_own_tile(&c2, &url).await;
        whole_base_game_by_clicks(&c2, &url).await;
        author_mode_shows_a_diagnostic(&c2).await;
    });
    let outcome = tokio::time::timeout(Duration::from_secs(300), all).await;
    let _ = c.close().await;
    drop(server);
    drop(driver);
    if let Ok(Err(e)) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
    assert!(outcome.is_ok(), "the browser test took over 5 minutes");
}
