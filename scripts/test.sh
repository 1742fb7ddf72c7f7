#!/usr/bin/env bash
# The project's test command (README: "Run the tests"): formatting, lints as errors, all tests,
# and the main job on the shipped data.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
cargo run --quiet -- validate tiles variants
