//! `tegula`: Carcassonne tiles and rules as data — validate, compile, render and play them.

// Every byte for stdout and stderr goes through `cli::out`, which checks writes and escapes
// terminal control characters; the `print!` family would panic on a closed pipe or a full disk.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Carcassonne tiles and rules as data: validate tile sets against the rulebook, compile them,
/// draw them, and play or simulate games with a generic engine.
#[derive(Parser)]
#[command(name = "tegula", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check tile sets and variants: TOML syntax, JSON Schema, topology and rulebook facts.
    Validate(cli::validate::Args),
    /// Write the JSON Schemas of the file formats.
    Schema(cli::schema::Args),
    /// Compile a tile set or variant to its graph model or lowered ruleset.
    Compile(cli::compile::Args),
    /// List the tiles of tile sets or variants.
    Tiles(cli::tiles::Args),
    /// Draw a tile (or a contact sheet of a set) as SVG or ASCII.
    Render(cli::render::Args),
    /// Play one full game and print the final scores.
    Play(cli::play::Args),
    /// Play many games and print statistics (games per second, mean score, win rates).
    Simulate(cli::simulate::Args),
    /// Merge the `--out` files of a sharded `simulate` run (`--shard I/N`): the run's games and
    /// figures, as one unsharded run gives them.
    SimulateMerge(cli::simulate_merge::Args),
    /// Re-run a game log and fail at the first divergence or illegal move; optionally write an
    /// HTML replay viewer.
    Replay(cli::replay::Args),
    /// Draw the board of a logged game at any turn (SVG or terminal picture).
    Board(cli::board::Args),
    /// Run scenario files (scripted moves with expected events and scores).
    Check(cli::check::Args),
    /// Print the rule registry: every rule id the data, diagnostics and events cite.
    Rules(cli::rules::Args),
    /// Explain a variant's effective rules, or compare two variants rule by rule.
    #[command(subcommand_required = true)]
    Variant(cli::variant::Args),
    /// Serve a local web app: play any variant against agents by clicking; author mode with
    /// live checks (built with the cargo feature `serve`).
    Serve(cli::serve::Args),
}

/// Whether `e` is a write to a closed pipe (`tegula … | head -1`): not an error.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<cli::out::StdoutError>()
            .is_some_and(|s| s.0.kind() == std::io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The command line, or the exit code when there is nothing to run: help and version are
/// printed (exit 0, or 2 when standard output fails, as for every verb's output), usage errors
/// are explained on stderr (exit 2).
fn parse_command_line() -> Result<Cli, ExitCode> {
    let e = match Cli::try_parse() {
        Ok(cli) => return Ok(cli),
        Err(e) => e,
    };
    let printed = e
        .print()
        .and_then(|()| std::io::Write::flush(&mut std::io::stdout()));
    match printed {
        Err(io) if !e.use_stderr() => Err(failure(&cli::out::StdoutError(io).into())),
        _ => Err(ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))),
    }
}

/// The exit code of a verb that failed with `e`, said on stderr (a closed pipe is no failure).
fn failure(e: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(e) {
        return ExitCode::SUCCESS;
    }
    cli::out::eprintln(&format!("error: {e:#}"));
    ExitCode::from(2)
}

fn main() -> ExitCode {
    // Every file read from here on is an input that no output may replace (cli::fsio).
    tegula_model::open::record_inputs();
    let cli = match parse_command_line() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Validate(a) => cli::validate::run(a),
        Command::Schema(a) => cli::schema::run(a),
        Command::Compile(a) => cli::compile::run(a),
        Command::Tiles(a) => cli::tiles::run(a),
        Command::Render(a) => cli::render::run(a),
        Command::Play(a) => cli::play::run(a),
        Command::Simulate(a) => cli::simulate::run(a),
        Command::SimulateMerge(a) => cli::simulate_merge::run(a),
        Command::Replay(a) => cli::replay::run(a),
        Command::Board(a) => cli::board::run(a),
        Command::Check(a) => cli::check::run(a),
        Command::Rules(a) => cli::rules::run(a),
        Command::Variant(a) => cli::variant::run(a),
        Command::Serve(a) => cli::serve::run(a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => failure(&e),
    }
}
