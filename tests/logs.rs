//! Logs of existing games stay byte for byte what they were: `tests/logs/play-digests.txt` holds
//! the FNV-1a digest and length of `tegula play --log` for a few seeds of every shipped variant,
//! written by the build before feature values became expressions (issue 21); the current binary
//! must write the same bytes. A cheap in-tree guard beside the full comparison of two binaries
//! (hundreds of seeds per variant) that such a change is checked with.

mod common;
use common::{assert_exit, root, tegula};

/// FNV-1a, 64 bits: a digest that needs no dependency and that a script can reproduce.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn shipped_variants_play_the_logs_they_always_played() {
    let table = std::fs::read_to_string(root().join("tests/logs/play-digests.txt")).unwrap();
    let dir = std::env::temp_dir().join(format!("tegula-logs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut variants = std::collections::BTreeSet::new();
    let mut differ = Vec::new();
    for row in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = row.split_whitespace().collect();
        let [variant, players, seed, agents, digest, len] = f[..] else {
            panic!("malformed row: {row}");
        };
        let log = dir.join(format!("{seed}-{players}.jsonl"));
        let out = tegula(&[
            "play",
            "--variant",
            variant,
            "--players",
            players,
            "--seed",
            seed,
            "--agents",
            agents,
            "--log",
            log.to_str().unwrap(),
        ]);
        assert_exit(&out, 0);
        let bytes = std::fs::read(&log).unwrap();
        let got = format!("{:016x} {}", fnv1a64(&bytes), bytes.len());
        if got != format!("{digest} {len}") {
            differ.push(format!("{row}: now {got}"));
        }
        variants.insert(variant.to_string());
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(differ.is_empty(), "logs changed:\n{}", differ.join("\n"));
    // Every shipped variant is in the table.
    for f in common::toml_files("variants") {
        let rel = f
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(variants.contains(&rel), "{rel} has no row");
    }
}
