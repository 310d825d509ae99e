# Chromium (Debian's `chromium`), the headless browser of the Tools page's test (cli/tests/
# tools_page_browser.rs), installed by 05-debian.sh when it is missing. The test finds it
# itself (`$TOOLWIRE_CHROMIUM` when the caller sets it, else `chromium` on PATH or in
# /usr/bin): this part only checks it is there, so a missing browser is said here, before the
# build.
if [ -n "${TOOLWIRE_CHROMIUM:-}" ]; then
    [ -x "$TOOLWIRE_CHROMIUM" ] \
        || { echo "scripts/setup: TOOLWIRE_CHROMIUM=$TOOLWIRE_CHROMIUM is not an executable" >&2; exit 1; }
else
    command -v chromium >/dev/null || [ -x /usr/bin/chromium ] \
        || { echo "scripts/setup: chromium is not installed (Debian: apt-get install chromium)" >&2; exit 1; }
fi
