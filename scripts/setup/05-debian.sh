# The Debian packages the tests need, installed in one `apt-get update` when any is missing:
# python3 with venv (tests/model/, the test venv), node and npm (the Inspector CLI), nginx and
# HAProxy (the scale-out test), Chromium (the Tools page's browser test, cli/tests/
# tools_page_browser.rs). Their own services are never started (policy-rc.d answers 101,
# "action forbidden", for the install): the tests run their own nginx and HAProxy, with their
# own prefixes and ports, and a stock service would only take port 80.
toolwire_missing=()
command -v python3 >/dev/null || toolwire_missing+=(python3)
python3 -c 'import ensurepip, venv' 2>/dev/null || toolwire_missing+=(python3-venv)
command -v node >/dev/null || toolwire_missing+=(nodejs)
command -v npm >/dev/null || toolwire_missing+=(npm)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || toolwire_missing+=(nginx)
command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || toolwire_missing+=(haproxy)
command -v chromium >/dev/null || toolwire_missing+=(chromium)
if [ "${#toolwire_missing[@]}" -gt 0 ]; then
    command -v apt-get >/dev/null \
        || { echo "scripts/setup: the tests need ${toolwire_missing[*]}; install them (no apt-get here)" >&2; exit 1; }
    echo "scripts/setup: installing ${toolwire_missing[*]} from Debian's packages" >&2
    # Root installs as it is (CI runs as root); anyone else through `sudo -n`, which fails at
    # once rather than wait for a password nobody types (a CI job, a script).
    toolwire_root=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null \
            || { echo "scripts/setup: the tests need ${toolwire_missing[*]}; run this as root or install sudo (it is not installed)" >&2; exit 1; }
        sudo -n true 2>/dev/null \
            || { echo "scripts/setup: the tests need ${toolwire_missing[*]}; installing them needs root, and sudo wants a password: run 'sudo -v' first, or run this as root" >&2; exit 1; }
        toolwire_root=(sudo -n)
    fi
    toolwire_policy_ours=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' | "${toolwire_root[@]}" tee /usr/sbin/policy-rc.d >/dev/null
        "${toolwire_root[@]}" chmod +x /usr/sbin/policy-rc.d
        toolwire_policy_ours=1
    fi
    "${toolwire_root[@]}" apt-get update -qq
    "${toolwire_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${toolwire_missing[@]}" >/dev/null
    if [ "$toolwire_policy_ours" = 1 ]; then "${toolwire_root[@]}" rm -f /usr/sbin/policy-rc.d; fi
fi
