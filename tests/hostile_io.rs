//! Hostile files and streams (docs/HOSTILE-INPUT.md): the built binary given devices, FIFOs,
//! huge files, planted symlinks, closed or full output streams, odd file names and hostile
//! text. Every case must end with its documented exit code and message — never a panic, a hang,
//! unbounded memory or a clobbered file.

mod common;

use std::io::Read as _;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{assert_exit, root, tegula};

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tegula-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The binary run from the repository root under an address-space limit of `mib` MiB (so a
/// regression eats no more than that), with stdin closed.
fn limited(mib: u64, args: &[&str]) -> Command {
    let mut c = Command::new("sh");
    c.current_dir(root())
        .arg("-c")
        .arg(format!("ulimit -v {}; exec \"$0\" \"$@\"", mib * 1024))
        .arg(env!("CARGO_BIN_EXE_tegula"))
        .args(args)
        .stdin(Stdio::null());
    c
}

/// Wait for `child` at most `secs` seconds; a child still running then is killed and the test
/// fails (a hang).
fn finish_within(mut child: Child, secs: u64, what: &str) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Run `cmd` with stdout and stderr captured, failing the test if it takes over `secs` s.
fn run_within(mut cmd: Command, secs: u64, what: &str) -> Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    finish_within(child, secs, what)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(ok.success(), "mkfifo {}", path.display());
}

/// A sparse file of `len` zero bytes (no disk used).
fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path).unwrap().set_len(len).unwrap();
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A recorded game log of the base game (seed 3).
fn game_log(dir: &Path) -> PathBuf {
    common::base_game_log(dir)
}

// ----- item 6: writes are safe -----

#[test]
fn a_symlink_planted_at_the_old_temporary_name_is_not_followed() {
    let dir = scratch("symlink");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let out = dir.join("d.svg");
    // The old temporary name was `.NAME.tmp-PID`: plant it for every pid the child may get.
    let last: u32 = std::fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(std::process::id());
    for pid in last..last + 3000 {
        let _ = std::os::unix::fs::symlink(&victim, dir.join(format!(".d.svg.tmp-{pid}")));
    }
    let o = tegula(&["render", "D", "--out", s(&out)]);
    assert_exit(&o, 0);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let meta = std::fs::symlink_metadata(&out).unwrap();
    assert!(meta.is_file(), "the output must be a new regular file");
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("<svg"));
}

