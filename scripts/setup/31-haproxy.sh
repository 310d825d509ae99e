# HAProxy, the load balancer of the scale-out test for legacy (session) clients
# (cli/tests/serve/scale.rs runs deploy/haproxy/toolwire-gateway.cfg), from Debian's packages
# when it is missing; TOOLWIRE_HAPROXY is where it is (the test fails without it).
if ! command -v haproxy >/dev/null && [ ! -x /usr/sbin/haproxy ]; then
    echo "scripts/setup: installing haproxy (Debian's package) for the scale-out test" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
fi
TOOLWIRE_HAPROXY=$(command -v haproxy || echo /usr/sbin/haproxy)
[ -x "$TOOLWIRE_HAPROXY" ] || { echo "scripts/setup: haproxy is not installed" >&2; exit 1; }
export TOOLWIRE_HAPROXY
