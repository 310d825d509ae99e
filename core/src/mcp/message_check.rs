//! Whether a stdio server's message can be read, before the `rmcp` client sees it, and what to
//! do when it cannot: answer the request it answered with an error saying why, or end the
//! connection when it answers no request that can be named.
//!
//! Policy: a message that cannot be read fails at once, never by a timeout. `rmcp`'s stdio
//! reader drops a line `serde_json` cannot parse (its `AsyncRwTransport` skips a syntax error,
//! and a message nested past `serde_json`'s recursion limit is one), so the request it answered
//! would wait out its timeout; here such a line becomes a JSON-RPC error answer to that request
//! (its `id` found without reading the whole message), carrying [`UNREADABLE`] so the error
//! says it is toolwire's reading, not the server's answer. The depth read is
//! [`MAX_MESSAGE_DEPTH`], `serde_json`'s own default (the depth `rmcp` reads at over stdio and
//! streamable HTTP alike): no deeper reading, so no stack to guard. A line that is not JSON at
//! all is passed on (and noted), and JSON with no JSON-RPC member is dropped (and noted): a
//! server that logs to stdout writes such lines, `rmcp` skips them, and we take it that the
//! official SDKs' stdio clients do too (our reading of their readers, which report a line that
//! does not parse and read on; not a cited fact). A message meant as JSON-RPC that answers no
//! request it names ends the connection.

use serde_json::Value;

use super::envelope::Envelope;

/// A passed tool list's tools, as `envelope.rs` reads them: each one's name and whether it
/// requires MCP tasks (`None` for one with no string name).
pub(crate) type ListedTools = Vec<Option<(String, bool)>>;

/// The deepest nesting of arrays and objects read in one message: what `serde_json`'s default
/// recursion limit reads (its `Deserializer` starts with `remaining_depth: 128` and fails when
/// an array or object takes it to 0, so 127 levels read and 128 do not; the test
/// `the_depth_read_is_serde_jsons_own` holds it), which `rmcp` parses every message with.
pub(crate) const MAX_MESSAGE_DEPTH: usize = 127;

/// The `data` of an error answer toolwire writes for a message it could not read.
pub(crate) const UNREADABLE: &str = "toolwire: the server's answer could not be read";

/// The start of the message of that error answer: a call's error carries the message as it is,
/// so it says what happened by itself.
pub(crate) const ANSWER_UNREAD: &str = "its answer could not be read: ";

/// What to do with one line of a stdio server's stdout.
#[derive(Debug, PartialEq)]
pub(crate) enum LineVerdict {
    /// Pass it on as it is.
    Pass,
    /// Pass it on, and note why it will not be read (it is not JSON; `rmcp` skips it).
    PassNoted(String),
    /// Pass this instead: the error answer to the request the line answered.
    Replace(Vec<u8>),
    /// Drop it, and note why (an unreadable message from the server that answers nothing).
    DropNoted(String),
    /// End the connection, saying why: the line answers a request that cannot be named.
    End(String),
}

/// Judges one line (without its newline).
pub(crate) fn check_line(line: &[u8]) -> LineVerdict {
    read_line(line).0
}

/// Judges one line (without its newline), and gives the tools of a tool list it passes: one
/// parse of the line serves both (`envelope.rs`).
pub(crate) fn read_line(line: &[u8]) -> (LineVerdict, Option<ListedTools>) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return (LineVerdict::Pass, None);
    }
    let depth = nesting_depth(line);
    let why = if std::str::from_utf8(line).is_err() {
        "it is not UTF-8".to_owned()
    } else if depth > MAX_MESSAGE_DEPTH {
        format!(
            "it nests arrays and objects {depth} levels deep, deeper than the \
             {MAX_MESSAGE_DEPTH} levels toolwire reads"
        )
    } else {
        match serde_json::from_slice::<Envelope>(line) {
            Err(e) if e.is_syntax() || e.is_eof() => {
                return (
                    LineVerdict::PassNoted(format!(
                        "it wrote a line on stdout that is not JSON: {}",
                        preview(line)
                    )),
                    None,
                )
            }
            Err(e) => format!("it is not JSON: {e}"),
            Ok(message) => match not_json_rpc(&message, line) {
                None => return (LineVerdict::Pass, message.tools),
                // JSON with no JSON-RPC member answers nothing (a server's JSON log line on
                // stdout): skipped as a line that is not JSON is, never the connection's end.
                Some(_) if !claims_json_rpc(&message) => {
                    return (
                        LineVerdict::DropNoted(format!(
                            "it wrote JSON on stdout that is not JSON-RPC: {}",
                            preview(line)
                        )),
                        None,
                    )
                }
                Some(why) => why,
            },
        }
    };
    (unreadable(line, why), None)
}

/// What to do with a line that cannot be read, for `why`.
fn unreadable(line: &[u8], why: String) -> LineVerdict {
    let top = top_level(line);
    if top.has_method {
        return LineVerdict::DropNoted(format!(
            "it sent a message toolwire cannot read ({why}), which was dropped"
        ));
    }
    match top.id {
        Some(id) => LineVerdict::Replace(error_answer(&id, &format!("{ANSWER_UNREAD}{why}"))),
        None => LineVerdict::End(format!(
            "it sent a message toolwire cannot read ({why}) that names no request it answers, \
             so the connection was ended"
        )),
    }
}

