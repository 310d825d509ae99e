#!/usr/bin/env python3
"""Seeds the `calls` fuzz target with every recorded body and stream of
fixtures/provider-wire/ (every *.json, *.sse and *.jsonl but index.json).

Usage (from fuzz/): python3 seeds/calls.py CORPUS_DIR

Each file goes in behind the target's two header bytes (fuzz_targets/calls.rs): byte 0 is its
format (CallFormat::ALL's order; 0..=4 read the rest as text, a body and a stream), byte 1 how
many cut lengths follow. Each file is written twice, whole (`[format, 0]`) and cut into chunks
of 1, 7, 31 and 3 bytes, cycled (`[format, 4, 0, 6, 30, 2]`), so the fuzzer starts from both a
whole and a chunked stream. The files of `written/` are named by their format.
"""
import hashlib
import os
import sys

FORMATS = ["openai-chat", "openai-responses", "anthropic", "converse", "gemini"]
HEADERS = (lambda i: bytes([i, 0]), lambda i: bytes([i, 4, 0, 6, 30, 2]))


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: seeds/calls.py CORPUS_DIR")
    corpus = sys.argv[1]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../fixtures/provider-wire")
    os.makedirs(corpus, exist_ok=True)
    files = 0
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            stem, ext = os.path.splitext(name)
            if ext not in (".json", ".sse", ".jsonl") or name == "index.json":
                continue
            relative = os.path.relpath(folder, root)
            format_name = stem if relative == "written" else relative.split(os.sep)[0]
            if format_name not in FORMATS:
                sys.exit(f"{os.path.join(relative, name)}: no format for it")
            text = open(os.path.join(folder, name), "rb").read()
            for header in HEADERS:
                seed = header(FORMATS.index(format_name)) + text
                digest = hashlib.sha1(seed).hexdigest()[:12]
                with open(os.path.join(corpus, "seed-" + digest), "wb") as out:
                    out.write(seed)
            files += 1
    print(f"{files} fixture files, {2 * files} seeds in {corpus}")


if __name__ == "__main__":
    main()
