# python3 runs the independent model of the spec (tests/model/).
command -v python3 >/dev/null || { echo "the tests need python3 (tests/model/)" >&2; exit 1; }
