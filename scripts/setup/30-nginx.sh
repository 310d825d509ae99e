# nginx, the load balancer of the scale-out test (cli/tests/serve/scale.rs), installed by
# 05-debian.sh when it is missing; TOOLWIRE_NGINX is where it is (the test fails without it).
TOOLWIRE_NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$TOOLWIRE_NGINX" ] || { echo "scripts/setup: nginx is not installed" >&2; exit 1; }
export TOOLWIRE_NGINX
