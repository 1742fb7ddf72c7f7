//! Hostile sizes in otherwise well-formed input (issue #20, round 3): counts, points and
//! coordinates at the edges of their types, and inputs with very many errors. The built binary
//! must refuse or cap them with a located message and exit 1 or 2 — never panic (exit 101),
//! wrap a number or take time that grows faster than the input.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_exit, tegula};

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tegula-sizes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Defect 1: a setup line whose pile holds 65,536 copies of one tile (past the engine's `u16`
/// tile counts and the board's cell limit) is refused at line 1 by every verb that reads logs.
#[test]
fn a_setup_pile_that_is_not_the_variants_is_refused_at_its_line() {
    let dir = scratch("big-pile");
    let log = dir.join("big.jsonl");
    let pile = vec!["\"C\""; 65_536].join(",");
    let setup = format!(
        "{{\"type\":\"setup\",\"variant\":\"base\",\"players\":2,\"seed\":1,\"pile\":[{pile}]}}\n"
    );
    std::fs::write(&log, setup).unwrap();
    for verb in ["replay", "board"] {
        let o = tegula(&[verb, s(&log), "--variant", "variants/base.toml"]);
        assert_exit(&o, 1);
        let err = stderr(&o);
        assert!(err.contains("line 1"), "{verb}: {err}");
        assert!(err.contains("pile"), "{verb}: {err}");
    }
}

/// A variant whose abilities push the scores past `u32::MAX` (which validates: 1,000 abilities
/// of 1,000 points each per figure on the board, 300 figures a seat, 250 extra tiles), written
/// into `dir`. Returns the variant's path.
fn greedy_variant(dir: &Path) -> PathBuf {
    let field = r#"{ id = "field", kind = "field", halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] }"#;
    let mut set = String::from("[set]\nid = \"greedy\"\nname = \"Greedy\"\n\n");
    for t in ["Z", "Y"] {
        set.push_str(&format!(
            "[[tile]]\nid = \"{t}\"\nname = \"Greedy {t}\"\ncount = 1\ntags = [\"greedy\"]\n\
             sides = [\"field\", \"field\", \"field\", \"field\"]\nsegments = [\n  \
             {{ id = \"cloister\", kind = \"cloister\" }},\n  {field},\n]\n\n"
        ));
    }
    set.push_str(
        "[[tile]]\nid = \"V2\"\nname = \"Curve\"\ncount = 250\n\
         sides = [\"field\", \"field\", \"road\", \"road\"]\nsegments = [\n  \
         { id = \"road\", kind = \"road\", sides = [\"S\", \"W\"] },\n  \
         { id = \"field\", kind = \"field\", halves = [\"Nw\", \"Ne\", \"En\", \"Es\", \"Se\", \"Sw\"] },\n  \
         { id = \"corner\", kind = \"field\", halves = [\"Ws\", \"Wn\"] },\n]\n\n",
    );
    for i in 0..1000 {
        let tile = ["Z", "Y"][i % 2];
        set.push_str(&format!(
            "[[ability]]\ntile = \"{tile}\"\nrule = \"W-10\"\nwhen = \"follower-placed\"\n\
             score = {{ per = 1000, count = \"followers\", owner = \"anyone\" }}\n\n"
        ));
    }
    std::fs::write(dir.join("greedy.toml"), set).unwrap();
    let followers: Vec<String> = (0..6)
        .map(|i| format!("{{ id = \"m{i}\", name = \"M{i}\", count = 50, strength = 1 }}"))
        .collect();
    // A copy of the base tiles beside it: a variant reaches only files inside its data root.
    std::fs::copy(
        common::root().join("tiles/base.toml"),
        dir.join("base.toml"),
    )
    .unwrap();
    let variant = format!(
        "id = \"greedy\"\nname = \"Greedy\"\nplayers = {{ min = 2, max = 2 }}\n\
         sets = [ {{ path = \"base.toml\" }}, {{ path = \"greedy.toml\" }} ]\nfollowers = [ {} ]\n\n\
         [pool]\ntag = \"greedy\"\npick = 1\nthresholds = {{ first = 0, step = 1, cap = 1 }}\n\
         gain = {{ follower = \"m0\", first = 1 }}\n",
        followers.join(", ")
    );
    let path = dir.join("greedy-variant.toml");
    std::fs::write(&path, variant).unwrap();
    path
}

/// Defect 3: when abilities saturate a score, its breakdown by kind saturates with it — `play`,
/// `board` and `replay --html` show it and exit 0 instead of panicking on the sum (debug) or
/// printing a wrapped breakdown (release).
#[test]
fn a_saturated_score_has_a_saturated_breakdown() {
    let dir = scratch("saturated");
    let variant = greedy_variant(&dir);
    let log = dir.join("game.jsonl");
    let o = tegula(&[
        "play",
        "--variant",
        s(&variant),
        "--seed",
        "1",
        "--log",
        s(&log),
    ]);
    assert_exit(&o, 0);
    let out = String::from_utf8_lossy(&o.stdout);
    let max = u32::MAX.to_string();
    assert!(out.contains(&format!("abilities {max}")), "{out}");
    let o = tegula(&["board", s(&log), "--variant", s(&variant)]);
    assert_exit(&o, 0);
    let html = dir.join("replay.html");
    let o = tegula(&[
        "replay",
        s(&log),
        "--variant",
        s(&variant),
        "--html",
        s(&html),
    ]);
    assert_exit(&o, 0);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains(&format!("<td>{max}</td>")),
        "no saturated cell"
    );
}

