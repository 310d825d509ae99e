//! The CLI's JSON input parsing (`toolwire_cli::input::names_from_json`, `cli/src/input/`),
//! differentially against a plain reference over `serde_json::Value` that walks the same
//! documented shapes.
//!
//! Properties: it never panics; it reads exactly the names the reference reads, in order; it
//! refuses exactly what the reference refuses, with a message that starts with the source label
//! (a syntax error with its line and column); it may accept text `serde_json::Value` refuses
//! only where serde_json itself skips an ignored value without checking it (a number out of f64
//! range, a string's escapes or UTF-8), i.e. inside a description or schema it never reads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolwire_cli::input;

fuzz_target!(|data: &[u8]| {
    // The first byte picks --server (none, a plain one, or one with JSON-ish characters).
    let (server, text) = match data.split_first() {
        Some((b, rest)) => (
            match b % 4 {
                0 | 1 => None,
                2 => Some("s"),
                _ => Some("a/\"b é"),
            },
            rest,
        ),
        None => (None, data),
    };
    let got = input::names_from_json("f", text, server);
    if let Err(input::UnusableInput(message)) = &got {
        assert!(message.starts_with("f:"), "{message}");
    }

    let stripped = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    if stripped.iter().all(u8::is_ascii_whitespace) {
        let message = got.expect_err("empty input accepted").0;
        assert!(message.contains("the input is empty"), "{message}");
        return;
    }
    match serde_json::from_slice::<Value>(stripped) {
        Ok(value) => {
            let want = reference(&value, server);
            match (&got, &want) {
                (Ok(names), Ok(want)) => assert_eq!(names, want),
                (Err(input::UnusableInput(message)), Err(())) => {
                    assert!(message.starts_with("f: "), "not a shape error: {message}");
                }
                _ => panic!("cli {got:?} but reference {want:?} for {value}"),
            }
        }
        Err(err) if LENIENT.iter().any(|l| err.to_string().contains(l)) => {
            // serde_json refuses what the CLI's reader may skip unchecked: the CLI may read
            // it (then a shape error or names) or stop at a later syntax error.
        }
        Err(err) => match &got {
            Err(input::UnusableInput(message)) => {
                // A syntax error, with its place. Not always serde_json's words or place for
                // the same text: serde_json reports errors inside a skipped value differently
                // from a built one (a trailing comma is "expected value", a control character
                // in a string is placed before it, not after).
                let (line, rest) = message["f:".len()..]
                    .split_once(':')
                    .expect("f:LINE:COLUMN:");
                let (column, rest) = rest.split_once(':').expect("f:LINE:COLUMN:");
                assert!(line.parse::<usize>().is_ok_and(|l| l >= 1), "{message}");
                assert!(column.parse::<usize>().is_ok(), "{message}");
                assert!(rest.starts_with(" not valid JSON: "), "{message}");
            }
            Ok(names) => panic!("cli read {names:?} from text serde_json refuses: {err}"),
        },
    }
});

/// What serde_json checks when it builds a value but not when it skips one.
const LENIENT: &[&str] = &[
    "number out of range",
    "invalid unicode code point",
    "lone leading surrogate",
    "unexpected end of hex escape",
    "invalid escape",
];

/// The documented shapes, over a full `Value`.
fn reference(value: &Value, server: Option<&str>) -> Result<Vec<String>, ()> {
    let mut names = Vec::new();
    let bare = match value {
        Value::Array(entries) => {
            for e in entries {
                names.push(entry_name(e)?);
            }
            true
        }
        Value::Object(object) => {
            if let Some(servers) = object.get("servers") {
                if server.is_some() {
                    return Err(());
                }
                for entry in servers.as_array().ok_or(())? {
                    let entry = entry.as_object().ok_or(())?;
                    let server = entry.get("server").and_then(Value::as_str).ok_or(())?;
                    for tool in entry.get("tools").and_then(Value::as_array).ok_or(())? {
                        names.push(mcp_name(server, &entry_name(tool)?));
                    }
                }
                false
            } else {
                let tools = match object.get("tools") {
                    Some(tools) => tools,
                    None => object
                        .get("result")
                        .and_then(Value::as_object)
                        .and_then(|r| r.get("tools"))
                        .ok_or(())?,
                };
                for e in tools.as_array().ok_or(())? {
                    names.push(entry_name(e)?);
                }
                true
            }
        }
        _ => return Err(()),
    };
    if let (Some(server), true) = (server, bare) {
        for name in &mut names {
            *name = mcp_name(server, name);
        }
    }
    Ok(names)
}

/// `mcp/<server>/<tool>`; an empty tool name stays empty (the census reports it as empty).
fn mcp_name(server: &str, tool: &str) -> String {
    if tool.is_empty() {
        String::new()
    } else {
        format!("mcp/{server}/{tool}")
    }
}

fn entry_name(entry: &Value) -> Result<String, ()> {
    let string = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned).ok_or(());
    match entry {
        Value::String(s) => Ok(s.clone()),
        Value::Object(tool) => {
            if let Some(function) = tool.get("function") {
                if tool.get("type").and_then(Value::as_str) == Some("function") {
                    return string(function.as_object().ok_or(())?.get("name"));
                }
            }
            if tool.contains_key("name") {
                return string(tool.get("name"));
            }
            match tool.get("toolSpec") {
                Some(spec) => string(spec.as_object().ok_or(())?.get("name")),
                None => Err(()),
            }
        }
        _ => Err(()),
    }
}
