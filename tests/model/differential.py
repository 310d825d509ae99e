#!/usr/bin/env python3
"""Differential test: the `toolwire` CLI against the naive model (toolwire_model.py).

Both get the same random census sets (seeded): random Unicode (astral characters, combining
marks, controls), names of 60 to 70 characters that agree in their first 64, meta-tool
look-alikes (`tool/search`, `reset.tools`), forms equal to other real names (`mcp/x` beside
`mcp_x`), empty names, duplicates and sometimes a custom taken set. For each set the CLI runs
`census FILE --json` once and `resolve --tools FILE -- CALL...` once, with calls drawn from the
names, their forms, the taken names and random strings; the model computes the same in
process. Compared: offered, left_out, collisions, healing, duplicates, each tool's name, form,
status and reason_key, every resolve line, and both exit statuses.

On a difference the input is shrunk (drop names, calls and taken names in halves down to one at
a time, then shorten and simplify each string) to the smallest that still differs, printed with
both outputs; the exit status is 1.

    differential.py --toolwire PATH [--sets N] [--seed S] [--jobs J] [--all]
    differential.py --toolwire PATH --self-check

--all keeps going after a difference and reports one shrunk input per kind of difference.
--self-check runs the comparison against deliberately broken variants of the model and
succeeds only if every one is caught and shrunk to a small input: proof the test can fail.
"""

import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import toolwire_model as model  # noqa: E402

# ---------------------------------------------------------------------------------------------
# A case: names (a JSON array), taken (None: the CLI's default; []: --no-taken; else --taken),
# calls for `resolve`.


class Case:
    def __init__(self, names, taken, calls):
        self.names = list(names)
        self.taken = None if taken is None else list(taken)
        self.calls = list(calls)

    def taken_names(self):
        return list(model.META_TOOLS) if self.taken is None else self.taken

    def taken_args(self):
        if self.taken is None:
            return []
        if not self.taken:
            return ["--no-taken"]
        return ["--taken=" + t for t in self.taken]

    def size(self):
        strings = self.names + self.calls + (self.taken or [])
        return (len(strings), sum(len(s) for s in strings))

    def describe(self):
        taken = "default (%s)" % ", ".join(model.META_TOOLS) if self.taken is None else self.taken
        return "\n".join(
            [
                "  names: %s" % json.dumps(self.names, ensure_ascii=False),
                "  taken: %s" % (taken if isinstance(taken, str) else json.dumps(taken, ensure_ascii=False)),
                "  calls: %s" % json.dumps(self.calls, ensure_ascii=False),
            ]
        )


# ---------------------------------------------------------------------------------------------
# Random census sets.

SAFE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
# Few letters and many separators: small sets of these share forms often.
CLASHY = "ab_-./ é"
# (low, high) ranges of Unicode scalar values; no surrogates (they are not scalar values).
UNICODE_RANGES = [
    (0x20, 0x7E),  # printable ASCII
    (0x00, 0x1F),  # controls, NUL included
    (0xA0, 0xFF),  # Latin-1
    (0x300, 0x36F),  # combining marks
    (0x391, 0x3C9),  # Greek
    (0x410, 0x44F),  # Cyrillic
    (0x600, 0x64A),  # Arabic (right to left)
    (0x200B, 0x200F),  # zero-width space/joiners, direction marks
    (0x2028, 0x2029),  # line/paragraph separators (special in JSON-in-JS)
    (0x4E00, 0x4E40),  # CJK
    (0xAC00, 0xAC40),  # Hangul
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # byte-order mark
    (0xFFFD, 0xFFFF),  # replacement char, noncharacters
    (0x10000, 0x10040),  # Linear B (astral)
    (0x1D400, 0x1D440),  # mathematical letters (astral)
    (0x1F300, 0x1F64F),  # emoji (astral)
    (0x1F980, 0x1F9FF),  # more emoji (astral)
    (0xE0001, 0xE007F),  # tag characters (astral)
    (0x10FFF0, 0x10FFFF),  # the last scalar values
]
META_LOOKALIKE_SEPARATORS = ["/", ".", "-", " ", "é", "\u0301", "🦀", "\u200d", "__", ":"]


