#!/usr/bin/env bash
# The cargo-fuzz targets (docs/FUZZING.md); they need a nightly toolchain and cargo-fuzz:
#   rustup toolchain install nightly --profile minimal && cargo install cargo-fuzz
#
#   bash scripts/fuzz.sh check                 exit 0 if nightly and cargo-fuzz are present
#   bash scripts/fuzz.sh build                 build every target
#   bash scripts/fuzz.sh run TARGET [SECONDS]  fuzz one target (default 60 s), all: every target
#
# A run reads the regression corpus fuzz/corpus/TARGET/ and the shipped files as seeds and writes
# what it learns to fuzz/work/TARGET/ (not committed). A crash lands in fuzz/artifacts/TARGET/:
# fix it, then copy the input into fuzz/corpus/TARGET/ so the test suite replays it for ever.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
targets=(parse_tileset variant scenario log ruleset shard engine_actions)

have() {
  rustup toolchain list 2>/dev/null | grep -q '^nightly' && command -v cargo-fuzz >/dev/null 2>&1
}

# The shipped variants compiled to artefacts (the `ruleset` target's seeds), in fuzz/work/.
artefacts() {
  local dir="$root/fuzz/work/ruleset-seeds" v
  mkdir -p "$dir"
  for v in "$root"/variants/*.toml; do
    cargo run --quiet --locked --manifest-path "$root/Cargo.toml" --bin tegula -- \
      compile "$v" --format json \
      >"$dir/$(basename "$v" .toml).json" 2>/dev/null || rm -f "$dir/$(basename "$v" .toml).json"
  done
  echo "$dir"
}

seeds() {
  case "$1" in
    parse_tileset) echo "$root/tiles $root/tiles/wonders-1 $root/tiles/wonders-2 $root/tiles/fan-made" ;;
    variant) echo "$root/variants" ;;
    scenario) echo "$root/scenarios" ;;
    ruleset) artefacts ;;
    *) echo "" ;;
  esac
}

run_one() {
  local target=$1 secs=$2 max_len=65536
  # Artefacts are JSON of 90 to 280 KiB: shorter inputs would cut every seed.
  [ "$target" = ruleset ] && max_len=300000
  mkdir -p "fuzz/work/$target" "fuzz/corpus/$target"
  # shellcheck disable=SC2046
  (cd fuzz && cargo +nightly fuzz run "$target" "$root/fuzz/work/$target" \
    "$root/fuzz/corpus/$target" $(seeds "$target") -- \
    -max_total_time="$secs" -max_len="$max_len" -len_control=0 -timeout=20 -print_final_stats=1)
}

case "${1:-}" in
  check) have ;;
  build)
    have || { echo "fuzz.sh: no nightly toolchain or no cargo-fuzz" >&2; exit 2; }
    (cd fuzz && cargo +nightly fuzz build)
    ;;
  run)
    have || { echo "fuzz.sh: no nightly toolchain or no cargo-fuzz" >&2; exit 2; }
    target=${2:?"fuzz.sh run TARGET [SECONDS]"}
    secs=${3:-60}
    if [ "$target" = all ]; then
      for t in "${targets[@]}"; do run_one "$t" "$secs"; done
    else
      run_one "$target" "$secs"
    fi
    ;;
  *)
    sed -n '2,11p' "$0" >&2
    exit 2
    ;;
esac
