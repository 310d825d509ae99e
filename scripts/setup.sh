#!/usr/bin/env bash
# What the test suite needs beside cargo, on a fresh machine: installs each part that is
# missing (scripts/setup/*.sh, one part each; fast when all is there). The README's test
# command is `scripts/setup.sh && cargo test --workspace`: the tests find each part where these
# scripts put it (a repo-local venv and node_modules, Debian's nginx and HAProxy).
set -euo pipefail
cd "$(dirname "$0")/.."
for part in scripts/setup/*.sh; do
    [ -e "$part" ] || continue
    # shellcheck source=/dev/null
    source "$part"
done