def random_char(rng):
    low, high = rng.choice(UNICODE_RANGES)
    return chr(rng.randint(low, high))


def random_unicode(rng, length):
    out = []
    for _ in range(length):
        roll = rng.random()
        if roll < 0.45:
            out.append(rng.choice(SAFE))
        elif roll < 0.55:
            out.append(rng.choice("./: "))
        else:
            out.append(random_char(rng))
    return "".join(out)


def make_unsafe(rng, name):
    """`name` with some of its `_` (or other characters) turned into unsafe characters: a name
    of the same form when only `_` change, a near miss otherwise."""
    chars = list(name)
    if not chars:
        return name
    places = [i for i, c in enumerate(chars) if c == "_"] or list(range(len(chars)))
    for i in rng.sample(places, rng.randint(1, len(places))):
        chars[i] = rng.choice(["/", ".", " ", "é", "🦀", "\u0301", "\x00", '"', "\\"])
    return "".join(chars)


def meta_lookalike(rng, taken):
    base = rng.choice(taken + model.META_TOOLS) if taken else rng.choice(model.META_TOOLS)
    roll = rng.random()
    if roll < 0.2:
        return base
    if roll < 0.55:
        return base.replace("_", rng.choice(META_LOOKALIKE_SEPARATORS), 1)
    if roll < 0.65:
        return base.upper()
    if roll < 0.75:
        return base + rng.choice(["_", "-", "/", "s", " "])
    if roll < 0.85:
        return base + "x" * (64 - len(base)) + random_unicode(rng, rng.randint(0, 4))
    return "mcp/" + rng.choice(["s", "server", "tool"]) + "/" + base


def long_name(rng, prefix):
    """60 to 70 characters; names from one `prefix` (64 characters) agree in their first 64."""
    length = rng.randint(60, 70)
    if length <= 64:
        return prefix[:length]
    return prefix + random_unicode(rng, length - 64)


def random_name(rng, names, taken, prefix):
    roll = rng.random()
    if roll < 0.14:
        return "".join(rng.choice(CLASHY) for _ in range(rng.randint(1, 5)))
    if roll < 0.26:
        return random_unicode(rng, rng.randint(1, 12))
    if roll < 0.38:
        return long_name(rng, prefix)
    if roll < 0.48:
        return meta_lookalike(rng, taken)
    if roll < 0.56:
        server = rng.choice(["s", "fs", "web"])
        tool = rng.choice(["x", "read_file", "echo", "a_b"])
        sep = rng.choice(["/", "_", "."])
        return "mcp" + sep + server + sep + tool
    if names and roll < 0.68:
        # The form of another name of the set: `mcp/x` beside `mcp_x`.
        return model.model_safe_form(rng.choice(names))
    if names and roll < 0.78:
        # Another name of the same (or almost the same) form.
        return make_unsafe(rng, model.model_safe_form(rng.choice(names)))
    if names and roll < 0.88:
        return rng.choice(names)  # a duplicate
    if roll < 0.93:
        return ""
    return "".join(rng.choice(SAFE) for _ in range(rng.randint(1, 8)))


def random_taken(rng):
    roll = rng.random()
    if roll < 0.7:
        return None
    if roll < 0.78:
        return []
    pool = model.META_TOOLS + ["echo", "mcp_x", "a_b", "a", "search", "x" * 64, "tool/search", "-x", ""]
    return rng.sample(pool, rng.randint(1, 4))


def random_calls(rng, names, taken):
    candidates = []
    for name in names:
        form = model.model_safe_form(name)
        candidates += [name, form, form[:63], form.upper(), make_unsafe(rng, form)]
    candidates += taken
    candidates += [model.model_safe_form(t) for t in taken]
    candidates += model.META_TOOLS + ["", "-x", "--", "unknown_tool"]
    for _ in range(5):
        candidates.append(random_unicode(rng, rng.randint(0, 10)))
    # An argument cannot hold NUL.
    candidates = [c for c in candidates if "\x00" not in c]
    count = min(len(candidates), rng.randint(1, 24))
    return rng.sample(candidates, count)


