#!/usr/bin/env bash
# Build tegula with profile-guided optimisation (docs/PERFORMANCE.md, "Profile-guided build"):
# the `perf` profile, instrumented, plays a training set of random and searched games of the
# shipped variants; LLVM then lays out and predicts the engine's branches from what it saw.
# The games are the same (optimisation changes no result); only the speed differs.
#
#   bash scripts/pgo.sh [--games N]      # -> target/pgo/perf/tegula (about 10 minutes, 2 cores)
#
# Needs the toolchain's llvm-profdata: `rustup component add llvm-tools`.
set -euo pipefail
cd "$(dirname "$0")/.."

games=2000
while [ $# -gt 0 ]; do
  case "$1" in
    --games)
      [ $# -ge 2 ] || { echo "pgo.sh: --games needs a number" >&2; exit 2; }
      games="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "pgo.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
case "$games" in
  ''|*[!0-9]*) echo "pgo.sh: --games takes a whole number, not '$games'" >&2; exit 2 ;;
esac
if [ "$games" -lt 1 ] || [ "$games" -gt 1000000 ]; then
  echo "pgo.sh: --games must be between 1 and 1000000, not $games" >&2; exit 2
fi

profdata="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
  echo "pgo.sh: $profdata is missing; install it with: rustup component add llvm-tools" >&2
  exit 1
fi

# Own target directories: the flags differ from every other build's, and the instrumented
# binary must never be mistaken for target/perf/tegula.
gen=target/pgo-gen
use=target/pgo
data="$PWD/target/pgo-data"
rm -rf "$data"
mkdir -p "$data"
export CARGO_INCREMENTAL=0

echo "pgo.sh: 1/3 instrumented build ($gen)" >&2
RUSTFLAGS="-Cprofile-generate=$data" \
  cargo build --locked --quiet --profile perf --bin tegula --target-dir "$gen"

echo "pgo.sh: 2/3 training: $games random games of each shipped variant, 2 searched games" >&2
for v in variants/*.toml variants/house/*.toml; do
  "$gen/perf/tegula" simulate --variant "$v" --players 2 --games "$games" --seed 1 --jobs 1 \
    --format json >/dev/null
done
"$gen/perf/tegula" simulate --variant variants/base.toml --players 2 --agents mcts:200,random \
  --games 2 --seed 1 --jobs 1 --format json >/dev/null
"$profdata" merge -o "$data/merged.profdata" "$data"

echo "pgo.sh: 3/3 optimised build ($use)" >&2
RUSTFLAGS="-Cprofile-use=$data/merged.profdata" \
  cargo build --locked --quiet --profile perf --bin tegula --target-dir "$use"
echo "$use/perf/tegula"
