//! `tegula simulate-merge`: the `--out` files of the shards of one `tegula simulate` run
//! (`--shard I/N`, crates/shard) put back together: the games' lines in game order — the
//! bytes the whole run's `--out` holds — and the run's figures from the shards' integer sums,
//! printed as `tegula simulate --no-timing` prints them. Shards that do not make up one run
//! (missing, given twice, of another run, or edited) are refused, each problem located.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tegula_shard::{ShardHeader, ShardSums, HEADER_KEY};

use super::fsio::{write_output_atomically, InputError, LogLines};
use super::out;
use super::play::Format;
use super::sim_games::Found;
use super::sim_report::{Report, RunFacts};

/// Arguments of `tegula simulate-merge`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 merged, 1 the shards do not make up one run (each \
                        problem is named with its file and line), 2 usage or I/O error (or a \
                        file that is no shard's --out).\n\nExample: tegula simulate --variant \
                        variants/base.toml --games 1000 --seed 1 --shard 0/2 --out s0.jsonl; \
                        the same with --shard 1/2 --out s1.jsonl; then tegula simulate-merge \
                        s0.jsonl s1.jsonl --out games.jsonl --format json"
)]
pub struct Args {
    /// The shards' `--out` files (`tegula simulate --shard I/N --out FILE`), one per shard, in
    /// any order.
    #[arg(required = true, value_name = "SHARD")]
    pub shards: Vec<PathBuf>,
    /// Write the games' lines here, in game order: the file `tegula simulate --out` writes for
    /// the whole run.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// One shard's file, read.
struct ShardFile {
    path: PathBuf,
    header: ShardHeader,
    /// Its games' lines, as written (without line endings), with their line numbers.
    lines: Vec<(usize, String)>,
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let mut files = Vec::new();
    for path in &args.shards {
        files.push(read_shard(path)?);
    }
    let problems = check_shards(&mut files);
    if !problems.is_empty() {
        for p in &problems {
            out::eprintln(&format!("error: {p}"));
        }
        out::eprintln(&format!(
            "{} problem{}: the shards were not merged",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        ));
        return Ok(1);
    }
    let sums = match total(&files) {
        Ok(s) => s,
        Err(p) => {
            out::eprintln(&format!("error: {p}"));
            return Ok(1);
        }
    };
    if let Some(path) = &args.out {
        write_output_atomically(path, interleave(&files).as_bytes())?;
    }
    print(&args, &files[0].header, &sums)
}

/// Read a shard's file: its header, then its lines (each checked to be a JSON object naming its
/// game).
fn read_shard(path: &Path) -> Result<ShardFile, InputError> {
    let mut lines = LogLines::open(path)?;
    let not_shard = |reason: String| InputError {
        path: path.to_path_buf(),
        line: Some(1),
        reason,
    };
    let Some((_, first)) = lines.next_line()? else {
        return Err(not_shard(
            "the file is empty: a shard's --out starts with its header line".into(),
        ));
    };
    let header = parse_header(&first).map_err(not_shard)?;
    let mut games = Vec::new();
    while let Some((n, text)) = lines.next_line()? {
        games.push((n, text));
    }
    Ok(ShardFile {
        path: path.to_path_buf(),
        header,
        lines: games,
    })
}

/// The header line, or why it is none.
fn parse_header(text: &str) -> Result<ShardHeader, String> {
    let not = "not the header of a shard (`tegula simulate --shard I/N --out FILE` writes it)";
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("{not}: {e}"))?;
    let inner = value
        .get(HEADER_KEY)
        .ok_or_else(|| format!("{not}: no `{HEADER_KEY}` key"))?;
    let header: ShardHeader =
        serde_json::from_value(inner.clone()).map_err(|e| format!("{not}: {e}"))?;
    let seats = usize::from(header.players);
    if header.sums.seat_scores.len() != seats || header.sums.wins.len() != seats {
        return Err(format!(
            "{not}: its sums do not have one entry per seat ({seats})"
        ));
    }
    if header.shard.index >= header.shard.count {
        return Err(format!("{not}: shard {} does not exist", header.shard));
    }
    Ok(header)
}

/// Every reason the files do not make up one run, located; sorts `files` by shard.
fn check_shards(files: &mut [ShardFile]) -> Vec<String> {
    let mut problems = Vec::new();
    let first = &files[0];
    for f in &files[1..] {
        if let Some(d) = run_difference(&first.header, &f.header) {
            problems.push(format!(
                "{}: line 1: {d}, but {} has {}: the shards are of different runs",
                f.path.display(),
                first.path.display(),
                run_difference(&f.header, &first.header).unwrap_or_default()
            ));
        }
    }
    if !problems.is_empty() {
        return problems;
    }
    files.sort_by_key(|f| f.header.shard.index);
    for pair in files.windows(2) {
        if pair[0].header.shard == pair[1].header.shard {
            problems.push(format!(
                "{}: line 1: shard {} again (also {})",
                pair[1].path.display(),
                pair[1].header.shard,
                pair[0].path.display()
            ));
        }
    }
    let count = files[0].header.shard.count;
    let have: Vec<u64> = files.iter().map(|f| f.header.shard.index).collect();
    let missing: Vec<String> = (0..count)
        .filter(|i| have.binary_search(i).is_err())
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "shard{} {} missing: {} file{} given for {count} shards",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            files.len(),
            if files.len() == 1 { "" } else { "s" }
        ));
    }
    for f in files.iter() {
        check_games(f, &mut problems);
    }
    problems
}