/// Whether a JSON value has a member only a JSON-RPC message has (`jsonrpc`, `id`, `result`,
/// `error`): one that is unreadable was meant as JSON-RPC.
fn claims_json_rpc(message: &Envelope) -> bool {
    message.has_jsonrpc || message.has_id || message.has_result || message.has_error
}

/// Why a JSON message is not a JSON-RPC 2.0 message, if it is not: a request or notification
/// has a `method`; a response has an `id` and exactly one of `result` and `error`
/// (JSON-RPC 2.0 specification, sections 4 and 5).
/// `line` is the message's text, read again (as a `Value`) only to say what a message that is
/// not an object is.
fn not_json_rpc(message: &Envelope, line: &[u8]) -> Option<String> {
    if !message.is_object {
        let kind = serde_json::from_slice::<Value>(line).map_or_else(
            |_| "not an object".to_owned(),
            |v| super::tool_reading::kind(&v),
        );
        return Some(format!(
            "it is not a JSON-RPC message: it is {kind}, not an object"
        ));
    }
    if !message.jsonrpc_2_0 {
        return Some("it is not a JSON-RPC message: it has no `\"jsonrpc\": \"2.0\"`".to_owned());
    }
    if message.method_is_string {
        return None;
    }
    let answers = [message.has_result, message.has_error];
    match answers {
        [true, false] | [false, true] if message.has_id => None,
        [true, true] => {
            Some("it is not a JSON-RPC response: it has both a result and an error".to_owned())
        }
        _ if !message.has_id => {
            Some("it is not a JSON-RPC message: it has neither a method nor an id".to_owned())
        }
        _ => Some("it is not a JSON-RPC response: it has neither a result nor an error".to_owned()),
    }
}

/// The JSON-RPC error answer to request `id`: code -32700 ("Parse error", JSON-RPC 2.0
/// section 5.1), `message` as its message and [`UNREADABLE`] as its data.
fn error_answer(id: &Value, message: &str) -> Vec<u8> {
    let answer = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32700, "message": message, "data": UNREADABLE},
    });
    let mut line = answer.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// At most 80 bytes of a line, for a message (lossy, control characters escaped).
fn preview(line: &[u8]) -> String {
    let cut = &line[..line.len().min(80)];
    let text: String = String::from_utf8_lossy(cut).escape_debug().collect();
    if line.len() > 80 {
        format!("`{text}…`")
    } else {
        format!("`{text}`")
    }
}

