#!/usr/bin/env python3
"""Drives `toolwire serve` with the MCP Python SDK 2.x client and prints what it saw.

The Rust test (cli/tests/serve/python_client.rs) runs this with the venv's python
(scripts/setup/10-python-venv.sh) and asserts on the one JSON object printed on stdout.
This script only calls and reports: every check is the test's.

    python_client.py MODE --http URL STEP...
    python_client.py MODE --stdio COMMAND ARG... -- STEP...

MODE is `mcp.client.client.Client`'s `mode=`: "legacy" (initialize), "auto" (server/discover,
then initialize if the server does not know it) or "2026-07-28" (adopted without a probe).
Source: mcp 2.3.0, mcp/client/client.py, `Client.mode` and `Client.__aenter__`.

Each STEP is JSON: {"list": true}, or {"call": NAME, "arguments": {...}}. The report is
{"protocol_version": ..., "steps": [...]}, a step's entry being
{"tools": [names]} for a list, {"is_error": bool, "text": ...} for a call answered with a
result, {"error": {"code", "message"}} for a call answered with a JSON-RPC error (MCPError).
A failure to connect is {"connect_error": ...}, any other exception {"error": ...} after the
steps done so far; both exit with status 2.
"""

from __future__ import annotations

import asyncio
import json
import sys
import warnings

from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

# The SDK warns about deprecated revisions (e.g. legacy mode); the report is on stdout only.
warnings.simplefilter("ignore")


def parse(argv: list[str]) -> tuple[str, object, list[dict]]:
    mode, kind, rest = argv[0], argv[1], argv[2:]
    if kind == "--http":
        return mode, rest[0], [json.loads(s) for s in rest[1:]]
    if kind == "--stdio":
        cut = rest.index("--")
        command, steps = rest[:cut], rest[cut + 1 :]
        server = StdioServerParameters(command=command[0], args=command[1:])
        return mode, server, [json.loads(s) for s in steps]
    raise SystemExit(f"usage: {__doc__}")


def text_of(result) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", None) == "text")


async def step(client: Client, spec: dict) -> dict:
    if spec.get("list"):
        tools, cursor = [], None
        while True:
            page = await client.list_tools(cursor=cursor)
            tools += [t.name for t in page.tools]
            cursor = page.next_cursor
            if cursor is None:
                return {"tools": tools}
    try:
        result = await client.call_tool(spec["call"], spec.get("arguments", {}))
    except MCPError as e:
        return {"error": {"code": e.code, "message": e.error.message}}
    return {"is_error": bool(result.is_error), "text": text_of(result)}


async def main() -> int:
    mode, server, steps = parse(sys.argv[1:])
    report: dict = {}
    try:
        async with Client(server, mode=mode) as client:
            report["protocol_version"] = client.protocol_version
            report["steps"] = []
            for spec in steps:
                report["steps"].append(await step(client, spec))
    except Exception as e:  # noqa: BLE001 - the test shows whatever stopped the client
        where = "error" if "protocol_version" in report else "connect_error"
        report[where] = f"{type(e).__name__}: {e!r}"
        print(json.dumps(report))
        return 2
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
