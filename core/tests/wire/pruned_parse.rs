//! A body given as text or bytes is read keeping only the members its format's parser reads
//! (`wire/calls/pruned.rs`, each parser's `READ`): the calls and errors must be exactly those of
//! `parse` over the whole `Value`, for every response fixture and for variants of it that
//! move, repeat, cut or break its members, or put a choice whose `index` is not its position
//! in front. A parser that comes to read a member its `READ` leaves out reads it as absent
//! here, and this test fails where a fixture's variant holds that member with a value that
//! matters (a member no fixture holds is not caught).

use serde_json::{Map, Value};
use toolwire_core::wire::calls::{BodyError, CallParser, ToolCall};

use crate::fixtures::{bytes, entries};

/// What a body of text must give: `from_str` of it whole, then `parse`.
fn expected(
    parser: &CallParser,
    format_error: impl Fn(String) -> BodyError,
    text: &[u8],
) -> Result<Vec<ToolCall>, BodyError> {
    match serde_json::from_slice::<Value>(text) {
        Ok(body) => parser.parse(&body),
        Err(error) => Err(format_error(error.to_string())),
    }
}

/// `value` as JSON text with each object's members in reverse order, and each member written
/// twice, first with `null` (a body with repeated keys: the last one counts, for `Value` and
/// for the pruned read alike).
fn reordered_and_repeated(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            out.push('{');
            let members: Vec<(&String, &Value)> = map.iter().rev().collect();
            for (at, (key, member)) in members.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                let key = serde_json::to_string(key).unwrap();
                out.push_str(&format!("{key}:null,{key}:"));
                reordered_and_repeated(member, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (at, item) in items.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                reordered_and_repeated(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[test]
fn the_pruned_read_gives_what_parse_of_the_whole_value_gives() {
    let mut checked = 0;
    for entry in entries("response") {
        let format = entry.format();
        let whole = bytes(&entry.file);
        let body: Value = serde_json::from_slice(&whole).unwrap();
        let mut reordered = String::new();
        reordered_and_repeated(&body, &mut reordered);
        // Wrapped in members no parser reads, holding the body too.
        let mut wrapper = Map::new();
        wrapper.insert("zzz".into(), body.clone());
        let mut wrapped = body.clone();
        if let Value::Object(map) = &mut wrapped {
            map.insert("extra".into(), Value::Object(wrapper));
        }
        // A choice (or candidate) whose `index` is not its position in front: the parsers
        // read the turn by `index`, not by position.
        let mut second = body.clone();
        for list in ["choices", "candidates"] {
            if let Some(Value::Array(items)) = second.get_mut(list) {
                if let Some(mut first) = items.first().cloned() {
                    first["index"] = 1.into();
                    items.insert(0, first);
                }
            }
        }
        let mut texts: Vec<Vec<u8>> = vec![
            whole.clone(),
            reordered.into_bytes(),
            serde_json::to_vec_pretty(&wrapped).unwrap(),
            serde_json::to_vec(&second).unwrap(),
        ];
        // Cut at every seventh byte, and broken by one byte at every thirteenth.
        for at in (0..whole.len()).step_by(7) {
            texts.push(whole[..at].to_vec());
        }
        for at in (0..whole.len()).step_by(13) {
            for byte in [b'"', b'{', b']', b'x', b'0', 0xff] {
                let mut broken = whole.clone();
                broken[at] = byte;
                texts.push(broken);
            }
        }
        for limit in [usize::MAX, 8] {
            let parser = CallParser::new(format).max_argument_bytes(limit);
            let not_json = |message| BodyError::NotJson { format, message };
            for text in &texts {
                let want = expected(&parser, not_json, text);
                assert_eq!(parser.parse_slice(text), want, "{} (slice)", entry.file);
                if let Ok(text) = std::str::from_utf8(text) {
                    assert_eq!(parser.parse_str(text), want, "{} (str)", entry.file);
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked} bodies");
}