/// The first run option in which `b` differs from `a`, as `b` has it (`seed 2`).
fn run_difference(a: &ShardHeader, b: &ShardHeader) -> Option<String> {
    if a.variant != b.variant {
        return Some(format!("variant `{}`", b.variant));
    }
    if a.variant_digest != b.variant_digest {
        return Some(format!(
            "variant `{}` with other rules (digest {})",
            b.variant, b.variant_digest
        ));
    }
    let options = [
        ("players", u64::from(a.players), u64::from(b.players)),
        ("games", a.games, b.games),
        ("seed", a.seed, b.seed),
        ("shard count", a.shard.count, b.shard.count),
    ];
    if let Some((what, _, v)) = options.iter().find(|(_, x, y)| x != y) {
        return Some(format!("{what} {v}"));
    }
    (a.agents != b.agents).then(|| format!("agents {}", b.agents.join(",")))
}

/// Check that a shard's lines are exactly its games, in order, as many as its sums count.
fn check_games(f: &ShardFile, problems: &mut Vec<String>) {
    let (shard, games) = (f.header.shard, f.header.games);
    let mut expected = shard.indices(games);
    for (n, text) in &f.lines {
        let game = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|v| v.get("game").and_then(serde_json::Value::as_u64));
        let Some(game) = game else {
            problems.push(format!(
                "{}: line {n}: not a game's line (a JSON object with its `game` index)",
                f.path.display()
            ));
            return;
        };
        if expected.next() != Some(game) {
            problems.push(format!(
                "{}: line {n}: game {game} is not the next game of shard {shard} (games {}, \
                 {}, … below {games}, in order)",
                f.path.display(),
                shard.index,
                shard.index + shard.count
            ));
            return;
        }
    }
    let want = shard.games_of(games);
    let (lines, counted) = (f.lines.len() as u64, f.header.sums.games);
    if lines != want || counted != want {
        problems.push(format!(
            "{}: line 1: shard {shard} of a {games}-game run has {want} games, but the file \
             has {lines} game lines and its header counts {counted}",
            f.path.display()
        ));
    }
}

/// The shards' sums added up, or the problem (a pool tile named two ways, sums past 2^64).
fn total(files: &[ShardFile]) -> Result<ShardSums, String> {
    let mut sums = ShardSums::new(files[0].header.players);
    for f in files {
        if let Some((t, a, b)) = sums.pool_conflict(&f.header.sums) {
            return Err(format!(
                "{}: line 1: pool tile {t} is `{b}` here but `{a}` in another shard",
                f.path.display()
            ));
        }
        if !sums.merge(&f.header.sums) {
            return Err(format!(
                "{}: line 1: the sums overflow when added to the other shards'",
                f.path.display()
            ));
        }
    }
    Ok(sums)
}

/// The games' lines in game order: game `g` is line `g / N` of shard `g mod N` (`files` sorted
/// by shard, every shard present once).
fn interleave(files: &[ShardFile]) -> String {
    let mut text = String::new();
    let longest = files.iter().map(|f| f.lines.len()).max().unwrap_or(0);
    for k in 0..longest {
        for f in files {
            if let Some((_, line)) = f.lines.get(k) {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    text
}

/// Print the merged figures as `tegula simulate --no-timing` prints the whole run's.
fn print(args: &Args, header: &ShardHeader, sums: &ShardSums) -> anyhow::Result<u8> {
    let stats = sums.stats(header.players);
    let ids: BTreeMap<u16, String> = sums.pool.iter().map(|(&t, p)| (t, p.id.clone())).collect();
    let tile_id = |t: u16| ids.get(&t).cloned().unwrap_or_default();
    let report = Report {
        run: RunFacts {
            variant: &header.variant,
            players: header.players,
            games: header.games,
            seed: header.seed,
            agents: header.agents.clone(),
            out: args.out.as_deref(),
            where_expr: None,
            logs: None,
            log_game: None,
        },
        tile_id: &tile_id,
        stats: &stats,
        timing: None,
        interrupted: false,
        found: Some(Found {
            matched: sums.games,
            ..Found::default()
        }),
    };
    super::simulate::print_report(&report, args.format)
}
