#!/usr/bin/env bash
# The compile-time cost of #[tool]: generates a crate with N (500) #[tool] functions and the same
# N functions without the attribute, builds each RUNS (3) times from clean (dependencies stay
# built: only the generated crate is rebuilt), and prints the medians, their ratio and the cost
# per tool.
#
# Not part of `cargo test` (cargo only discovers benches/*.rs). Run it from anywhere:
#   benches/compile_time.sh            # N=500 RUNS=3 PROFILE=dev
#   N=100 RUNS=5 benches/compile_time.sh
# A third crate, "attributed", is the 500 #[tool]s with one `#[serde(default)]` (a no-op on an
# `Option`) on an argument: the derived path a tool takes when its arguments carry `#[serde]`
# or `#[schemars]` attributes.
# It works in a fresh temporary directory (WORK) with its own target directory, offline, with
# this repo's Cargo.lock, so it neither touches nor waits on the repo's builds.
set -euo pipefail

N=${N:-500}
RUNS=${RUNS:-3}
PROFILE=${PROFILE:-dev}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${WORK:-$(mktemp -d -t toolwire-compile-time.XXXXXX)}
export CARGO_TARGET_DIR="$WORK/target"

generate() { # kind attribute
    local kind=$1 attribute=$2 dir="$WORK/$1"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "bench-$kind"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
toolwire = { path = "$ROOT", default-features = false }

[workspace]
TOML
    cp "$ROOT/Cargo.lock" "$dir/Cargo.lock"
    # rustc refuses doc comments on the arguments of a plain function: there they are comments.
    local doc="//"
    [ -n "$attribute" ] && doc="///"
    {
        echo "//! $N functions${attribute:+, each a #[tool]}."
        for i in $(seq 1 "$N"); do
            echo
            echo "/// Tool number $i: formats its arguments."
            [ -n "$attribute" ] && echo "$attribute"
            echo "pub fn tool_$i("
            echo "    $doc A number."
            echo "    a: i64,"
            echo "    $doc An optional label."
            [ "$kind" = attributed ] && echo "    #[serde(default)]"
            echo "    b: Option<String>,"
            echo ") -> String {"
            echo "    format!(\"{a} {b:?}\")"
            echo "}"
        done
    } > "$dir/src/lib.rs"
}

build_seconds() { # kind
    local dir="$WORK/$1" start end
    cargo clean -q --offline --manifest-path "$dir/Cargo.toml" -p "bench-$1" --profile "$PROFILE"
    start=$(date +%s.%N)
    cargo build -q --offline --manifest-path "$dir/Cargo.toml" --profile "$PROFILE"
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

generate tools "#[toolwire::tool]"
generate attributed "#[toolwire::tool]"
generate plain ""

echo "building the dependencies once (not timed) in $WORK ..." >&2
for kind in tools attributed plain; do
    cargo build -q --offline --manifest-path "$WORK/$kind/Cargo.toml" --profile "$PROFILE"
done

declare -A medians
for kind in tools attributed plain; do
    times=()
    for run in $(seq 1 "$RUNS"); do
        t=$(build_seconds "$kind")
        times+=("$t")
        printf '%s run %d: %.2f s\n' "$kind" "$run" "$t" >&2
    done
    medians[$kind]=$(printf '%s\n' "${times[@]}" | median)
done

tools=${medians[tools]}
plain=${medians[plain]}
printf 'crate with %d #[tool] functions: %.2f s (median of %d clean builds, profile %s)\n' "$N" "$tools" "$RUNS" "$PROFILE"
printf 'crate with the same %d plain functions: %.2f s\n' "$N" "$plain"
printf 'ratio: %.2fx\n' "$(echo "$tools / $plain" | bc -l)"
printf 'cost per #[tool]: %.2f ms\n' "$(echo "($tools - $plain) * 1000 / $N" | bc -l)"
attributed=${medians[attributed]}
printf 'crate with the same %d #[tool]s, one attribute on an argument each: %.2f s\n' "$N" "$attributed"
printf 'cost per attributed #[tool]: %.2f ms\n' "$(echo "($attributed - $plain) * 1000 / $N" | bc -l)"