#[test]
fn out_refuses_devices_fifos_folders_and_inputs() {
    let dir = scratch("out-refuses");
    let fifo = dir.join("fifo.svg");
    mkfifo(&fifo);
    let folder = dir.join("folder.svg");
    std::fs::create_dir(&folder).unwrap();
    // The device through a link: a regression then replaces the link, never the device itself.
    let device = dir.join("null.svg");
    std::os::unix::fs::symlink("/dev/null", &device).unwrap();
    for (target, why) in [
        (s(&device), "not a regular file"),
        (s(&fifo), "not a regular file"),
        (s(&folder), "is a folder"),
    ] {
        let mut c = Command::new(env!("CARGO_BIN_EXE_tegula"));
        c.current_dir(root()).args(["render", "D", "--out", target]);
        let o = run_within(c, 60, target);
        assert_exit(&o, 2);
        assert!(stderr(&o).contains(why), "{target}: {}", stderr(&o));
    }
    assert!(std::fs::symlink_metadata(&device).unwrap().is_symlink());
    // The command's own input.
    let input = dir.join("base.toml");
    std::fs::copy(root().join("tiles/base.toml"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let o = tegula(&["compile", s(&input), "--out", s(&input)]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("is one of this command's inputs"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
    // The variant a log names is an input of `board` too.
    let log = game_log(&dir);
    let variant = dir.join("base-variant.toml");
    std::fs::copy(root().join("variants/base.toml"), &variant).unwrap();
    let o = tegula(&[
        "board",
        s(&log),
        "--variant",
        s(&variant),
        "--out",
        s(&variant),
    ]);
    assert_exit(&o, 2);
    let o = tegula(&["board", s(&log), "--out", s(&log)]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("is one of this command's inputs"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_replaced_file_keeps_its_permissions() {
    let dir = scratch("perms");
    let out = dir.join("d.svg");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    let o = tegula(&["render", "D", "--out", s(&out)]);
    assert_exit(&o, 0);
    let meta = std::fs::metadata(&out).unwrap();
    assert_eq!(meta.mode() & 0o777, 0o640);
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("<svg"));
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

/// A write that fails half-way (here the file-size limit, `ulimit -f`, standing for a full disk)
/// leaves no temporary file and the old target untouched.
#[test]
fn a_failed_write_removes_its_temporary_file() {
    let dir = scratch("write-fails");
    let out = dir.join("d.svg");
    std::fs::write(&out, "old").unwrap();
    let mut c = Command::new("sh");
    c.current_dir(root())
        .arg("-c")
        // SIGXFSZ ignored: the write then fails with EFBIG instead of killing the process.
        .arg("trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_tegula"))
        .args(["render", "D", "--out", s(&out)]);
    let o = run_within(c, 60, "render");
    assert_exit(&o, 2);
    assert!(
        stderr(&o).starts_with(&format!("error: cannot write `{}`: ", s(&out))),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

// ----- item 7: reads are bounded -----

#[test]
fn dev_zero_is_refused_by_every_verb_that_reads_files() {
    let z = "/dev/zero";
    let cases: [&[&str]; 11] = [
        &["tiles", z],
        &["compile", z],
        &["validate", z],
        &["check", z],
        &["replay", z, "--variant", "variants/base.toml"],
        &["board", z, "--variant", "variants/base.toml"],
        &["play", "--variant", z],
        &["variant", "explain", z],
        &["variant", "diff", "variants/base.toml", z],
        &["simulate", "--variant", z, "--games", "1"],
        &[
            "simulate",
            "--compare",
            "variants/base.toml",
            z,
            "--games",
            "1",
        ],
    ];
    for args in cases {
        let o = run_within(limited(1024, args), 60, &args.join(" "));
        assert_exit(&o, 2);
        assert!(
            stderr(&o).contains("not a regular file") || stdout_has(&o, "not a regular file"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

fn stdout_has(o: &Output, what: &str) -> bool {
    String::from_utf8_lossy(&o.stdout).contains(what)
}

#[test]
fn a_fifo_as_input_does_not_block() {
    let dir = scratch("fifo-in");
    let fifo = dir.join("pipe.toml");
    mkfifo(&fifo);
    let f = s(&fifo);
    let cases: [&[&str]; 10] = [
        &["tiles", f],
        &["compile", f],
        &["validate", f],
        &["check", f],
        &["play", "--variant", f],
        &["replay", f, "--variant", "variants/base.toml"],
        &["board", f, "--variant", "variants/base.toml"],
        &["variant", "explain", f],
        &["variant", "diff", f, "variants/base.toml"],
        &[
            "simulate",
            "--compare",
            f,
            "variants/base.toml",
            "--games",
            "1",
        ],
    ];
    for args in cases {
        let o = run_within(limited(1024, args), 60, &args.join(" "));
        assert_exit(&o, 2);
    }
}

#[test]
fn oversized_files_are_refused_before_reading() {
    let dir = scratch("huge");
    let huge = dir.join("huge.toml");
    sparse(&huge, 1 << 30);
    let h = s(&huge);
    let cases: [&[&str]; 6] = [
        &["tiles", h],
        &["compile", h],
        &["validate", h],
        &["play", "--variant", h],
        &["variant", "explain", h],
        &[
            "simulate",
            "--compare",
            "variants/base.toml",
            h,
            "--games",
            "1",
        ],
    ];
    for args in cases {
        let o = run_within(limited(512, args), 60, &args.join(" "));
        // `validate` reports a diagnostic; the others cannot read their input.
        assert_exit(&o, if args[0] == "validate" { 1 } else { 2 });
        let all = format!("{}{}", stderr(&o), String::from_utf8_lossy(&o.stdout));
        assert!(all.contains("too large"), "{args:?}: {all}");
    }
}

#[test]
fn a_folder_as_input_is_refused() {
    let dir = scratch("folder-in");
    let d = s(&dir);
    let cases: [&[&str]; 7] = [
        &["compile", d],
        &["play", "--variant", d],
        &["simulate", "--variant", d, "--games", "1"],
        &["variant", "explain", d],
        &["variant", "diff", "variants/base.toml", d],
        &["replay", d],
        &["board", d, "--variant", "variants/base.toml"],
    ];
    for args in cases {
        let o = run_within(limited(1024, args), 60, &args.join(" "));
        assert_exit(&o, 2);
        assert!(
            stderr(&o).contains(&format!("cannot read `{d}`: it is a folder")),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

/// A variant whose parent is missing, and a file that is not UTF-8: a diagnostic and exit 1 from
/// the verbs that report diagnostics, exit 2 from those that only run a variant.
#[test]
fn a_missing_parent_or_non_utf8_file_is_named() {
    let parent = "tests/fixtures/inherit/missing-parent.toml";
    let bytes = "tests/fixtures/invalid/not-utf8.toml";
    let cases: [(&[&str], i32, &str); 8] = [
        (
            &["validate", parent],
            1,
            "error[dangling-reference]: no variant file",
        ),
        (
            &["compile", parent],
            1,
            "error[dangling-reference]: no variant file",
        ),
        (&["variant", "explain", parent], 1, "no variant file"),
        (&["play", "--variant", parent], 2, "no variant file"),
        (
            &["validate", bytes],
            1,
            "error[not-utf8]: the file is not UTF-8 text",
        ),
        (
            &["compile", bytes],
            2,
            "not UTF-8 text: invalid byte at offset",
        ),
        (&["play", "--variant", bytes], 2, "not UTF-8 text"),
        (&["variant", "explain", bytes], 2, "not UTF-8 text"),
    ];
    for (args, code, what) in cases {
        let o = run_within(limited(1024, args), 60, &args.join(" "));
        assert_exit(&o, code);
        let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
        assert!(all.contains(what), "{args:?}: {all}");
    }
}

#[test]
fn a_one_line_huge_log_stops_at_the_line_cap() {
    let dir = scratch("huge-log");
    let log = dir.join("huge.jsonl");
    sparse(&log, 1 << 30);
    for verb in ["replay", "board"] {
        let args = [verb, s(&log), "--variant", "variants/base.toml"];
        let o = run_within(limited(512, &args), 60, verb);
        assert_exit(&o, 1);
        assert!(stderr(&o).contains("line 1"), "{verb}: {}", stderr(&o));
        assert!(stderr(&o).contains("longer than"), "{verb}: {}", stderr(&o));
    }
}

#[test]
fn replay_stops_at_the_first_bad_line_without_reading_the_rest() {
    let dir = scratch("bad-line");
    let good = std::fs::read_to_string(game_log(&dir)).unwrap();
    let log = dir.join("bad.jsonl");
    let mut text: String = good.lines().take(3).map(|l| format!("{l}\n")).collect();
    text.push_str("{not json\n");
    std::fs::write(&log, text).unwrap();
    // A long tail of short lines after the bad one: it must never be read into memory.
    let f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    f.set_len(1 << 30).unwrap();
    let o = run_within(limited(512, &["replay", s(&log)]), 60, "replay");
    assert_exit(&o, 1);
    assert!(stderr(&o).contains("line 4"), "{}", stderr(&o));
}

#[test]
fn a_log_line_that_is_not_utf8_is_named() {
    let dir = scratch("log-bytes");
    let good = std::fs::read(game_log(&dir)).unwrap();
    let mut text: Vec<u8> = Vec::new();
    for line in good.split(|&b| b == b'\n').take(3) {
        text.extend_from_slice(line);
        text.push(b'\n');
    }
    text.extend_from_slice(b"{\"type\":\"\xff\"}\n");
    let log = dir.join("bytes.jsonl");
    std::fs::write(&log, text).unwrap();
    for verb in ["replay", "board"] {
        let o = run_within(limited(512, &[verb, s(&log)]), 60, verb);
        assert_exit(&o, 1);
        let err = stderr(&o);
        assert!(
            err.contains("line 4") && err.contains("not UTF-8 text"),
            "{verb}: {err}"
        );
    }
}

#[test]
fn a_folder_walk_reports_what_it_skips() {
    let dir = scratch("deep");
    let mut deep = dir.clone();
    for i in 0..20 {
        deep = deep.join(format!("d{i}"));
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::copy(root().join("tiles/base.toml"), deep.join("base.toml")).unwrap();
    mkfifo(&dir.join("pipe.toml"));
    let o = tegula(&["validate", s(&dir)]);
    let out = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(out.contains("not searched"), "{out}");
    assert!(out.contains("pipe.toml"), "{out}");
    // Skipping is a warning: nothing was found wrong in the files that were checked.
    assert_exit(&o, 0);
}

#[test]
fn more_than_10000_files_in_a_walk_exit_2() {
    let dir = scratch("many-files");
    for i in 0..=10_000 {
        std::fs::File::create(dir.join(format!("f{i}.toml"))).unwrap();
    }
    // Output read as it comes (10,001 diagnostics would fill a pipe nobody reads).
    let o = tegula(&["validate", s(&dir)]);
    assert_exit(&o, 2);
    let out = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(
        out.contains("error[io]: too many files: only the first 10000 are validated"),
        "{}",
        &out[..out.len().min(2000)]
    );
    assert!(
        out.contains("(10000 checked)"),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
}

// ----- item 8: stdout and stderr failures -----

/// Run with stdout a pipe whose reading end is already closed.
fn closed_stdout(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tegula"))
        .current_dir(root())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    finish_within(child, 120, &args.join(" "))
}

/// Every verb that prints its results to stdout, with arguments that make it print (`log`: a
/// game log for `replay`): the closed-pipe and full-disk tests cover the same list.
fn printing_verbs(log: &Path) -> Vec<Vec<&str>> {
    let cases: [&[&str]; 11] = [
        &["play", "--variant", "variants/base.toml", "--seed", "1"],
        &[
            "simulate",
            "--variant",
            "variants/base.toml",
            "--games",
            "20",
        ],
        &["replay", s(log)],
        &["validate", "tiles/base.toml"],
        &["tiles", "tiles/base.toml"],
        &["check", "scenarios"],
        &["render", "D"],
        &["variant", "explain", "variants/house/farms-4.toml"],
        &[
            "variant",
            "diff",
            "variants/base.toml",
            "variants/house/farms-4.toml",
        ],
        &["rules", "B-6"],
        &[
            "simulate",
            "--compare",
            "variants/base.toml",
            "variants/house/farms-4.toml",
            "--games",
            "4",
        ],
    ];
    cases.iter().map(|c| c.to_vec()).collect()
}

#[test]
fn a_closed_stdout_pipe_exits_0_quietly() {
    let dir = scratch("closed");
    let log = game_log(&dir);
    let cases = printing_verbs(&log);
    for args in cases {
        let o = closed_stdout(&args);
        assert_exit(&o, 0);
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}

#[test]
fn a_full_disk_on_stdout_exits_2_with_one_line() {
    let dir = scratch("full");
    let log = game_log(&dir);
    let cases = printing_verbs(&log);
    for args in cases {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_tegula"))
            .current_dir(root())
            .args(&args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_exit(&o, 2);
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: cannot write to standard output"),
            "{args:?}: {err}"
        );
    }
}

/// When stderr cannot be written, the exit code still tells what happened.
#[test]
fn a_failing_stderr_keeps_the_exit_code() {
    for (args, code) in [
        (&["compile", "no-such-file.toml"][..], 2),
        (
            &["validate", "tests/fixtures/invalid/bad-count.toml"][..],
            1,
        ),
        (&["validate", "tiles/base.toml"][..], 0),
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let mut c = Command::new(env!("CARGO_BIN_EXE_tegula"));
        c.current_dir(root())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(full);
        let child = c.spawn().unwrap();
        let o = finish_within(child, 60, &args.join(" "));
        assert_eq!(o.status.code(), Some(code), "{args:?}");
    }
}

/// A folder holding a scenario and a tile set under names that are not UTF-8.
fn non_utf8_names() -> PathBuf {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = scratch("non-utf8");
    let scenario = common::toml_files("scenarios").remove(0);
    let a = std::ffi::OsStr::from_bytes(b"a\xff.toml");
    let b = std::ffi::OsStr::from_bytes(b"b\xfe.toml");
    std::fs::copy(scenario, dir.join(a)).unwrap();
    // A tile set with an error, so that diagnostics name the file.
    let text = std::fs::read_to_string(root().join("tiles/base.toml")).unwrap();
    std::fs::write(dir.join(b), text.replace("count = 9", "count = 99")).unwrap();
    dir
}

#[test]
fn non_utf8_file_names_are_shown_lossily_in_json() {
    let dir = non_utf8_names();
    let o = tegula(&["check", s(&dir), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("check: not JSON ({e}): {}", stderr(&o)));
    let files: Vec<&str> = v["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["file"].as_str())
        .collect();
    assert!(
        files.iter().any(|f| f.ends_with("a\u{fffd}.toml")),
        "{files:?}"
    );
    let o = tegula(&["validate", s(&dir), "--format", "json"]);
    assert_exit(&o, 1);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("validate: not JSON ({e}): {}", stderr(&o)));
    let diags = v["diagnostics"].as_array().unwrap();
    assert!(
        diags.iter().any(|d| d["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("b\u{fffd}.toml"))),
        "{v}"
    );
}

#[test]
fn terminal_control_characters_are_escaped_in_human_output() {
    let dir = scratch("controls");
    let text = std::fs::read_to_string(root().join("tiles/base.toml")).unwrap();
    let hostile = text
        .replacen(
            "name = \"Cloister with road\"",
            "name = \"Cloister\\u001b[2J\\u0007\\u009b31m\"",
            1,
        )
        .replacen("count = 9", "count = 99", 1);
    let file = dir.join("evil\x1b[31m.toml");
    std::fs::write(&file, hostile).unwrap();
    for args in [
        vec!["tiles", s(&file)],
        vec!["validate", s(&file)],
        vec!["compile", s(&file), "--format", "dot"],
    ] {
        let o = tegula(&args);
        for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            let t = String::from_utf8_lossy(bytes);
            assert!(
                !t.chars().any(|c| c.is_control() && c != '\n' && c != '\t'),
                "{args:?} {stream}: {t:?}"
            );
        }
        let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
        assert!(all.contains("\\u001b"), "{args:?}: {all}");
    }
}

#[test]
fn svg_is_well_formed_whatever_the_names() {
    let dir = scratch("svg-names");
    let text = std::fs::read_to_string(root().join("tiles/base.toml")).unwrap();
    let hostile = text
        .replacen(
            "name = \"Carcassonne (base game)\"",
            "name = \"<base> & 'all' \\\"of\\\" it \\u0001 \\uFFFE -- ]]>\"",
            1,
        )
        .replacen(
            "name = \"Cloister with road\"",
            "name = \"</svg><!-- \\u0000 \\uFFFF &amp\"",
            1,
        );
    let file = dir.join("set.toml");
    std::fs::write(&file, hostile).unwrap();
    let out = dir.join("sheet.svg");
    let o = tegula(&[
        "render",
        "--sheet",
        "base",
        "--tiles",
        s(&dir),
        "--out",
        s(&out),
    ]);
    assert_exit(&o, 0);
    let svg = std::fs::read_to_string(&out).unwrap();
    roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    assert!(
        svg.contains("&lt;base&gt; &amp;"),
        "the name is kept, escaped"
    );
}

// ----- item 9: long runs can be stopped -----

#[test]
fn many_games_need_an_explicit_flag() {
    let o = tegula(&[
        "simulate",
        "--variant",
        "variants/base.toml",
        "--games",
        "1000000001",
    ]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("--allow-many-games"), "{}", stderr(&o));
}

#[test]
fn sigint_prints_the_figures_of_the_finished_games() {
    let out = scratch("sigint-out").join("games.jsonl");
    let (o, all_err) = interrupted(&[
        "simulate",
        "--out",
        s(&out),
        "--variant",
        "variants/base.toml",
        "--games",
        "1000000001",
        "--allow-many-games",
        "--jobs",
        "2",
        "--format",
        "json",
        "--progress-every",
        "0.2",
    ]);
    assert_eq!(o.status.code(), Some(130), "{all_err}");
    assert!(all_err.contains("interrupted"), "{all_err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let games = v["games"].as_u64().unwrap();
    assert!(games > 0 && games < 1_000_000_001, "{v}");
    assert_eq!(v["interrupted"], true);
    assert_eq!(v["games_requested"], 1_000_000_001_u64);
    assert!(v["mean_total_score"].as_f64().unwrap() > 0.0);
    assert!(!out.exists(), "--out is not written after Ctrl-C");
}

#[test]
fn progress_reaches_a_non_terminal_at_intervals() {
    let o = tegula(&[
        "simulate",
        "--variant",
        "variants/base.toml",
        "--games",
        "3000",
        "--progress-every",
        "0.05",
    ]);
    assert_exit(&o, 0);
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("progress:")).collect();
    assert!(lines.len() >= 2, "{err}");
    assert!(lines[0].contains("/3000 games"), "{err}");
}

/// stderr a terminal (a pseudo-terminal from `script`): a progress bar, no progress lines.
#[test]
fn a_terminal_gets_a_progress_bar() {
    let tegula = env!("CARGO_BIN_EXE_tegula");
    let cmd = format!("{tegula} simulate --variant variants/base.toml --games 300 --jobs 1");
    let mut c = Command::new("script");
    c.current_dir(root()).args(["-qec", &cmd, "/dev/null"]);
    let o = run_within(c, 120, "script");
    assert_exit(&o, 0);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("/300 games ("), "{out}");
    assert!(!out.contains("progress:"), "{out}");
}

#[test]
fn bad_run_options_are_refused() {
    for (opt, what) in [
        (&["--jobs", "0"][..], "--jobs must be between 1 and 1024"),
        (&["--jobs", "1025"][..], "--jobs must be between 1 and 1024"),
        (
            &["--progress-every=-1"][..],
            "--progress-every takes a number",
        ),
        (
            &["--progress-every", "NaN"][..],
            "--progress-every takes a number",
        ),
        (
            &["--progress-every", "abc"][..],
            "'--progress-every <SECONDS>'",
        ),
    ] {
        let mut args = vec![
            "simulate",
            "--variant",
            "variants/base.toml",
            "--games",
            "1",
        ];
        args.extend_from_slice(opt);
        let o = tegula(&args);
        assert_exit(&o, 2);
        assert!(
            stderr(&o).lines().next().unwrap_or("").contains(what),
            "{opt:?}: {}",
            stderr(&o)
        );
    }
}

/// A second Ctrl-C ends the run at once, even while it is stuck writing its figures (stdout a
/// pipe kept full, so the first Ctrl-C's orderly end cannot finish).
#[test]
fn a_second_sigint_ends_the_run_at_once() {
    let (reader, writer) = std::io::pipe().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tegula"))
        .current_dir(root())
        .args([
            "simulate",
            "--variant",
            "variants/base.toml",
            "--games",
            "1000000",
        ])
        .args(["--jobs", "1", "--progress-every", "0.1"])
        .stdin(Stdio::null())
        .stdout(writer.try_clone().unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Keep the pipe full: this thread blocks once it is, until the reader goes away.
    let filler = std::thread::spawn(move || {
        let mut w = writer;
        while std::io::Write::write_all(&mut w, &[b'.'; 4096]).is_ok() {}
    });
    let mut err = child.stderr.take().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 256];
    while !String::from_utf8_lossy(&seen).contains("progress:") {
        let n = err.read(&mut buf).unwrap();
        assert!(n > 0, "no progress line");
        seen.extend_from_slice(&buf[..n]);
    }
    let pid = child.id().to_string();
    let sigint = || {
        let sent = Command::new("kill").args(["-INT", &pid]).status().unwrap();
        assert!(sent.success());
    };
    sigint();
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the run should be stuck writing"
    );
    sigint();
    let o = finish_within(child, 10, "after the second SIGINT");
    assert_eq!(o.status.code(), Some(130));
    drop(reader);
    filler.join().unwrap();
}

// ----- the verbs of the house rules: `extends`, `variant`, `simulate --compare` -----

/// A variant file in `dir` that extends `parent` (any path, written as given).
fn extending(dir: &Path, name: &str, parent: &str) -> PathBuf {
    let file = dir.join(name);
    let text = format!(
        "#:schema ../schema/variant.schema.json\nextends = \"{parent}\"\nid = \"x\"\nname = \"x\"\n"
    );
    std::fs::write(&file, text).unwrap();
    file
}

/// A copy of the base game in `dir` (`dir/base.toml` naming `dir/tiles/base.toml`): a variant
/// reaches only files inside its data root, here `dir`. Returns the variant's path.
fn base_copy(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir.join("tiles")).unwrap();
    std::fs::copy(root().join("tiles/base.toml"), dir.join("tiles/base.toml")).unwrap();
    let text = std::fs::read_to_string(root().join("variants/base.toml")).unwrap();
    let variant = dir.join("base.toml");
    std::fs::write(&variant, text.replace("../tiles/", "tiles/")).unwrap();
    variant
}

#[test]
fn an_extends_chain_is_read_bounded() {
    let dir = scratch("extends");
    mkfifo(&dir.join("pipe.toml"));
    sparse(&dir.join("huge.toml"), 1 << 30);
    std::fs::create_dir(dir.join("folder.toml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.toml")).unwrap();
    for (parent, why) in [
        ("pipe.toml", "not a regular file"),
        ("huge.toml", "too large"),
        ("folder.toml", "folder"),
        // Out of the variant's reach (its data root is `dir`: no `schema/` folder above it).
        ("/dev/zero", "is an absolute path"),
        ("zero.toml", "outside the data root"),
        (
            "../../../../../../../../../dev/zero",
            "outside the data root",
        ),
    ] {
        let child = extending(&dir, "child.toml", parent);
        let c = s(&child);
        let cases: [&[&str]; 4] = [
            &["validate", c],
            &["variant", "explain", c],
            &["play", "--variant", c],
            &[
                "simulate",
                "--compare",
                "variants/base.toml",
                c,
                "--games",
                "1",
            ],
        ];
        for args in cases {
            let o = run_within(limited(512, args), 60, &format!("{parent}: {args:?}"));
            assert!(
                matches!(o.status.code(), Some(1 | 2)),
                "{parent} {args:?}: {:?} {}",
                o.status,
                stderr(&o)
            );
            let all = format!("{}{}", stderr(&o), String::from_utf8_lossy(&o.stdout));
            assert!(all.contains(why), "{parent} {args:?}: {all}");
        }
    }
}

/// `validate FILE` in `dir`, from the repository root: (exit code, stdout and stderr together).
fn validate_in(file: &Path) -> (Option<i32>, String) {
    let o = run_within(limited(1024, &["validate", s(file)]), 60, "validate");
    let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    (o.status.code(), all)
}

/// `extends` and `sets` reach only `.toml` files inside the variant's data root (the nearest
/// folder holding `schema/variant.schema.json`), and nothing outside it is read or quoted.
#[test]
fn extends_and_sets_stay_inside_the_data_root() {
    let dir = scratch("reach");
    let data = dir.join("data");
    std::fs::create_dir_all(data.join("schema")).unwrap();
    std::fs::create_dir_all(data.join("variants")).unwrap();
    std::fs::copy(
        root().join("schema/variant.schema.json"),
        data.join("schema/variant.schema.json"),
    )
    .unwrap();
    std::fs::write(dir.join("secret.toml"), "token = \"hunter2\"\n").unwrap();
    std::fs::write(data.join("notes.txt"), "root:x:0:0:root:/root:/bin/sh\n").unwrap();
    let base = std::fs::read_to_string(root().join("variants/base.toml")).unwrap();
    let sets_line = base.lines().find(|l| l.starts_with("sets")).unwrap();
    for (name, text, why) in [
        (
            "abs.toml",
            "extends = \"/etc/passwd\"",
            "is an absolute path",
        ),
        (
            "up.toml",
            "extends = \"../../secret.toml\"",
            "outside the data root",
        ),
        (
            "txt.toml",
            "extends = \"../notes.txt\"",
            "is not a `.toml` file",
        ),
    ] {
        let file = data.join("variants").join(name);
        std::fs::write(&file, format!("{text}\nid = \"x\"\nname = \"x\"\n")).unwrap();
        let (code, all) = validate_in(&file);
        assert_eq!(code, Some(1), "{name}: {all}");
        assert!(
            all.contains("error[out-of-reach]") && all.contains(why),
            "{name}: {all}"
        );
        assert!(all.contains(&format!("{name}:1:11")), "located: {all}");
        assert!(
            !all.contains("hunter2") && !all.contains("root:x"),
            "{name}: {all}"
        );
    }
    for (name, set, why) in [
        ("set-up.toml", "../../secret.toml", "outside the data root"),
        ("set-txt.toml", "../notes.txt", "is not a `.toml` file"),
        ("set-abs.toml", "/etc/passwd", "is an absolute path"),
    ] {
        let file = data.join("variants").join(name);
        let text = base.replace(sets_line, &format!("sets = [{{ path = \"{set}\" }}]"));
        std::fs::write(&file, text).unwrap();
        let (code, all) = validate_in(&file);
        assert_eq!(code, Some(1), "{name}: {all}");
        assert!(
            all.contains("error[out-of-reach]") && all.contains(why),
            "{name}: {all}"
        );
        assert!(
            !all.contains("hunter2") && !all.contains("root:x"),
            "{name}: {all}"
        );
    }
}

/// A UTF-8 byte-order mark at the start of a data file is skipped before its kind is told and
/// it is parsed, and the positions of its diagnostics are those an editor shows.
#[test]
fn a_byte_order_mark_is_skipped() {
    let dir = scratch("bom");
    let bom = "\u{feff}";
    let tiles = std::fs::read_to_string(root().join("tiles/base.toml")).unwrap();
    std::fs::write(dir.join("tiles.toml"), format!("{bom}{tiles}")).unwrap();
    let base = std::fs::read_to_string(root().join("variants/base.toml")).unwrap();
    let sets_line = base.lines().find(|l| l.starts_with("sets")).unwrap();
    let parent = base.replace(sets_line, "sets = [{ path = \"tiles.toml\" }]");
    std::fs::write(dir.join("parent.toml"), format!("{bom}{parent}")).unwrap();
    // No `#:schema` line: the kind is told by the first key, `extends`.
    let child = dir.join("child.toml");
    std::fs::write(
        &child,
        format!("{bom}extends = \"parent.toml\"\nid = \"c\"\nname = \"C\"\n"),
    )
    .unwrap();
    let (code, all) = validate_in(&child);
    assert_eq!(code, Some(0), "{all}");
    assert!(
        all.contains("missing-schema-line") && !all.contains("error"),
        "{all}"
    );
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        format!("{bom}extends = 5\nid = \"c\"\nname = \"C\"\n"),
    )
    .unwrap();
    let (code, all) = validate_in(&bad);
    assert_eq!(code, Some(1), "{all}");
    assert!(
        all.contains("error[schema]") && all.contains("bad.toml:1:11"),
        "{all}"
    );
    assert!(!all.contains(bom), "the mark is not quoted: {all}");
    let scenario =
        std::fs::read_to_string(root().join("scenarios/b2-follower-on-occupied-feature.toml"))
            .unwrap()
            .replace("\"../variants/base.toml\"", "\"parent.toml\"");
    let sc = dir.join("scenario.toml");
    std::fs::write(&sc, format!("{bom}{scenario}")).unwrap();
    let o = run_within(limited(1024, &["check", s(&sc)]), 60, "check");
    assert_exit(&o, 0);
}

#[test]
fn a_chart_never_replaces_a_compared_variant() {
    let dir = scratch("chart-input");
    let variant = base_copy(&dir);
    let before = std::fs::read(&variant).unwrap();
    let v = s(&variant);
    let cases: [&[&str]; 2] = [
        &[
            "simulate",
            "--compare",
            v,
            "variants/house/farms-4.toml",
            "--games",
            "2",
            "--chart",
            v,
        ],
        &[
            "simulate",
            "--compare",
            v,
            "variants/house/farms-4.toml",
            "--games",
            "2",
            "--chart",
            s(&dir),
        ],
    ];
    for args in cases {
        let o = tegula(args);
        assert_exit(&o, 2);
        assert!(
            stderr(&o).contains("cannot write"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(std::fs::read(&variant).unwrap(), before);
    }
}

#[test]
fn many_compared_games_need_an_explicit_flag() {
    let o = tegula(&[
        "simulate",
        "--compare",
        "variants/base.toml",
        "variants/house/farms-4.toml",
        "--games",
        "1000001",
    ]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("--allow-many-games"), "{}", stderr(&o));
}

/// Start `args`, wait for its first progress line on stderr, press Ctrl-C; the output, and
/// everything it wrote to stderr.
fn interrupted(args: &[&str]) -> (Output, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tegula"))
        .current_dir(root())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 256];
    let start = Instant::now();
    while !String::from_utf8_lossy(&seen).contains("games") {
        let n = err.read(&mut buf).unwrap();
        assert!(
            n > 0 && start.elapsed() < Duration::from_secs(120),
            "no progress line"
        );
        seen.extend_from_slice(&buf[..n]);
    }
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let o = finish_within(child, 60, "after SIGINT");
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    (o, format!("{}{rest}", String::from_utf8_lossy(&seen)))
}

#[test]
fn sigint_prints_the_comparison_of_the_finished_games() {
    let chart = scratch("sigint-chart").join("scores.svg");
    let (o, err) = interrupted(&[
        "simulate",
        "--chart",
        s(&chart),
        "--compare",
        "variants/base.toml",
        "variants/house/farms-4.toml",
        "--games",
        "1000000",
        "--jobs",
        "2",
        "--format",
        "json",
        "--progress-every",
        "0.2",
    ]);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let games = v["games"].as_u64().unwrap();
    assert!(games > 0 && games < 1_000_000, "{v}");
    assert_eq!(v["interrupted"], true);
    // Both variants report the same games (whole pairs).
    for m in v["metrics"].as_array().unwrap() {
        for value in m["values"].as_array().unwrap() {
            assert_eq!(value["n"].as_u64(), Some(games), "{m}");
        }
    }
    assert!(!chart.exists(), "--chart is not written after Ctrl-C");
}

#[test]
fn explain_json_shows_non_utf8_variant_names_lossily() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = scratch("explain-non-utf8");
    base_copy(&dir);
    let odd = dir.join(std::ffi::OsStr::from_bytes(b"v\xff.toml"));
    std::fs::rename(extending(&dir, "v.toml", "base.toml"), &odd).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_tegula"))
        .current_dir(root())
        .arg("variant")
        .arg("explain")
        .arg(&odd)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_exit(&o, 0);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stderr(&o)));
    let chain = v["chain"].as_array().unwrap();
    assert!(
        chain
            .iter()
            .any(|f| f.as_str().is_some_and(|f| f.ends_with("v\u{fffd}.toml"))),
        "{v}"
    );
}

#[test]
fn a_sets_folder_reports_what_it_skips() {
    let dir = scratch("sets-folder");
    let sets = dir.join("sets");
    std::fs::create_dir(&sets).unwrap();
    std::fs::copy(root().join("tiles/base.toml"), sets.join("base.toml")).unwrap();
    mkfifo(&sets.join("pipe.toml"));
    let text = std::fs::read_to_string(root().join("variants/base.toml")).unwrap();
    let variant = dir.join("v.toml");
    let sets_line = text
        .lines()
        .find(|l| l.starts_with("sets"))
        .expect("variants/base.toml names its sets");
    let text = text.replace(sets_line, "sets = [{ path = \"sets\" }]");
    std::fs::write(&variant, text).unwrap();
    let o = run_within(limited(1024, &["validate", s(&variant)]), 60, "validate");
    let out = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(out.contains("pipe.toml"), "{out}");
    assert!(out.contains("not a regular file: skipped"), "{out}");
    // A warning: the variant is still valid with the regular file.
    assert_exit(&o, 0);
}

// ----- issue 20, defect 5: no output replaces a file read indirectly -----

/// A copy of the repository's base variant, its house rule `farms-4` (which extends it), its
/// tile set, and a variant whose set is a folder, in `dir` (`variants/`, `tiles/`, `folder/`):
/// the files the outputs below aim at, so a regression clobbers only copies.
fn copied_variants(dir: &Path) -> [PathBuf; 5] {
    for sub in ["variants/house", "tiles", "folder/sets", "schema"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    // The schema folder makes `dir` the variants' data root, so `farms-4.toml` may reach
    // `../base.toml` and the tile sets (docs/FORMAT.md, "What a variant may reach").
    let schema = "schema/variant.schema.json";
    std::fs::copy(root().join(schema), dir.join(schema)).unwrap();
    let copy = |from: &str, to: &str| {
        let target = dir.join(to);
        std::fs::copy(root().join(from), &target).unwrap();
        target
    };
    let base = copy("variants/base.toml", "variants/base.toml");
    let farms = copy("variants/house/farms-4.toml", "variants/house/farms-4.toml");
    let tiles = copy("tiles/base.toml", "tiles/base.toml");
    let in_folder = copy("tiles/base.toml", "folder/sets/base.toml");
    let text = std::fs::read_to_string(&base).unwrap();
    let folder = dir.join("folder/v.toml");
    std::fs::write(
        &folder,
        text.replace("path = \"../tiles/base.toml\"", "path = \"sets\""),
    )
    .unwrap();
    [base, farms, tiles, in_folder, folder]
}

#[test]
fn outputs_never_replace_a_file_read_indirectly() {
    let dir = scratch("indirect-inputs");
    let [base, farms, tiles, in_folder, folder] = copied_variants(&dir);
    let (b, f, t, i, v) = (s(&base), s(&farms), s(&tiles), s(&in_folder), s(&folder));
    let log = dir.join("game.jsonl");
    let l = s(&log);
    assert_exit(
        &tegula(&["play", "--variant", f, "--seed", "1", "--log", l]),
        0,
    );
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (b, vec!["play", "--variant", f, "--log", b]),
        (t, vec!["play", "--variant", b, "--log", t]),
        (t, vec!["play", "--variant", b, "--board", t]),
        (i, vec!["play", "--variant", v, "--log", i]),
        (
            b,
            vec!["simulate", "--variant", f, "--games", "1", "--out", b],
        ),
        (t, vec!["compile", f, "--out", t]),
        (i, vec!["compile", v, "--out", i]),
        (b, vec!["board", l, "--variant", f, "--out", b]),
        (t, vec!["replay", l, "--variant", f, "--html", t]),
        (l, vec!["replay", l, "--variant", f, "--html", l]),
        (
            t,
            vec!["simulate", "--compare", b, f, "--games", "1", "--chart", t],
        ),
    ];
    for (target, args) in cases {
        let before = std::fs::read(target).unwrap();
        let o = tegula(&args);
        assert_exit(&o, 2);
        let err = stderr(&o);
        assert!(
            err.contains("cannot write") && err.contains("is one of this command's inputs"),
            "{args:?}: {err}"
        );
        assert_eq!(
            std::fs::read(target).unwrap(),
            before,
            "{args:?} replaced it"
        );
    }
}

// ----- issue 20, item 8: smaller ones -----

#[test]
fn an_output_name_of_250_bytes_is_written() {
    let dir = scratch("long-name");
    let name = format!("{}.json", "n".repeat(245));
    assert_eq!(name.len(), 250);
    let target = dir.join(&name);
    let o = tegula(&["compile", "tiles/base.toml", "--out", s(&target)]);
    assert_exit(&o, 0);
    assert!(std::fs::read_to_string(&target).unwrap().starts_with('{'));
    // Only the target is left: no temporary file.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn help_and_version_to_a_full_disk_exit_2_with_one_line() {
    let cases: [&[&str]; 5] = [
        &["--help"],
        &["--version"],
        &["play", "--help"],
        &["variant", "explain", "--help"],
        &["help", "replay"],
    ];
    for args in cases {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_tegula"))
            .args(args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_exit(&o, 2);
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: cannot write to standard output"),
            "{args:?}: {err}"
        );
        // To a closed pipe: quietly 0, as every verb's output.
        let o = closed_stdout(args);
        assert_exit(&o, 0);
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}

#[test]
fn a_log_naming_a_path_for_its_variant_is_a_located_error() {
    let dir = scratch("log-variant-path");
    let log = game_log(&dir);
    let text = std::fs::read_to_string(&log).unwrap();
    for bad in ["../../../../elsewhere/x", "/etc/x", "house/farms-4", ""] {
        let forged = dir.join("forged.jsonl");
        std::fs::write(
            &forged,
            text.replacen("\"variant\":\"base\"", &format!("\"variant\":\"{bad}\""), 1),
        )
        .unwrap();
        for verb in ["replay", "board"] {
            let o = tegula(&[verb, s(&forged)]);
            assert_exit(&o, 1);
            let err = stderr(&o);
            assert!(
                err.contains("line 1") && err.contains("is not a variant id"),
                "{verb} {bad}: {err}"
            );
        }
    }
}

#[test]
fn a_byte_order_mark_at_the_start_of_a_log_is_skipped() {
    let dir = scratch("log-bom");
    let log = game_log(&dir);
    let with_bom = dir.join("bom.jsonl");
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend(std::fs::read(&log).unwrap());
    std::fs::write(&with_bom, bytes).unwrap();
    for verb in ["replay", "board"] {
        let o = tegula(&[verb, s(&with_bom)]);
        assert_exit(&o, 0);
    }
}

#[test]
fn render_reports_what_the_tiles_walk_skips() {
    let dir = scratch("render-walk");
    std::fs::copy(root().join("tiles/base.toml"), dir.join("base.toml")).unwrap();
    mkfifo(&dir.join("pipe.toml"));
    let cases: [&[&str]; 2] = [
        &["render", "D", "--tiles", s(&dir), "--format", "ascii"],
        &["render", "--sheet", "base", "--tiles", s(&dir)],
    ];
    for args in cases {
        let o = run_within(limited(1024, args), 60, "render");
        // A warning, as `validate` says it: the picture is still drawn.
        assert_exit(&o, 0);
        let err = stderr(&o);
        assert!(
            err.contains("warning") && err.contains("pipe.toml") && err.contains("skipped"),
            "{args:?}: {err}"
        );
    }
}

/// Whether process `pid` has a handler for SIGINT (Linux: bit 1 of `SigCgt` in its status).
fn catches_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        .is_some_and(|m| m & (1 << 1) != 0)
}

#[test]
fn sigint_stops_a_tree_search_within_a_second_or_two() {
    let cases: [&[&str]; 2] = [
        &["simulate", "--variant", "variants/base.toml"],
        &[
            "simulate",
            "--compare",
            "variants/base.toml",
            "variants/house/farms-4.toml",
        ],
    ];
    for args in cases {
        let child = Command::new(env!("CARGO_BIN_EXE_tegula"))
            .current_dir(root())
            .args(args)
            .args([
                "--agents",
                "mcts:2000",
                "--games",
                "4",
                "--progress-every",
                "0",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Press Ctrl-C once the handler is there (before, SIGINT would simply kill it) and the
        // search is under way.
        let start = Instant::now();
        while !catches_sigint(child.id()) {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no SIGINT handler"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(500));
        let ok = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
        let o = finish_within(child, 3, "mcts:2000 after SIGINT");
        assert_eq!(o.status.code(), Some(130), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
    }
}

// ----- issue 20, defect 2: replay --html in bounded memory -----

/// A variant in `dir` that extends a copy of the base game with a pile of `e` E tiles and `b`
/// B tiles (a valid, extreme variant: a game of about `e + b` turns).
fn long_variant(dir: &Path, e: u32, b: u32) -> PathBuf {
    // A copy of the base game in `dir` (a variant reaches only files inside its data root).
    base_copy(dir);
    let file = dir.join("long.toml");
    std::fs::write(
        &file,
        format!(
            "#:schema ../schema/variant.schema.json\nextends = \"base.toml\"\nid = \"long\"\n\
             name = \"long\"\n[tile_count]\nE = {e}\nB = {b}\n"
        ),
    )
    .unwrap();
    file
}

/// Play one game of `variant` (seed 1) and log it to `dir/game.jsonl`.
fn long_game(dir: &Path, variant: &Path) -> PathBuf {
    let log = dir.join("game.jsonl");
    let o = tegula(&[
        "play",
        "--variant",
        s(variant),
        "--seed",
        "1",
        "--log",
        s(&log),
    ]);
    assert_exit(&o, 0);
    log
}

#[test]
fn replay_html_of_a_long_game_fits_in_bounded_memory() {
    let dir = scratch("html-long");
    // The longest game a variant may have: 500 cells (`tegula_ruleset::limits::MAX_GAME_CELLS`).
    let variant = long_variant(&dir, 240, 197);
    let log = long_game(&dir, &variant);
    let html = dir.join("replay.html");
    let args = [
        "replay",
        s(&log),
        "--variant",
        s(&variant),
        "--html",
        s(&html),
    ];
    // A whole board per turn took memory growing with the square of the turns: far beyond this.
    let o = run_within(limited(512, &args), 300, "replay --html");
    assert_exit(&o, 0);
    let page = std::fs::read_to_string(&html).unwrap();
    let turns = std::fs::read_to_string(&log)
        .unwrap()
        .matches("\"type\":\"place\"")
        .count();
    assert!(turns > 450, "{turns} turns");
    // Each tile's piece once, not once per turn.
    assert_eq!(page.matches("class=\\\"placed\\\"").count(), turns + 1);
    assert!(page.len() < 8 << 20, "{} bytes", page.len());
    // `board --turn` steps through the same positions, one at a time too.
    let svg = dir.join("turn.svg");
    let args = [
        "board",
        s(&log),
        "--variant",
        s(&variant),
        "--turn",
        "400",
        "--out",
        s(&svg),
    ];
    let o = run_within(limited(512, &args), 300, "board --turn");
    assert_exit(&o, 0);
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(svg.matches("class=\"placed\"").count(), 401);
}

/// A game of more than the replay viewer's 2,000 turns (`html::MAX_REPLAY_TURNS`) cannot arise
/// any more: a game covers at most 500 cells, so the variant that made one (2,063 cells) is
/// refused before anything is played, with the limit and why; the viewer keeps its guard.
#[test]
fn replay_html_refuses_a_game_past_the_turn_limit() {
    let dir = scratch("html-too-long");
    let variant = long_variant(&dir, 1000, 1000);
    let o = tegula(&["play", "--variant", s(&variant), "--seed", "1"]);
    assert_exit(&o, 2);
    let err = stderr(&o);
    assert!(err.contains("cover 2063 cells"), "{err}");
    assert!(err.contains("the engine plays at most 500"), "{err}");
}
