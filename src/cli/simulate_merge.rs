//! `tegula simulate-merge`: the `--out` files of the shards of one `tegula simulate` run
//! (`--shard I/N`, crates/shard) put back together: the games' lines in game order — the
//! bytes the whole run's `--out` holds — and the run's figures from the shards' integer sums,
//! printed as `tegula simulate --no-timing` prints them. Shards that do not make up one run
//! (missing, given twice, of another run, or edited) are refused, each problem located.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tegula_shard::{ShardHeader, ShardSums};

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
    let header = ShardHeader::parse_line(&first).map_err(not_shard)?;
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

/// Every reason the files do not make up one run, located; sorts `files` by shard when the
/// set is whole.
fn check_shards(files: &mut [ShardFile]) -> Vec<String> {
    let headers: Vec<ShardHeader> = files.iter().map(|f| f.header.clone()).collect();
    let name = |k: usize| files[k].path.display().to_string();
    let mut problems: Vec<String> = tegula_shard::set_problems(&headers, &name)
        .into_iter()
        .map(|(k, p)| match k {
            Some(k) => format!("{}: line 1: {p}", name(k)),
            None => p,
        })
        .collect();
    if !problems.is_empty() {
        return problems;
    }
    files.sort_by_key(|f| f.header.shard.index);
    for f in files.iter() {
        check_games(f, &mut problems);
    }
    problems
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

/// The shards' sums added up, or the located problem.
fn total(files: &[ShardFile]) -> Result<ShardSums, String> {
    let headers: Vec<ShardHeader> = files.iter().map(|f| f.header.clone()).collect();
    tegula_shard::total(&headers)
        .map_err(|(k, p)| format!("{}: line 1: {p}", files[k].path.display()))
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
        resources: &sums.resource_ids,
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
