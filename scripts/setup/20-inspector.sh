# The MCP Inspector's CLI (the TypeScript SDK's client, cli/tests/serve/inspector_cli.rs),
# pinned with its whole tree by scripts/inspector/package.json and package-lock.json, installed
# with `npm ci` into scripts/inspector/node_modules (gitignored). Installed again only when the
# lock changes (a copy of it in node_modules says what is installed).
# Exports TOOLWIRE_TEST_INSPECTOR, the installed `mcp-inspector` bin (the tests run it with
# `--cli`: no npx, no network).
toolwire_inspector="$PWD/scripts/inspector"
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
    echo "scripts/setup: the Inspector CLI tests need node and npm (apt-get install -y nodejs npm)" >&2
    exit 1
fi
# The lock's newest floor: @hono/node-server (the Inspector's) wants node >= 20.
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
    echo "scripts/setup: the Inspector CLI needs node >= 20 (found $(node --version))" >&2
    exit 1
fi
if ! cmp -s "$toolwire_inspector/package-lock.json" "$toolwire_inspector/node_modules/.toolwire-installed-lock" \
    || [ ! -x "$toolwire_inspector/node_modules/.bin/mcp-inspector" ]; then
    echo "scripts/setup: installing the MCP Inspector CLI into $toolwire_inspector/node_modules" >&2
    toolwire_started=$(date +%s)
    (cd "$toolwire_inspector" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$toolwire_inspector/package-lock.json" "$toolwire_inspector/node_modules/.toolwire-installed-lock"
    echo "scripts/setup: Inspector CLI installed in $(( $(date +%s) - toolwire_started )) s" >&2
fi
export TOOLWIRE_TEST_INSPECTOR="$toolwire_inspector/node_modules/.bin/mcp-inspector"
