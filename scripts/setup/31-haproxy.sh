# HAProxy, the load balancer of the scale-out test for legacy (session) clients
# (cli/tests/serve/scale.rs runs deploy/haproxy/toolwire-gateway.cfg), installed by
# 05-debian.sh when it is missing; TOOLWIRE_HAPROXY is where it is (the test fails without it).
TOOLWIRE_HAPROXY=$(command -v haproxy || echo /usr/sbin/haproxy)
[ -x "$TOOLWIRE_HAPROXY" ] || { echo "scripts/setup: haproxy is not installed" >&2; exit 1; }
export TOOLWIRE_HAPROXY
