//! One module per verb. Each exposes `Args` (clap) and `run(Args) -> anyhow::Result<u8>`, the
//! `u8` being the exit code: 0 success, 1 the check found problems, 2 usage or I/O error
//! (an `Err` also exits 2).

mod behaviour;
pub mod board;
mod chart;
pub mod check;
pub mod compare;
pub mod compile;
mod file_kind;
pub(crate) mod fsio;
mod game_where;
pub(crate) mod out;
pub(crate) mod outputs;
pub mod play;
pub(crate) mod progress;
pub mod render;
pub mod replay;
pub mod rules;
pub mod schema;
pub mod serve;
mod sim_games;
mod sim_report;
pub mod simulate;
pub mod simulate_merge;
pub mod tiles;
pub mod validate;
pub mod variant;
