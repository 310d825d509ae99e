#!/usr/bin/env bash
# Benchmark (not a test; cargo does not run it): `toolwire census --json` on a generated file of
# 100,000 tool names, in release, against a baseline that only parses the same file as JSON.
#
#   cli/benches/census-100k.sh [RUNS]      (default 7 runs; the median is reported)
#
# The file is an MCP tools/list answer (`{"tools": [{name, description, inputSchema}]}`) whose
# names mix the shapes real servers publish (dots, slashes, dashes, cut lengths) and include
# shared forms and duplicates, so every census path is exercised and the exit status is 1.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-7}"
target="${CARGO_TARGET_DIR:-target}"
cargo build --release -q -p toolwire-cli
bin="$target/release/toolwire"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
file="$work/tools-100k.json"

python3 - "$file" <<'PY'
import json, sys
shapes = ["{s}.search.{i}", "{s}/files/read_{i}", "get-{s}-{i}", "{s}_tool_{i}",
          "{s}:{i}:" + "x" * 60, "{s}.{i}"]
names = [shapes[i % len(shapes)].format(s="srv%d" % (i % 97), i=i) for i in range(100_000)]
for i in range(0, len(names), 50):  # a twin whose name is the other's form: a shared form
    names[i + 1] = "".join(c if c.isalnum() or c in "_-" else "_" for c in names[i])[:64]
for i in range(999, len(names), 1000):  # a name given twice
    names[i] = names[i - 500]
tools = [{"name": n, "description": "Tool number %d." % i,
          "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
         for i, n in enumerate(names)]
json.dump({"tools": tools}, open(sys.argv[1], "w"))
PY

# Median wall time of a command, in milliseconds.
median_ms() {
    local times=()
    for _ in $(seq "$runs"); do
        local start end
        start=$(date +%s%N)
        "$@" >/dev/null || [ $? -eq 1 ]
        end=$(date +%s%N)
        times+=($(( (end - start) / 1000000 )))
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}

names=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["tools"]))' "$file")
summary=$("$bin" census "$file" | tail -n 1 || true)
census=$(median_ms "$bin" census --json "$file")
table=$(median_ms "$bin" census "$file")
baseline=$(median_ms python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$file")
echo "file: $names names, $(du -h "$file" | cut -f1); $summary"
echo "toolwire census --json: ${census} ms (median of $runs)"
echo "toolwire census (table): ${table} ms"
echo "baseline python3 json.load: ${baseline} ms"
awk -v c="$census" -v b="$baseline" 'BEGIN { printf "ratio census --json / json.load: %.2f\n", c / (b ? b : 1) }'
# Wall time swings with whatever else the machine runs; CPU time much less.
if [ -x /usr/bin/time ]; then
    { /usr/bin/time -f "toolwire census --json CPU: %U s user + %S s system, %M KB peak" \
        "$bin" census --json "$file" >/dev/null || true; } 2>&1 | grep -v '^Command exited'
    /usr/bin/time -f "python3 json.load CPU: %U s user + %S s system" \
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$file"
fi
