#!/usr/bin/env python3
"""A second, deliberately naive implementation of the tool-name census (tool-name-wire.md).

It is written from the spec's rules, not from the Rust code, so the differential test
(differential.py) can compare the two: where they disagree, one of them is wrong.

    model-safe form: each character outside [A-Za-z0-9_-] becomes "_", then cut to 64.
    census:          group the distinct non-empty names and the taken names by form (a taken
                     name travels as its form too). A group of 2+ members is a collision: with a taken
                     name in it, every tool of it is left out; else the tool whose real name IS
                     the form (if any) is offered and the rest are left out. A form held by one
                     tool alone is offered, and heals (form -> name) when the name differs.
                     Empty names are left out; a name given twice is one tool (a duplicate).
    resolve:         a taken name, or a taken name's form -> meta; a real name -> exact; a healing form -> form;
                     anything else -> unknown.

Plain loops and dicts on purpose: this file must be obviously right, not fast.

Usage:
    toolwire_model.py census [FILE|-] [--taken NAME]... [--no-taken] --json
    toolwire_model.py resolve --tools FILE [--taken NAME]... [--no-taken] CALL...
    toolwire_model.py bench N
"""

import argparse
import json
import sys
import time

META_TOOLS = ["tool_search", "tool_schema", "reset_tools"]
MAX_FORM_CHARS = 64
FORM_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"


def model_safe_form(name):
    """Each character (a Python str holds Unicode scalar values) outside [A-Za-z0-9_-] becomes
    one "_"; then the result is cut to 64 characters."""
    out = ""
    for ch in name:
        if ch in FORM_CHARS:
            out += ch
        else:
            out += "_"
    return out[:MAX_FORM_CHARS]


def census(names, taken):
    """The census of `names` (in input order, duplicates allowed) beside the `taken` names.

    Returns a dict with the keys of `toolwire census --json` the model covers: offered,
    left_out, collisions, healing, duplicates, tools (name, form, status, reason_key)."""
    # The distinct names, in input order; a name seen again is a duplicate.
    distinct = []
    seen = set()
    duplicates = set()
    for name in names:
        if name in seen:
            duplicates.add(name)
        else:
            seen.add(name)
            distinct.append(name)

    # Group the tools by form: every distinct non-empty name. A taken name's form is the name
    # itself, so a taken name is in the group whose form it equals.
    group_of_form = {}
    for name in distinct:
        if name != "":
            group_of_form.setdefault(model_safe_form(name), []).append(name)
    # A taken name travels as its form, like any tool; a form is held by the taken name that
    # IS it, else by the first taken name that travels as it.
    holder_of_form = {}
    for t in taken:
        if t not in holder_of_form and model_safe_form(t) == t:
            holder_of_form[t] = t
    for t in taken:
        holder_of_form.setdefault(model_safe_form(t), t)

    status = {}  # real name -> "offered", or the reason it is left out
    collisions = {}
    healing = {}
    for form, group in group_of_form.items():
        if form in holder_of_form:
            # A taken name travels as this form: the runtime answers it, no tool can have it.
            collisions[form] = sorted(set(group) | {holder_of_form[form]})
            for name in group:
                status[name] = "meta_tool"
        elif len(group) >= 2:
            # Shared by two or more tools: only the one whose real name IS the form is offered.
            collisions[form] = sorted(group)
            for name in group:
                if name == form:
                    status[name] = "offered"
                elif form in group:
                    status[name] = "form_is_another_tool"
                else:
                    status[name] = "shares_form"
        else:
            # One tool alone travels as this form.
            name = group[0]
            status[name] = "offered"
            if name != form:
                healing[form] = name

    tools = []
    offered = []
    left_out = {}
    for name in distinct:
        form = model_safe_form(name)
        if name == "":
            key = "empty_name"
        else:
            key = status[name]
        if key == "offered":
            offered.append(name)
            tools.append({"name": name, "form": form, "status": "offered", "reason_key": None})
        else:
            left_out[name] = form
            tools.append({"name": name, "form": form, "status": "left_out", "reason_key": key})

    return {
        "offered": sorted(offered),
        "left_out": left_out,
        "collisions": collisions,
        "healing": healing,
        "duplicates": sorted(duplicates),
        "tools": tools,
    }


def resolve(names, taken, call):
    """Where a call named `call` is dispatched: {"call", "to", "via"}."""
    if call in taken:
        return {"call": call, "to": call, "via": "meta"}
    for t in taken:
        if model_safe_form(t) == call:
            return {"call": call, "to": t, "via": "meta"}
    for name in names:
        if name != "" and name == call:
            return {"call": call, "to": name, "via": "exact"}
    healing = census(names, taken)["healing"]
    if call in healing:
        return {"call": call, "to": healing[call], "via": "form"}
    return {"call": call, "to": None, "via": "unknown"}


def census_exit_status(result):
    """0 when every tool is offered, 1 when any is left out."""
    return 1 if result["left_out"] else 0


def resolve_exit_status(lines):
    """0 when every call reaches a tool or meta-tool, 1 when one reaches nothing."""
    for line in lines:
        if line["to"] is None:
            return 1
    return 0


def bench_names(count):
    """The same names as `cargo bench`'s census benchmark (core/benches/census.rs)."""
    names = []
    for i in range(count):
        if i % 3 == 0:
            names.append("mcp/server%d/read_file_%d" % (i % 97, i))
        elif i % 3 == 1:
            names.append("search.web.v%d" % i)
        else:
            names.append("get_weather_%d" % i)
    return names


def bench(count):
    names = bench_names(count)
    times = []
    for _ in range(3):
        start = time.perf_counter()
        census(names, META_TOOLS)
        times.append(time.perf_counter() - start)
    times.sort()
    return {"names": count, "median_s": times[1]}


def read_names(path):
    if path is None or path == "-":
        text = sys.stdin.read()
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    names = json.loads(text)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError("expected a JSON array of tool names")
    return names


def taken_names(args):
    if args.no_taken:
        return []
    if args.taken:
        return args.taken
    return list(META_TOOLS)


def main(argv):
    parser = argparse.ArgumentParser(prog="toolwire_model.py")
    commands = parser.add_subparsers(dest="command", required=True)
    census_cmd = commands.add_parser("census")
    census_cmd.add_argument("file", nargs="?")
    census_cmd.add_argument("--taken", action="append", default=[])
    census_cmd.add_argument("--no-taken", action="store_true")
    census_cmd.add_argument("--json", action="store_true")
    resolve_cmd = commands.add_parser("resolve")
    resolve_cmd.add_argument("--tools", required=True)
    resolve_cmd.add_argument("--taken", action="append", default=[])
    resolve_cmd.add_argument("--no-taken", action="store_true")
    resolve_cmd.add_argument("calls", nargs="+")
    bench_cmd = commands.add_parser("bench")
    bench_cmd.add_argument("count", type=int)
    args = parser.parse_args(argv)

    if args.command == "bench":
        print(json.dumps(bench(args.count)))
        return 0
    try:
        names = read_names(args.file if args.command == "census" else args.tools)
    except (OSError, ValueError) as err:
        print("toolwire_model: %s" % err, file=sys.stderr)
        return 2
    taken = taken_names(args)
    if args.command == "census":
        result = census(names, taken)
        print(json.dumps(result, ensure_ascii=False))
        return census_exit_status(result)
    lines = [resolve(names, taken, call) for call in args.calls]
    for line in lines:
        print(json.dumps(line, ensure_ascii=False))
    return resolve_exit_status(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
