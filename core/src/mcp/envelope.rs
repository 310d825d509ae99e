//! One parse of a stdio server's message, borrowing from its line: whether it is JSON, what of
//! JSON-RPC its top level has, and, for a tool list, each tool's name and whether it requires
//! MCP tasks. What `message_check.rs` and `stdout_tap.rs` read from every message.
//!
//! Policy: the parse is `serde_json`'s own, on the same path a `serde_json::Value` takes
//! (`deserialize_any` on every value, strings decoded, numbers read, the same recursion limit),
//! so a line is JSON here exactly when it is JSON to `Value` and its error is the same error;
//! only nothing is built. A gateway reads every answer through this (issue 25, section 6: it
//! was parsed into a `Value`, and a tool list a third time), so it allocates only for a key or
//! string it keeps that has an escape in it.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// What the top level of one JSON message has. Duplicate members read as `Value` reads them:
/// the last one counts.
#[derive(Debug, Default)]
pub(crate) struct Envelope {
    /// Whether the message is a JSON object (else nothing below is set).
    pub(crate) is_object: bool,
    /// Whether its `jsonrpc` is the string `"2.0"`.
    pub(crate) jsonrpc_2_0: bool,
    /// Which of `jsonrpc`, `id`, `result` and `error` it has.
    pub(crate) has_jsonrpc: bool,
    pub(crate) has_id: bool,
    pub(crate) has_result: bool,
    pub(crate) has_error: bool,
    /// Whether its `method` is a string.
    pub(crate) method_is_string: bool,
    /// For a `result` that is an object with a `tools` array: each element's `name` (a string)
    /// and whether its `execution.taskSupport` is `"required"`; an element with no string name
    /// is `None`.
    pub(crate) tools: Option<Vec<Option<(String, bool)>>>,
}

impl<'de> Deserialize<'de> for Envelope {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Envelope, D::Error> {
        deserializer.deserialize_any(EnvelopeVisitor)
    }
}

/// Every visit but `visit_map` for a visitor whose value is `Default`: read the value whole
/// (an array's elements, a string decoded) and yield the default.
macro_rules! read_and_default {
    () => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<Read>()?.is_some() {}
            Ok(Default::default())
        }
    };
}

