# Chromium (Debian's `chromium`), the headless browser of the Tools page's test (cli/tests/
# tools_page_browser.rs), installed by 05-debian.sh when it is missing; TOOLWIRE_CHROMIUM is
# where it is (the test fails without it, saying what to install).
TOOLWIRE_CHROMIUM=$(command -v chromium || echo /usr/bin/chromium)
[ -x "$TOOLWIRE_CHROMIUM" ] || { echo "scripts/setup: chromium is not installed" >&2; exit 1; }
export TOOLWIRE_CHROMIUM
