//! `tegula play`: one full game between built-in agents; prints the final scores and winners and
//! can write the game log (JSON Lines, replayable with `tegula replay`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tegula_engine::{log, sim, AgentKind, Game, PileOrder, Rules};
use tegula_render::board::{points_by_kind, score_table, BoardView};

use tegula_model::validate::{classify, FileKind};

use super::fsio::{read_input, write_output_atomically, InputError};
use super::out::{self, print_diags};
use super::outputs::{refuse_clashes, Output};

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Readable lines.
    Human,
    /// One JSON object.
    Json,
}

/// Arguments of `tegula play`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 played, 2 usage or I/O error (or a variant that cannot \
                        be played; its diagnostics are printed).\n\nExample: tegula play \
                        --variant variants/base.toml --seed 7 --log game.jsonl --board board.svg\n\n\
                        Game 12 of `tegula simulate --seed 7`: tegula play --variant \
                        variants/base.toml --seed 7 --game 12 --log game-12.jsonl"
)]
pub struct Args {
    /// Variant file (e.g. `variants/base.toml`).
    #[arg(long, value_name = "FILE")]
    pub variant: PathBuf,
    /// Number of players.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Seed of the pile shuffle and of the agents: the seed of a `simulate` run.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Which game of the run seeded `--seed` to play: `--game N` plays, byte for byte, the game
    /// `tegula simulate --seed S` played as game N (same variant, players and agents).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub game: u64,
    /// Agents by seat, comma-separated (`random`, `greedy`, `mcts:N`: tree search with N playouts per
    /// decision), cycled over the seats.
    #[arg(long, default_value = "random", value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Write the game log (JSON Lines) to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Draw the final board to this file: SVG, or a terminal picture if the name ends in `.txt`.
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// The kind of the data file at `path`, read through the bounded reader.
pub(crate) fn read_kind(path: &Path) -> Result<FileKind, InputError> {
    Ok(classify(&read_input(path)?))
}

/// Load and lower a variant; on failure print its diagnostics to stderr and return the exit code.
pub(crate) fn load_rules(path: &Path) -> anyhow::Result<Result<Arc<Rules>, u8>> {
    // Any other file given by mistake gets one plain sentence saying what it is, not a page of
    // schema errors.
    super::file_kind::require_variant(path)?;
    let (ruleset, diags) = tegula_model::variant::build_variant(path);
    let Some(ruleset) = ruleset else {
        print_diags(&diags, 1);
        out::eprintln(&format!(
            "error: the variant {} cannot be played",
            path.display()
        ));
        return Ok(Err(2));
    };
    match Rules::new(ruleset) {
        Ok(r) => Ok(Ok(Arc::new(r))),
        Err(e) => {
            out::eprintln(&format!("error: {}: {e}", path.display()));
            Ok(Err(2))
        }
    }
}

/// Parse `--agents`.
pub(crate) fn parse_agents(names: &[String]) -> anyhow::Result<Vec<AgentKind>> {
    let mut out = Vec::new();
    for n in names {
        match AgentKind::parse(n) {
            Some(k) => out.push(k),
            None => anyhow::bail!("unknown agent `{n}` (known: random, greedy, mcts:N with N ≥ 1)"),
        }
    }
    if out.is_empty() {
        out.push(AgentKind::Random);
    }
    Ok(out)
}

/// The agent of each seat (`--agents` is cycled over the seats), by name: what every verb
/// prints beside `seat N`.
pub(crate) fn agents_by_seat(agents: &[AgentKind], players: u8) -> Vec<String> {
    (0..usize::from(players))
        .map(|p| agents[p % agents.len().max(1)].name())
        .collect()
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let agents = parse_agents(&args.agents)?;
    refuse_clashes([
        Output::file("--log", args.log.as_deref()),
        Output::file("--board", args.board.as_deref()),
    ])?;
    let rules = match load_rules(&args.variant)? {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    let (pile_seed, agent_seeds) = sim::game_seeds(args.seed, args.game, args.players);
    let mut game = Game::new(
        rules.clone(),
        args.players,
        PileOrder::Shuffled(pile_seed),
        true,
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut ags = sim::build_agents(&agents, &agent_seeds);
    sim::play_out(&mut game, &mut ags);
    if let Some(path) = &args.log {
        write_output_atomically(path, log::log_text(&game).as_bytes())?;
    }
    let winners = game.winners();
    let agent_names = agents_by_seat(&agents, args.players);
    let agent_names: Vec<&str> = agent_names.iter().map(String::as_str).collect();
    let names = super::board::seat_names(args.players, &agent_names);
    if let Some(path) = &args.board {
        let (compiled, _) = tegula_model::variant::compile_variant(&args.variant);
        let drawings = compiled.map(|v| v.tiles).unwrap_or_default();
        let view = BoardView::from_game(&game, &drawings, &names);
        let text = if path.extension().is_some_and(|e| e == "txt") {
            out::terminal_picture(&tegula_render::ascii::board_ascii(&view))
        } else {
            tegula_render::svg::board::board_svg(&view)
        };
        write_output_atomically(path, text.as_bytes())?;
    }
    let by_kind = points_by_kind(&game);
    match args.format {
        Format::Json => {
            let mut v = serde_json::json!({
                "variant": rules.ruleset().id,
                "players": args.players,
                "seed": args.seed,
                "game": args.game,
                "agents": agent_names,
                "scores": game.scores(),
                "points_by_kind": by_kind,
                "winners": winners,
                "turns": game.turn(),
                "log": args.log.as_ref().map(|p| p.display().to_string()),
                "board": args.board.as_ref().map(|p| p.display().to_string()),
            });
            // Seat resources only where the variant declares them (other outputs unchanged).
            let held = game.holdings_by_id();
            if !held.is_empty() {
                v["resources"] = serde_json::json!(held);
            }
            out::println(&serde_json::to_string_pretty(&v)?)?;
        }
        Format::Human => {
            let view = BoardView::from_game(&game, &[], &names);
            let mut text = score_table(&view);
            let w: Vec<&str> = winners
                .iter()
                .map(|&s| names[s as usize].as_str())
                .collect();
            match w.as_slice() {
                [one] => text.push_str(&format!("winner: {one}\n")),
                _ => text.push_str(&format!("winners (tie): {}\n", w.join(", "))),
            }
            if let Some(p) = &args.log {
                text.push_str(&format!("log: {}\n", p.display()));
            }
            if let Some(p) = &args.board {
                text.push_str(&format!("board: {}\n", p.display()));
            }
            out::print(&text)?;
        }
    }
    Ok(0)
}
