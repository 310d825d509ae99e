//! A stdio MCP server's raw output, line by line, as the client reads it: the check that
//! decides whether each message can be read (`core/src/mcp/message_check.rs`), and every
//! `tools/list` answer read tool by tool (`core/src/mcp/tool_reading.rs`).
//!
//! Properties (issue 20): no panic and no hang on any input; a line passes exactly when it is
//! blank or a JSON-RPC 2.0 message within the depth read, and is passed on with a note exactly
//! when it is not JSON; every other line is answered (an error answer, one line, to the request
//! its top-level `id` names, marked toolwire's own), dropped or ends the connection; a tool list
//! yields one read per listed tool, a refused tool named by its string name or else by
//! `tools[N]`, a valid one keeping its name and object schema, lenient exactly when
//! `inputSchema` is missing or null.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolwire_core::mcp::__fuzz::{
    check_line, nesting_depth, read_page, MAX_MESSAGE_DEPTH, UNREADABLE,
};

/// Whether `message` is a JSON-RPC 2.0 message (specification sections 4 and 5): the reference.
fn is_json_rpc(message: &Value) -> bool {
    let Some(object) = message.as_object() else {
        return false;
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return false;
    }
    if object.get("method").is_some_and(Value::is_string) {
        return true;
    }
    object.contains_key("id") && (object.contains_key("result") != object.contains_key("error"))
}

/// Checks the tool-by-tool reading of one `tools/list` result against the raw JSON.
fn check_tool_list(result: &Value, first: usize) {
    let listed = result.get("tools").and_then(Value::as_array);
    let cursor_ok = matches!(
        result.get("nextCursor"),
        None | Some(Value::Null) | Some(Value::String(_))
    );
    match read_page(result, first) {
        Err(why) => assert!(
            !result.is_object() || listed.is_none() || !cursor_ok,
            "a tool list refused as a whole: {why}"
        ),
        Ok((tools, _)) => {
            let listed = listed.expect("read as a list, so it has a tools array");
            assert_eq!(tools.len(), listed.len());
            for (i, (read, raw)) in tools.iter().zip(listed).enumerate() {
                let name = raw.get("name").and_then(Value::as_str);
                match read {
                    Ok((read_name, schema, lenient)) => {
                        assert_eq!(Some(read_name.as_str()), name);
                        match raw.get("inputSchema") {
                            None | Some(Value::Null) => assert!(lenient.is_some()),
                            Some(given @ Value::Object(_)) => {
                                assert!(lenient.is_none());
                                assert_eq!(schema, given);
                            }
                            Some(other) => panic!("a valid tool with the schema {other}"),
                        }
                    }
                    Err((read_name, reason)) => {
                        assert!(!reason.is_empty());
                        match name {
                            Some(name) if raw.is_object() => assert_eq!(read_name, name),
                            _ => assert_eq!(read_name, &format!("tools[{}]", first + i)),
                        }
                    }
                }
            }
        }
    }
}

fn check(line: &[u8]) {
    let (verdict, said) = check_line(line);
    let body = line.strip_suffix(b"\r").unwrap_or(line);
    let blank = body.iter().all(u8::is_ascii_whitespace);
    let utf8 = std::str::from_utf8(body).is_ok();
    let shallow = nesting_depth(body) <= MAX_MESSAGE_DEPTH;
    let parsed = (utf8 && shallow).then(|| serde_json::from_slice::<Value>(body));
    let readable = blank || matches!(&parsed, Some(Ok(message)) if is_json_rpc(message));
    let not_json = matches!(&parsed, Some(Err(e)) if e.is_syntax() || e.is_eof());
    match verdict {
        "pass" => assert!(readable, "passed unreadable: {line:?}"),
        "pass_noted" => assert!(not_json && !blank, "noted: {line:?}"),
        "replace" => {
            assert!(!readable && !not_json, "replaced: {line:?}");
            assert!(said.ends_with(b"\n") && said.iter().filter(|b| **b == b'\n').count() == 1);
            let answer: Value = serde_json::from_slice(&said).expect("the answer is JSON");
            assert!(is_json_rpc(&answer));
            assert!(
                answer["id"].is_number() || answer["id"].is_string(),
                "{answer}"
            );
            assert_eq!(answer["error"]["data"], UNREADABLE);
            assert_eq!(answer["error"]["code"], -32700);
        }
        "drop_noted" | "end" => assert!(!readable && !not_json && !said.is_empty()),
        other => panic!("verdict {other}"),
    }
    if let (true, Some(Ok(message))) = (readable, &parsed) {
        if let Some(result) = message.get("result") {
            if result.get("tools").is_some() {
                check_tool_list(result, 0);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    for line in data.split(|b| *b == b'\n') {
        check(line);
    }
    // The reader on any JSON value as a result, deeper than a message's lines make it.
    if let Ok(value) = serde_json::from_slice::<Value>(data) {
        check_tool_list(&value, 3);
        if let Some(result) = value.get("result") {
            check_tool_list(result, 0);
        }
    }
});