def random_case(rng):
    taken = random_taken(rng)
    taken_now = list(model.META_TOOLS) if taken is None else taken
    prefix = random_unicode(rng, 64)
    if rng.random() < 0.5:
        prefix = "".join(rng.choice(SAFE) for _ in range(64))
    count = rng.choice([0, 1, 2, 2, 3, 3, 4, 5, 6, 8, 10, 12, 16, 24])
    names = []
    for _ in range(count):
        names.append(random_name(rng, names, taken_now, prefix))
    return Case(names, taken, random_calls(rng, names, taken_now))


# ---------------------------------------------------------------------------------------------
# Running both sides.


class Model:
    """The model, as the comparison sees it."""

    name = "model"

    def census(self, names, taken):
        return model.census(names, taken)

    def resolve(self, names, taken, call):
        return model.resolve(names, taken, call)


class HealsSharedForms(Model):
    """Broken on purpose: a form two tools share (none of them the form) heals to the first."""

    name = "broken model (heals shared forms)"

    def census(self, names, taken):
        result = model.census(names, taken)
        for form, members in result["collisions"].items():
            if form not in members and form not in taken:
                result["healing"][form] = members[0]
        return result

    def resolve(self, names, taken, call):
        line = model.resolve(names, taken, call)
        healing = self.census(names, taken)["healing"]
        if line["via"] == "unknown" and call in healing:
            line = {"call": call, "to": healing[call], "via": "form"}
        return line


class CutsAt63(Model):
    """Broken on purpose: forms are cut to 63 characters."""

    name = "broken model (cuts forms to 63 characters)"

    def census(self, names, taken):
        result = model.census(names, taken)
        for tool in result["tools"]:
            tool["form"] = tool["form"][:63]
        for name in result["left_out"]:
            result["left_out"][name] = result["left_out"][name][:63]
        return result


def expected(variant, case):
    taken = case.taken_names()
    result = variant.census(case.names, taken)
    lines = [variant.resolve(case.names, taken, call) for call in case.calls]
    return {
        "census": compared_census(result),
        "census exit status": model.census_exit_status(result),
        "resolve": lines,
        "resolve exit status": model.resolve_exit_status(lines) if lines else None,
    }


def compared_census(result):
    return {
        "offered": result["offered"],
        "left_out": result["left_out"],
        "collisions": result["collisions"],
        "healing": result["healing"],
        "duplicates": result["duplicates"],
        "tools": [
            {k: tool.get(k) for k in ("name", "form", "status", "reason_key")}
            for tool in result["tools"]
        ],
    }


class Toolwire:
    """The CLI under test: two processes per case (census, then resolve)."""

    def __init__(self, path, workdir):
        self.path = path
        self.workdir = workdir
        self.local = threading.local()
        self.spawns = 0
        self.lock = threading.Lock()

    def _file(self):
        if not hasattr(self.local, "path"):
            fd, path = tempfile.mkstemp(suffix=".json", dir=self.workdir)
            os.close(fd)
            self.local.path = path
        return self.local.path

    def _run(self, args):
        with self.lock:
            self.spawns += 1
        proc = subprocess.run([self.path] + args, capture_output=True)
        return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8", "replace")

    def observe(self, case):
        path = self._file()
        with open(path, "w", encoding="utf-8") as f:
            json.dump(case.names, f)  # ASCII with escapes: astral characters as surrogate pairs
        out = {}
        status, stdout, stderr = self._run(["census", path] + case.taken_args() + ["--json"])
        out["census exit status"] = status
        try:
            out["census"] = compared_census(json.loads(stdout))
        except (ValueError, KeyError, TypeError) as err:
            out["census"] = "unreadable output (%s): stdout %r, stderr %r" % (err, stdout, stderr)
        if case.calls:
            args = ["resolve", "--tools", path] + case.taken_args() + ["--"] + case.calls
            status, stdout, stderr = self._run(args)
            out["resolve exit status"] = status
            try:
                out["resolve"] = [json.loads(line) for line in stdout.split("\n") if line]
            except ValueError as err:
                out["resolve"] = "unreadable output (%s): stdout %r, stderr %r" % (err, stdout, stderr)
        else:
            out["resolve exit status"] = None
            out["resolve"] = []
        return out


