//! `tegula simulate-merge`: the `--out` files of the shards of one `tegula simulate` run
//! (`--shard I/N`, crates/shard) put back together: the games' lines in game order — the
//! bytes the whole run's `--out` holds — and the run's figures from the shards' integer sums,
//! printed as `tegula simulate --no-timing` prints them. Shards that do not make up one run
//! (missing, given twice, of another run, or edited) are refused, each problem located.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use tegula_engine::Rules;
use tegula_shard::{variant_digest, variant_problem, LineSums, ShardHeader, ShardSums};

use super::fsio::{write_output_atomically, InputError, LogLines};
use super::out;
use super::play::{load_rules, Format};
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
    /// The variant the run played, to hold the shards to (its rules' digest, its player range,
    /// its pool). Default: the variant file the games' `play` commands name, when it exists and
    /// has the shards' rules.
    #[arg(long, value_name = "FILE")]
    pub variant: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// One shard's file, read.
struct ShardFile {
    path: PathBuf,
    header: ShardHeader,
    /// Its games' lines, as written (without line endings); kept only for `--out`.
    lines: Vec<String>,
    /// The variant file its first game's `play` command names, if any.
    recorded_variant: Option<PathBuf>,
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let given = match &args.variant {
        Some(path) => match load_rules(path)? {
            Ok(rules) => Some(rules),
            Err(code) => return Ok(code),
        },
        None => None,
    };
    let (mut files, mut problems) = (Vec::new(), Vec::new());
    for path in &args.shards {
        let (file, problem) = read_shard(path, args.out.is_some())?;
        problems.extend(problem);
        files.push(file);
    }
    if problems.is_empty() {
        problems = check_shards(&mut files);
    }
    if problems.is_empty() {
        problems = check_variant(&files, given.as_deref());
    }
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

/// Read a shard's file as a stream: its header (`Err`, exit 2, when the file is no shard),
/// then its game lines, each checked as it is read — the next game of the shard, scores and
/// winners of the header's seats, no more lines than the shard has games — stopping at the
/// first bad one, so a hostile file is never read whole; then the lines' sums against the
/// header's. The lines are kept only when `keep` (for `--out`).
fn read_shard(path: &Path, keep: bool) -> Result<(ShardFile, Option<String>), InputError> {
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
    let mut file = ShardFile {
        path: path.to_path_buf(),
        header,
        lines: Vec::new(),
        recorded_variant: None,
    };
    let problem = read_games(&mut file, &mut lines, keep)?;
    Ok((file, problem))
}

/// The game lines of `f` from `lines`, checked one by one (see [`read_shard`]); the first
/// problem, located.
fn read_games(
    f: &mut ShardFile,
    lines: &mut LogLines,
    keep: bool,
) -> Result<Option<String>, InputError> {
    let (shard, games) = (f.header.shard, f.header.games);
    let at = |n: usize, why: String| Some(format!("{}: line {n}: {why}", f.path.display()));
    let mut expected = shard.indices(games);
    let mut sums = LineSums::new(f.header.players);
    let mut count = 0u64;
    while let Some((n, text)) = lines.next_line()? {
        let value = serde_json::from_str::<serde_json::Value>(&text).ok();
        let Some(game) = value.as_ref().and_then(|v| v.get("game")?.as_u64()) else {
            return Ok(at(
                n,
                "not a game's line (a JSON object with its `game` index)".into(),
            ));
        };
        if expected.next() != Some(game) {
            return Ok(at(
                n,
                format!(
                    "game {game} is not the next game of shard {shard} (games {}, {}, … \
                     below {games}, in order)",
                    shard.index,
                    shard.index + shard.count
                ),
            ));
        }
        let value = value.unwrap_or_default();
        if let Err(why) = sums.add(&value) {
            return Ok(at(n, format!("game {game}: {why}")));
        }
        if count == 0 {
            f.recorded_variant = recorded_variant(&value);
        }
        count += 1;
        if keep {
            f.lines.push(text);
        }
    }
    let want = shard.games_of(games);
    let counted = f.header.sums.games;
    if count != want || counted != want {
        return Ok(at(
            1,
            format!(
                "shard {shard} of a {games}-game run has {want} games, but the file has \
                 {count} game lines and its header counts {counted}"
            ),
        ));
    }
    Ok(sums.mismatch(&f.header.sums).and_then(|why| at(1, why)))
}

/// The `--variant` file of a game line's `play` command.
fn recorded_variant(line: &serde_json::Value) -> Option<PathBuf> {
    let argv = line.get("play")?.get("argv")?.as_array()?;
    let at = argv.iter().position(|w| w.as_str() == Some("--variant"))?;
    argv.get(at + 1)?.as_str().map(PathBuf::from)
}

/// Every reason the files do not make up one run, located; sorts `files` by shard when the
/// set is whole.
fn check_shards(files: &mut [ShardFile]) -> Vec<String> {
    let headers: Vec<ShardHeader> = files.iter().map(|f| f.header.clone()).collect();
    let name = |k: usize| files[k].path.display().to_string();
    let problems: Vec<String> = tegula_shard::set_problems(&headers, &name)
        .into_iter()
        .map(|(k, p)| match k {
            Some(k) => format!("{}: line 1: {p}", name(k)),
            None => p,
        })
        .collect();
    if problems.is_empty() {
        files.sort_by_key(|f| f.header.shard.index);
    }
    problems
}

/// The headers held to the variant: `--variant` when given, else the variant file the
/// games' `play` commands name when it exists and has the shards' rules (otherwise a note says
/// what was not checked).
fn check_variant(files: &[ShardFile], given: Option<&Rules>) -> Vec<String> {
    let recorded;
    let rules = match given {
        Some(r) => r,
        None => {
            // As written (from the folder the run was started in), else beside the shard.
            recorded = files.iter().find_map(|f| {
                let named = f.recorded_variant.as_deref()?;
                let beside = f.path.parent().map(|d| d.join(named));
                quiet_rules(named).or_else(|| beside.as_deref().and_then(quiet_rules))
            });
            match recorded.as_deref() {
                Some(r) if variant_digest(r) == files[0].header.variant_digest => r,
                _ => {
                    out::eprintln(
                        "note: the shards' variant was not found (give --variant FILE): their \
                         players and pool tiles are not checked against it",
                    );
                    return Vec::new();
                }
            }
        }
    };
    files
        .iter()
        .filter_map(|f| {
            let why = variant_problem(&f.header, rules)?;
            Some(format!("{}: line 1: {why}", f.path.display()))
        })
        .collect()
}

/// The rules of the variant file at `path`, if it loads cleanly (nothing printed otherwise).
fn quiet_rules(path: &Path) -> Option<Arc<Rules>> {
    if path.extension().is_none_or(|e| e != "toml") || !path.is_file() {
        return None;
    }
    let (ruleset, _) = tegula_model::variant::build_variant(path);
    Rules::new(ruleset?).ok().map(Arc::new)
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
            if let Some(line) = f.lines.get(k) {
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