/// The same, and strings too.
macro_rules! read_all_but_maps {
    () => {
        read_and_default!();
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
}

struct EnvelopeVisitor;

impl<'de> Visitor<'de> for EnvelopeVisitor {
    type Value = Envelope;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    read_all_but_maps!();

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Envelope, A::Error> {
        let mut envelope = Envelope {
            is_object: true,
            ..Envelope::default()
        };
        while let Some(Str(key)) = map.next_key::<Str>()? {
            match key.as_deref() {
                Some("jsonrpc") => {
                    envelope.has_jsonrpc = true;
                    envelope.jsonrpc_2_0 = map.next_value::<Str>()?.0.as_deref() == Some("2.0");
                }
                Some("method") => envelope.method_is_string = map.next_value::<Str>()?.0.is_some(),
                Some("result") => {
                    envelope.has_result = true;
                    envelope.tools = map.next_value::<ResultTools>()?.0;
                }
                Some("id") => {
                    envelope.has_id = true;
                    map.next_value::<Read>()?;
                }
                Some("error") => {
                    envelope.has_error = true;
                    map.next_value::<Read>()?;
                }
                _ => {
                    map.next_value::<Read>()?;
                }
            }
        }
        Ok(envelope)
    }
}

/// Any JSON value, read whole and kept nowhere.
struct Read;

impl<'de> Deserialize<'de> for Read {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Read, D::Error> {
        deserializer.deserialize_any(ReadVisitor)
    }
}

struct ReadVisitor;

impl<'de> Visitor<'de> for ReadVisitor {
    type Value = Read;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Read, E> {
        Ok(Read)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Read, E> {
        Ok(Read)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Read, E> {
        Ok(Read)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Read, E> {
        Ok(Read)
    }
    fn visit_unit<E>(self) -> Result<Read, E> {
        Ok(Read)
    }
    fn visit_str<E>(self, _: &str) -> Result<Read, E> {
        Ok(Read)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Read, A::Error> {
        while seq.next_element::<Read>()?.is_some() {}
        Ok(Read)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read, A::Error> {
        while map.next_entry::<Read, Read>()?.is_some() {}
        Ok(Read)
    }
}

/// A value that is a string (borrowed from the line unless it has an escape), or `None` for
/// any other value (read whole).
#[derive(Default)]
struct Str<'de>(Option<Cow<'de, str>>);

impl<'de> Deserialize<'de> for Str<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Str<'de>, D::Error> {
        deserializer.deserialize_any(StrVisitor)
    }
}

struct StrVisitor;

impl<'de> Visitor<'de> for StrVisitor {
    type Value = Str<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    read_and_default!();
    fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Str<'de>, E> {
        Ok(Str(Some(Cow::Borrowed(text))))
    }
    fn visit_str<E>(self, text: &str) -> Result<Str<'de>, E> {
        Ok(Str(Some(Cow::Owned(text.to_owned()))))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Str<'de>, A::Error> {
        while map.next_entry::<Read, Read>()?.is_some() {}
        Ok(Str(None))
    }
}

/// A result's `tools`, when the result is an object and its `tools` an array.
#[derive(Default)]
struct ResultTools(Option<Vec<Option<(String, bool)>>>);

impl<'de> Deserialize<'de> for ResultTools {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ResultTools, D::Error> {
        deserializer.deserialize_any(ResultToolsVisitor)
    }
}

struct ResultToolsVisitor;

impl<'de> Visitor<'de> for ResultToolsVisitor {
    type Value = ResultTools;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    read_all_but_maps!();
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ResultTools, A::Error> {
        let mut tools = None;
        while let Some(Str(key)) = map.next_key::<Str>()? {
            if key.as_deref() == Some("tools") {
                tools = map.next_value::<Tools>()?.0;
            } else {
                map.next_value::<Read>()?;
            }
        }
        Ok(ResultTools(tools))
    }
}

/// An array of tools, each read as [`Tool`]; `None` for any other value.
#[derive(Default)]
struct Tools(Option<Vec<Option<(String, bool)>>>);

impl<'de> Deserialize<'de> for Tools {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tools, D::Error> {
        deserializer.deserialize_any(ToolsVisitor)
    }
}

struct ToolsVisitor;

impl<'de> Visitor<'de> for ToolsVisitor {
    type Value = Tools;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Tools, E> {
        Ok(Tools(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Tools, E> {
        Ok(Tools(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Tools, E> {
        Ok(Tools(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Tools, E> {
        Ok(Tools(None))
    }
    fn visit_unit<E>(self) -> Result<Tools, E> {
        Ok(Tools(None))
    }
    fn visit_str<E>(self, _: &str) -> Result<Tools, E> {
        Ok(Tools(None))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tools, A::Error> {
        let mut tools = Vec::new();
        while let Some(Tool(tool)) = seq.next_element::<Tool>()? {
            tools.push(tool);
        }
        Ok(Tools(Some(tools)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tools, A::Error> {
        while map.next_entry::<Read, Read>()?.is_some() {}
        Ok(Tools(None))
    }
}

/// One listed tool: its `name` when it is a string, and whether its
/// `execution.taskSupport` is `"required"`.
#[derive(Default)]
struct Tool(Option<(String, bool)>);

impl<'de> Deserialize<'de> for Tool {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tool, D::Error> {
        deserializer.deserialize_any(ToolVisitor)
    }
}

struct ToolVisitor;

impl<'de> Visitor<'de> for ToolVisitor {
    type Value = Tool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    read_all_but_maps!();
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tool, A::Error> {
        let (mut name, mut required) = (None, false);
        while let Some(Str(key)) = map.next_key::<Str>()? {
            match key.as_deref() {
                Some("name") => name = map.next_value::<Str>()?.0,
                Some("execution") => required = map.next_value::<Execution>()?.0,
                _ => {
                    map.next_value::<Read>()?;
                }
            }
        }
        Ok(Tool(name.map(|name| (name.into_owned(), required))))
    }
}

/// A tool's `execution`: whether its `taskSupport` is `"required"`.
#[derive(Default)]
struct Execution(bool);

impl<'de> Deserialize<'de> for Execution {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Execution, D::Error> {
        deserializer.deserialize_any(ExecutionVisitor)
    }
}

struct ExecutionVisitor;

impl<'de> Visitor<'de> for ExecutionVisitor {
    type Value = Execution;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    read_all_but_maps!();
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Execution, A::Error> {
        let mut required = false;
        while let Some(Str(key)) = map.next_key::<Str>()? {
            if key.as_deref() == Some("taskSupport") {
                required =
                    super::tool_reading::requires_tasks(map.next_value::<Str>()?.0.as_deref());
            } else {
                map.next_value::<Read>()?;
            }
        }
        Ok(Execution(required))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn a_line_is_json_here_exactly_when_it_is_to_value_with_the_same_error() {
        let lines = [
            &br#"{"jsonrpc":"2.0","id":1,"result":{"n":1e400}}"#[..],
            br#"{"jsonrpc":"2.0","id":1,"result":{"t":"\ud800"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{"t":"\ud83d\ude00"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{}} x"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{"\u0074":[1,{"a":null}]}}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{"t":"a	b"}}"#,
            b"[1,2,{\"a\":tru}]",
            b"18446744073709551616",
            b"\"\\x\"",
        ];
        for line in lines {
            let ours = serde_json::from_slice::<Envelope>(line).map(|_| ());
            let value = serde_json::from_slice::<Value>(line).map(|_| ());
            assert_eq!(
                ours.map_err(|e| e.to_string()),
                value.map_err(|e| e.to_string()),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn the_envelope_and_a_tool_list_are_read_the_last_member_counting() {
        let line = br#"{"jsonrpc":"1.0","jsonrpc":"2.0","id":3,"method":7,"result":{"tools":[
            {"name":"a","execution":{"taskSupport":"required"}},
            {"name":"\u0062","execution":{"taskSupport":"optional"}},
            {"execution":{"taskSupport":"required"}}, 5,
            {"name":"c","execution":{"taskSupport":"required","taskSupport":"forbidden"}}]}}"#;
        let envelope: Envelope = serde_json::from_slice(line).unwrap();
        assert!(envelope.is_object && envelope.jsonrpc_2_0 && envelope.has_id);
        assert!(envelope.has_result && !envelope.has_error && !envelope.method_is_string);
        let tools = envelope.tools.unwrap();
        assert_eq!(
            tools,
            [
                Some(("a".to_owned(), true)),
                Some(("b".to_owned(), false)),
                None,
                None,
                Some(("c".to_owned(), false)),
            ]
        );
        let not_a_list: Envelope =
            serde_json::from_slice(br#"{"result":{"tools":{"name":"a"}},"method":"m"}"#).unwrap();
        assert!(not_a_list.tools.is_none() && not_a_list.method_is_string);
        let array: Envelope = serde_json::from_slice(b"[1]").unwrap();
        assert!(!array.is_object);
    }
}