/// The deepest nesting of `[` and `{` outside strings, read byte by byte without recursion (so
/// any depth is measured without a stack); valid or not.
pub(crate) fn nesting_depth(line: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut in_string = false;
    let mut escaped = false;
    for &b in line {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// What the top level of a message says, read without parsing the whole of it.
#[derive(Debug, Default, PartialEq)]
struct TopLevel {
    /// Its `id`, when it is a number or a string.
    id: Option<Value>,
    /// Whether it has a `method` (a request or notification of the server's, not an answer).
    has_method: bool,
}

/// Reads the members `id` and `method` of a top-level object, skipping everything nested.
fn top_level(line: &[u8]) -> TopLevel {
    let mut top = TopLevel::default();
    let mut depth = 0usize;
    let mut i = 0;
    // The key just read at depth 1, when the next value is its value.
    let mut key: Option<Vec<u8>> = None;
    let mut expect_key = false;
    while i < line.len() {
        let b = line[i];
        match b {
            b'"' => {
                let end = string_end(line, i);
                if depth == 1 {
                    let text = &line[i + 1..end.saturating_sub(1).max(i + 1)];
                    if expect_key {
                        key = Some(text.to_vec());
                        expect_key = false;
                    } else if key.as_deref() == Some(b"id") {
                        top.id =
                            serde_json::from_slice::<Value>(&line[i..end])
                                .ok()
                                .or_else(|| {
                                    Some(Value::String(String::from_utf8_lossy(text).into_owned()))
                                });
                        key = None;
                    } else if key.take().as_deref() == Some(b"method") {
                        top.has_method = true;
                    }
                }
                i = end;
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth == 1 && b == b'{' {
                    expect_key = true;
                } else if depth == 2 && key.take().as_deref() == Some(b"method") {
                    top.has_method = true;
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => {
                expect_key = true;
                key = None;
            }
            b'-' | b'0'..=b'9' if depth == 1 && key.as_deref() == Some(b"id") => {
                let end = (i..line.len())
                    .find(|&j| !matches!(line[j], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                    .unwrap_or(line.len());
                top.id = serde_json::from_slice::<Value>(&line[i..end]).ok();
                key = None;
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    top
}

/// The index just past the string that starts at `start` (a `"`), or the line's end.
fn string_end(line: &[u8], start: usize) -> usize {
    let mut escaped = false;
    for (j, &b) in line.iter().enumerate().skip(start + 1) {
        match b {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'"' => return j + 1,
            _ => {}
        }
    }
    line.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deep(levels: usize) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":7,"result":{}{}}}"#,
            "[".repeat(levels),
            "]".repeat(levels)
        )
    }

    #[test]
    fn a_readable_message_and_a_blank_line_pass() {
        for line in [
            &br#"{"jsonrpc":"2.0","id":1,"result":{}}"#[..],
            br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#,
            br#"{"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"no"}}"#,
            b"  ",
            deep(MAX_MESSAGE_DEPTH - 2).as_bytes(),
        ] {
            assert_eq!(check_line(line), LineVerdict::Pass, "{line:?}");
        }
    }

    #[test]
    fn the_depth_read_is_serde_jsons_own() {
        let nest = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        assert!(serde_json::from_str::<Value>(&nest(MAX_MESSAGE_DEPTH)).is_ok());
        let err = serde_json::from_str::<Value>(&nest(MAX_MESSAGE_DEPTH + 1)).unwrap_err();
        assert!(
            err.to_string().starts_with("recursion limit exceeded"),
            "{err}"
        );
        assert_eq!(
            nesting_depth(nest(MAX_MESSAGE_DEPTH + 1).as_bytes()),
            MAX_MESSAGE_DEPTH + 1
        );
    }

    #[test]
    fn a_too_deep_answer_fails_its_request_naming_the_depth() {
        let LineVerdict::Replace(answer) = check_line(deep(300).as_bytes()) else {
            panic!()
        };
        let answer: Value = serde_json::from_slice(&answer).unwrap();
        assert_eq!(answer["id"], 7);
        assert_eq!(answer["error"]["data"], UNREADABLE);
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("301 levels deep, deeper than the 127"),
            "{message}"
        );
    }

    #[test]
    fn a_line_that_is_not_utf8_fails_its_request_or_the_connection() {
        let mut line = br#"{"jsonrpc":"2.0","id":"x-1","result":{"d":""#.to_vec();
        line.extend_from_slice(&[0xff, 0xfe]);
        line.extend_from_slice(br#""}}"#);
        let LineVerdict::Replace(answer) = check_line(&line) else {
            panic!()
        };
        let answer: Value = serde_json::from_slice(&answer).unwrap();
        assert_eq!(
            (answer["id"].as_str(), answer["error"]["message"].as_str()),
            (
                Some("x-1"),
                Some("its answer could not be read: it is not UTF-8")
            )
        );
        let LineVerdict::End(why) = check_line(&[0xff, b'{', b'}']) else {
            panic!()
        };
        assert!(
            why.contains("not UTF-8") && why.contains("connection was ended"),
            "{why}"
        );
    }

    #[test]
    fn json_that_is_not_json_rpc_fails_its_request_or_the_connection() {
        let cases: [(&[u8], &str); 3] = [
            (
                br#"{"jsonrpc":"2.0","id":3,"tools":[]}"#,
                "neither a result nor an error",
            ),
            (br#"{"id":3,"result":{}}"#, "no `\"jsonrpc\": \"2.0\"`"),
            (
                br#"{"jsonrpc":"2.0","id":3,"result":{},"error":{}}"#,
                "both a result and an error",
            ),
        ];
        for (line, why) in cases {
            let LineVerdict::Replace(answer) = check_line(line) else {
                panic!("{line:?}")
            };
            let answer: Value = serde_json::from_slice(&answer).unwrap();
            assert_eq!(answer["id"], 3);
            assert!(answer["error"]["message"].as_str().unwrap().contains(why));
        }
        // Meant as JSON-RPC, and matched to no request: the connection ends.
        let LineVerdict::End(why) = check_line(br#"{"jsonrpc":"2.0","result":{}}"#) else {
            panic!()
        };
        assert!(why.contains("neither a method nor an id"), "{why}");
        // JSON with nothing of JSON-RPC (a log line): skipped and noted.
        for line in [&br#"{"level":"info","msg":"up"}"#[..], b"[1,2]"] {
            let LineVerdict::DropNoted(why) = check_line(line) else {
                panic!("{line:?}")
            };
            assert!(
                why.starts_with("it wrote JSON on stdout that is not JSON-RPC: `"),
                "{why}"
            );
        }
        // The server's own unreadable notification is dropped, not answered.
        let noisy = format!(
            r#"{{"jsonrpc":"2.0","method":"log","params":{}{}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        assert!(matches!(
            check_line(noisy.as_bytes()),
            LineVerdict::DropNoted(_)
        ));
    }

    #[test]
    fn a_line_that_is_not_json_is_passed_on_and_noted() {
        let LineVerdict::PassNoted(why) = check_line(b"Server listening on stdio\r") else {
            panic!()
        };
        assert_eq!(
            why,
            "it wrote a line on stdout that is not JSON: `Server listening on stdio`"
        );
    }

    #[test]
    fn the_top_level_is_read_past_nested_ids_and_strings() {
        let line = br#"{"result":{"id":9,"s":"\"id\":5"},"id" : -12}"#;
        assert_eq!(top_level(line).id, Some(Value::from(-12)));
        assert_eq!(nesting_depth(br#"{"a":"[[[[","b":[[]]}"#), 3);
    }
}