/// Defect 4: a coordinate at the very end of `i32` (whose absolute value does not exist) in a
/// step's `at` or a move's `to` is out of range like any other: the scenario is INVALID (exit
/// 2) with the coordinate located, instead of panicking (debug) or wrapping past the check and
/// running (release).
#[test]
fn the_most_negative_coordinate_makes_a_scenario_invalid() {
    let dir = scratch("i32-min");
    base_tree(&dir);
    let head =
        "name = \"far away\"\nrules = [\"B-2\"]\nvariant = \"variants/base.toml\"\nplayers = 2\n";
    let at = "[[step]]\ntile = \"U\"\nat = [0, -2147483648]\n";
    let to = "[[step]]\ntile = \"U\"\nat = [1, 0]\n\
              moves = [{ player = 0, to = [-2147483648, 0], on = \"road\" }]\n";
    let at64 = "[[step]]\ntile = \"U\"\nat = [-9223372036854775808, 0]\n";
    for (name, step) in [("at", at), ("to", to), ("at64", at64)] {
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(&file, format!("{head}\n{step}")).unwrap();
        let o = tegula(&["check", s(&file)]);
        assert_exit(&o, 2);
        let out = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
        assert!(out.contains("out of range"), "{name}: {out}");
        assert!(out.contains(&format!("{name}.toml:")), "{name}: {out}");
    }
}

/// Run `tegula args…`, failing the test if it takes over `secs` seconds (a hang or a cost that
/// grows faster than the input).
fn tegula_within(args: &[&str], secs: u64) -> std::process::Output {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tegula"))
        .current_dir(common::root())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drain stdout on a thread: a flood must not block on a full pipe.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).map(|_| v)
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?}: still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut out = child.wait_with_output().unwrap();
    out.stdout = reader.join().unwrap().unwrap();
    out
}

/// Defect 7: a 1 MiB scenario of some 45,000 bad steps on one line (two errors each) is
/// reported with at most 100 diagnostics per file and a last note saying how many more there
/// are, in time linear in the file: each error used to be located by counting characters from
/// the start of its line (80,000 diagnostics, 28 MB of output, time growing quadratically).
#[test]
fn a_flood_of_errors_is_capped_per_file_and_located_in_linear_time() {
    let dir = scratch("flood");
    base_tree(&dir);
    let head =
        "name = \"flood\"\nrules = [\"B-2\"]\nvariant = \"variants/base.toml\"\nplayers = 2\n";
    let steps = 45_000;
    let one_line = format!(
        "{head}step = [{}]\n",
        vec!["{tile=\"Z\",at=[2000,0]}"; steps].join(",")
    );
    let many_lines = format!(
        "{head}{}",
        "[[step]]\ntile=\"Z\"\nat=[2000,0]\n".repeat(29_000)
    );
    for (name, text) in [("one-line", one_line), ("many-lines", many_lines)] {
        let file = dir.join(format!("{name}.toml"));
        assert!(text.len() <= 1 << 20, "{name}: {} bytes", text.len());
        std::fs::write(&file, text).unwrap();
        for format in ["human", "json"] {
            let o = tegula_within(&["check", "--format", format, s(&file)], 30);
            assert_exit(&o, 2);
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(out.len() < 200_000, "{name} {format}: {} bytes", out.len());
            let shown = out.matches("out of range").count() + out.matches("unknown tile").count();
            assert!(
                (90..=100).contains(&shown),
                "{name} {format}: {shown} shown"
            );
            assert!(
                out.contains("more diagnostics not shown"),
                "{name} {format}"
            );
        }
    }
}

/// Make `dir` a data root holding the base game (`variants/base.toml`, `tiles/base.toml`,
/// `schema/variant.schema.json`): a scenario in it names its variant relative to itself and
/// inside its data root.
fn base_tree(dir: &Path) {
    for rel in [
        "schema/variant.schema.json",
        "tiles/base.toml",
        "variants/base.toml",
    ] {
        let to = dir.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(common::root().join(rel), to).unwrap();
    }
}
