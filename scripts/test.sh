#!/usr/bin/env bash
# The project's test command (README: "Run the tests"): formatting, lints and docs as errors, all
# tests, and the main job on the shipped data. Every cargo step is `--locked`: the build uses
# exactly the committed Cargo.lock (and fails if it is stale) instead of resolving anew.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --locked --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --workspace
cargo test --locked --workspace
cargo run --locked --quiet -- validate tiles variants
