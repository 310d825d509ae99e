# The tests' Python venv, target/toolwire-venv (gitignored with target/): the MCP Python SDK 2.x
# client (cli/tests/serve/python_client.rs) and the providers' SDKs fixtures/provider-wire/
# validate.py checks against (tests/provider_wire_sdks.rs), pinned in scripts/requirements.txt.
# Built again only when that file changes (a copy of it in the venv says what is installed).
# Exports TOOLWIRE_TEST_PYTHON, the venv's python.
toolwire_venv="$PWD/target/toolwire-venv"
toolwire_requirements="$PWD/scripts/requirements.txt"
if ! cmp -s "$toolwire_requirements" "$toolwire_venv/requirements.installed" \
    || ! "$toolwire_venv/bin/python" -c '' 2>/dev/null; then
    # google-genai needs Python 3.11 (its Requires-Python), mcp 2.x 3.10.
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || { echo "scripts/setup: the test venv needs python3 >= 3.11 (found $(python3 --version 2>&1))" >&2; exit 1; }
    echo "scripts/setup: installing the test venv ($toolwire_venv) from scripts/requirements.txt" >&2
    toolwire_started=$(date +%s)
    rm -rf "$toolwire_venv"
    python3 -m venv "$toolwire_venv"
    "$toolwire_venv/bin/pip" install --quiet --no-input --disable-pip-version-check \
        -r "$toolwire_requirements"
    cp "$toolwire_requirements" "$toolwire_venv/requirements.installed"
    echo "scripts/setup: test venv installed in $(( $(date +%s) - toolwire_started )) s" >&2
fi
export TOOLWIRE_TEST_PYTHON="$toolwire_venv/bin/python"
