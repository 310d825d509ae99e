# nginx, the load balancer of the scale-out test (cli/tests/serve/scale.rs), from Debian's
# packages when it is missing; TOOLWIRE_NGINX is where it is (the test fails without it).
# policy-rc.d or not, the package's own service is never needed: the test runs its own nginx
# with its own prefix and config.
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    echo "scripts/setup: installing nginx (Debian's package) for the scale-out test" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
fi
TOOLWIRE_NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$TOOLWIRE_NGINX" ] || { echo "scripts/setup: nginx is not installed" >&2; exit 1; }
export TOOLWIRE_NGINX