def difference(toolwire, variant, case, baseline=None):
    """The keys on which the CLI and the model `variant` disagree for `case`: {key: (cli,
    model)}. With a `baseline` model, a case counts only if the CLI agrees with the baseline:
    the self-check wants the differences its broken variant makes, not real ones."""
    got = toolwire.observe(case)
    if baseline is not None and compare(got, expected(baseline, case)):
        return {}
    return compare(got, expected(variant, case))


def compare(got, want):
    diff = {}
    for key in want:
        if key == "census" and isinstance(got[key], dict):
            for sub in want[key]:
                if got[key][sub] != want[key][sub]:
                    diff[sub] = (got[key][sub], want[key][sub])
        elif got[key] != want[key]:
            diff[key] = (got[key], want[key])
    return diff


# ---------------------------------------------------------------------------------------------
# Shrinking.


def shrink_list(items, still_fails):
    """Delta debugging over a list: drop chunks (halves, quarters, ... single items) while the
    difference stays."""
    chunks = 2
    while items:
        size = max(1, (len(items) + chunks - 1) // chunks)
        for start in range(0, len(items), size):
            candidate = items[:start] + items[start + size :]
            if still_fails(candidate):
                items = candidate
                chunks = max(chunks - 1, 2)
                break
        else:
            if size == 1:
                break
            chunks = min(chunks * 2, len(items))
    return items


def simpler_chars(c):
    """Characters to try in place of `c`, simplest first (only ones simpler than `c`)."""
    ladder = ["a", "b", "_", "-", ".", "/"]
    if c in ladder:
        return ladder[: ladder.index(c)]
    return ladder


class Shrinker:
    def __init__(self, toolwire, variant, baseline, budget):
        self.toolwire = toolwire
        self.variant = variant
        self.baseline = baseline
        self.budget = budget
        self.tries = 0

    def fails(self, case):
        if self.tries >= self.budget:
            return False
        self.tries += 1
        return bool(difference(self.toolwire, self.variant, case, self.baseline))

    def shrink(self, case):
        while True:
            before = case.size()
            case = Case(shrink_list(case.names, lambda n: self.fails(Case(n, case.taken, case.calls))), case.taken, case.calls)
            case = Case(case.names, case.taken, shrink_list(case.calls, lambda c: self.fails(Case(case.names, case.taken, c))))
            if case.taken is not None:
                # The default taken names are simplest to read, then none, then fewer.
                for simpler in [None, []]:
                    if simpler != case.taken and self.fails(Case(case.names, simpler, case.calls)):
                        case = Case(case.names, simpler, case.calls)
                        break
            if case.taken:
                taken = shrink_list(case.taken, lambda t: t and self.fails(Case(case.names, t, case.calls)))
                case = Case(case.names, taken or case.taken, case.calls)
            case = self.shrink_strings(case)
            if case.size() >= before or self.tries >= self.budget:
                return case

    def shrink_strings(self, case):
        """Shorten, then simplify, each string; every equal string of the case changes with it,
        so a call by a name keeps naming it."""
        strings = []
        for s in case.names + case.calls + (case.taken or []):
            if s not in strings:
                strings.append(s)
        for s in strings:

            def replaced(new, old=s, c=case):
                def sub(items):
                    return [new if x == old else x for x in items]

                return Case(sub(c.names), None if c.taken is None else sub(c.taken), sub(c.calls))

            chars = shrink_list(list(s), lambda cs: self.fails(replaced("".join(cs))))
            for i in range(len(chars)):
                for simpler in simpler_chars(chars[i]):
                    candidate = chars[:i] + [simpler] + chars[i + 1 :]
                    if self.fails(replaced("".join(candidate))):
                        chars = candidate
                        break
            case = replaced("".join(chars))
        return case


# ---------------------------------------------------------------------------------------------
# Reporting and the main loop.


def show(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def report(index, seed, original, case, diff, variant):
    lines = [
        "DIFFERENCE between toolwire and the %s (set #%d of seed %d), shrunk from %d to %d strings:"
        % (variant.name, index, seed, original.size()[0], case.size()[0]),
        case.describe(),
    ]
    for key, (got, want) in diff.items():
        lines.append("  %s:" % key)
        lines.append("    toolwire: %s" % show(got))
        lines.append("    model:    %s" % show(want))
    lines.append(
        "  reproduce: printf '%%s' %s > set.json && toolwire census set.json %s--json"
        % (shell_quote(json.dumps(case.names)), "".join(shell_quote(a) + " " for a in case.taken_args()))
    )
    if case.calls:
        lines.append(
            "             toolwire resolve --tools set.json %s-- %s"
            % ("".join(shell_quote(a) + " " for a in case.taken_args()), " ".join(shell_quote(c) for c in case.calls))
        )
    return "\n".join(lines)


def shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def run(toolwire, variant, sets, seed, jobs, keep_going, budget, baseline=None):
    """Compares `sets` random cases; returns the shrunk differences found (at most one unless
    `keep_going`, then one per kind: the set of keys that differ)."""
    cases = [random_case(random.Random("%d/%d" % (seed, i))) for i in range(sets)]
    found = []
    kinds = set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for index, case, diff in compare_in_batches(pool, toolwire, variant, cases, baseline):
            if not diff or tuple(sorted(diff)) in kinds:
                continue
            kinds.add(tuple(sorted(diff)))
            shrunk = Shrinker(toolwire, variant, baseline, budget).shrink(case)
            shrunk_diff = difference(toolwire, variant, shrunk, baseline)
            if not shrunk_diff:  # cannot happen unless the CLI is flaky
                shrunk, shrunk_diff = case, diff
            found.append((index, case, shrunk, shrunk_diff))
            if not keep_going:
                break
    return found


def compare_in_batches(pool, toolwire, variant, cases, baseline, batch=64):
    """(index, case, difference) for each case, computed `batch` at a time so a caller that
    stops at the first difference does not wait for (or compete with) the rest."""
    for start in range(0, len(cases), batch):
        part = cases[start : start + batch]
        diffs = list(pool.map(lambda case: difference(toolwire, variant, case, baseline), part))
        for offset, (case, diff) in enumerate(zip(part, diffs)):
            yield start + offset, case, diff


def self_check(toolwire, args):
    """Each broken variant must be caught on the same sets and shrunk to a small input."""
    ok = True
    for variant in [HealsSharedForms(), CutsAt63()]:
        found = run(toolwire, variant, args.sets, args.seed, args.jobs, False, args.budget, Model())
        if not found:
            print("SELF-CHECK FAILED: the %s went unnoticed in %d sets" % (variant.name, args.sets))
            ok = False
            continue
        index, original, shrunk, diff = found[0]
        print(report(index, args.seed, original, shrunk, diff, variant))
        count, chars = shrunk.size()
        if count > 3 or chars > 70:
            print("SELF-CHECK FAILED: the input was not shrunk far enough (%d strings, %d characters)" % (count, chars))
            ok = False
        else:
            print("self-check: the %s was caught and shrunk to %d strings" % (variant.name, count))
    return ok


def main(argv):
    parser = argparse.ArgumentParser(prog="differential.py")
    parser.add_argument("--toolwire", required=True, help="path to the toolwire binary")
    parser.add_argument("--sets", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--budget", type=int, default=4000, help="most comparisons while shrinking")
    parser.add_argument("--all", action="store_true", help="report one difference per kind")
    parser.add_argument("--self-check", action="store_true")
    args = parser.parse_args(argv)
    if not os.access(args.toolwire, os.X_OK):
        print("differential.py: %s is not an executable toolwire" % args.toolwire)
        return 2

    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="toolwire-differential-") as workdir:
        toolwire = Toolwire(args.toolwire, workdir)
        if args.self_check:
            ok = self_check(toolwire, args)
            print("self-check %s (%d toolwire runs, %.1f s)" % ("passed" if ok else "FAILED", toolwire.spawns, time.monotonic() - start))
            return 0 if ok else 1
        found = run(toolwire, Model(), args.sets, args.seed, args.jobs, args.all, args.budget)
        for index, original, shrunk, diff in found:
            print(report(index, args.seed, original, shrunk, diff, Model()))
        elapsed = time.monotonic() - start
        if found:
            print("%d kind(s) of difference (%d toolwire runs, %.1f s)" % (len(found), toolwire.spawns, elapsed))
            return 1
        print("toolwire and the model agree on %d census sets (seed %d, %d toolwire runs, %.1f s)" % (args.sets, args.seed, toolwire.spawns, elapsed))
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
