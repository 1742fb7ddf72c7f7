#!/usr/bin/env bash
# The project's test command (README: "Run the tests"): formatting, lints and docs as errors, all
# tests, and the main job on the shipped data. Every cargo step is `--locked`: the build uses
# exactly the committed Cargo.lock (and fails if it is stale) instead of resolving anew.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
# `--features serve`: the root package with its `tegula serve` verb (crates/serve), so that the
# verb is linted and its tests (tests/serve_*.rs) run; one build of the binary serves every step.
cargo clippy --locked --workspace --all-targets --features serve -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --workspace --features serve
# The tests (and the programs they start) write their scratch files under one folder that goes
# when this script ends: they name their folders by process id and leave them, so each run used
# to leave ~180 folders, ~130 MB, in the system's temporary folder.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tegula-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
TMPDIR="$scratch" cargo test --locked --workspace --features serve
cargo run --locked --quiet --features serve -- validate tiles variants

# The Python package's tests (crates/python/tests, pytest, ~30 s with a debug build) when the
# package and pytest are installed (.ci/run builds and installs it; README "Python package");
# otherwise a note, or a failure when TEGULA_PYTHON_TESTS=required (as .ci/run sets it).
if python3 -c "import tegula, pytest" >/dev/null 2>&1; then
  TMPDIR="$scratch" python3 -m pytest -q crates/python/tests
elif [ "${TEGULA_PYTHON_TESTS:-}" = required ]; then
  echo "test.sh: the tegula Python package or pytest is not installed" >&2
  exit 1
else
  echo "test.sh: Python package tests skipped: tegula or pytest not installed (README: Python package)"
fi
