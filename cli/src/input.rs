//! Tool names from JSON: every format the command reads, and the error for input it cannot use.
//!
//! Policy: never guess and never panic. Input is either read completely or refused with one
//! message that names the source and the place at fault: the line and column of a syntax error
//! (serde_json knows them), or the path of the entry of the wrong shape (`tools[3].name`), since
//! a parsed value no longer knows where it stood in the text.
//!
//! Speed: a tool set can be large (100,000 tools with descriptions and schemas), so the text is
//! parsed into [`Json`], which keeps only the keys a tool name can sit under and skips every
//! other value (descriptions, schemas) without building it. Whole definitions, for the commands
//! that need schemas, are `definitions.rs`, which reads the names here first.

use std::fmt;
use std::io::{IsTerminal, Read};
use std::path::Path;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

/// Input the command cannot use (exit status 2): the message names the source and the place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnusableInput(pub String);

impl fmt::Display for UnusableInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How the tool names were laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Real names as given (an array of names or tool objects, or an object with `tools`).
    Bare,
    /// The corpus format: each name is already `mcp/<server>/<tool>`.
    Corpus,
}

/// Reads `path` (`-` or `None`: standard input) and returns its tool names in input order
/// (duplicates kept: the census reports them); `server` prefixes bare names with `mcp/<server>/`.
pub fn read_names(path: Option<&Path>, server: Option<&str>) -> Result<Vec<String>, UnusableInput> {
    let (label, bytes) = read_source(path)?;
    names_from_json(&label, &bytes, server)
}

/// The label messages use for `path` (`-` or `None`: standard input), and its bytes.
pub fn read_source(path: Option<&Path>) -> Result<(String, Vec<u8>), UnusableInput> {
    match path {
        None => read_stdin(),
        Some(p) if p.as_os_str() == "-" => read_stdin(),
        Some(p) => {
            let label = p.display().to_string();
            match std::fs::read(p) {
                Ok(bytes) => Ok((label, bytes)),
                Err(err) => Err(UnusableInput(format!("{label}: cannot read: {err}"))),
            }
        }
    }
}

/// [`read_source`], but for `None` only when standard input is not a terminal: a person who
/// runs `toolwire census` with no file gets told what to give, not a silent wait.
pub fn read_source_or_piped(path: Option<&Path>) -> Result<(String, Vec<u8>), UnusableInput> {
    if path.is_none() && std::io::stdin().is_terminal() {
        return Err(UnusableInput(
            "no tool set given: name a JSON FILE, pipe one in (or give `-`), or use --mcp-stdio"
                .to_owned(),
        ));
    }
    read_source(path)
}

/// [`read_names`] through [`read_source_or_piped`].
pub fn read_names_or_piped(
    path: Option<&Path>,
    server: Option<&str>,
) -> Result<Vec<String>, UnusableInput> {
    let (label, bytes) = read_source_or_piped(path)?;
    names_from_json(&label, &bytes, server)
}

/// Standard input, labelled `<stdin>` for messages.
fn read_stdin() -> Result<(String, Vec<u8>), UnusableInput> {
    let label = "<stdin>".to_owned();
    let mut bytes = Vec::new();
    match std::io::stdin().lock().read_to_end(&mut bytes) {
        Ok(_) => Ok((label, bytes)),
        Err(err) => Err(UnusableInput(format!("{label}: cannot read: {err}"))),
    }
}

/// The tool names in `bytes` (JSON read from `label`), in input order.
pub fn names_from_json(
    label: &str,
    bytes: &[u8],
    server: Option<&str>,
) -> Result<Vec<String>, UnusableInput> {
    let bytes = without_bom(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(UnusableInput(format!(
            "{label}: the input is empty; expected JSON: an array of tool names or tool objects, \
             an object with `tools` (an MCP tools/list answer) or the corpus format with `servers`"
        )));
    }
    let value: Json = serde_json::from_slice(bytes).map_err(|err| syntax_error(label, &err))?;
    let shape = |message: String| UnusableInput(format!("{label}: {message}"));
    let mut names = Vec::new();
    let layout = match &value {
        Json::Array(entries) => {
            collect_entries(entries, "", &mut names).map_err(shape)?;
            Layout::Bare
        }
        Json::Object(object) => {
            if let Some(servers) = object.get("servers") {
                if server.is_some() {
                    return Err(shape(
                        "--server does not apply to the corpus format: its names are already \
                         mcp/<server>/<tool>"
                            .to_owned(),
                    ));
                }
                collect_corpus(servers, &mut names).map_err(shape)?;
                Layout::Corpus
            } else if let Some(tools) = object.get("tools") {
                collect_tool_list(tools, "tools", &mut names).map_err(shape)?;
                Layout::Bare
            } else if let Some(tools) = object
                .get("result")
                .and_then(Json::as_object)
                .and_then(|result| result.get("tools"))
            {
                // A whole JSON-RPC answer to `tools/list`.
                collect_tool_list(tools, "result.tools", &mut names).map_err(shape)?;
                Layout::Bare
            } else {
                return Err(shape(format!(
                    "expected an array of tool names or tool objects, an object with `tools` \
                     (an MCP tools/list answer) or an object with `servers` (the corpus format); \
                     found an object with {}",
                    describe_keys(object)
                )));
            }
        }
        other => {
            return Err(shape(format!(
                "expected an array of tool names or tool objects, or an object with `tools` or \
                 `servers`; found {}",
                kind(other)
            )))
        }
    };
    if let (Some(server), Layout::Bare) = (server, layout) {
        for name in &mut names {
            *name = toolwire_core::mcp_tool_name(server, name);
        }
    }
    Ok(names)
}

/// `bytes` without a leading byte-order mark: editors on Windows write one; it is not JSON but
/// says nothing wrong.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// A syntax error with its place: `label:line:column: not valid JSON: what`.
pub fn syntax_error(label: &str, err: &serde_json::Error) -> UnusableInput {
    // serde_json's message ends with " at line L column C"; say the place once, up front.
    let message = err.to_string();
    let what = match message.rfind(" at line ") {
        Some(at) => &message[..at],
        None => &message,
    };
    UnusableInput(format!(
        "{label}:{}:{}: not valid JSON: {what}",
        err.line(),
        err.column()
    ))
}

/// The names of a `tools` array at `path`.
fn collect_tool_list(tools: &Json, path: &str, names: &mut Vec<String>) -> Result<(), String> {
    match tools {
        Json::Array(entries) => collect_entries(entries, path, names),
        other => Err(format!("{path} is {}, not an array of tools", kind(other))),
    }
}

/// Each entry of an array: a name, or a tool object whose name is read.
fn collect_entries(entries: &[Json], path: &str, names: &mut Vec<String>) -> Result<(), String> {
    names.reserve(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("{path}[{i}]");
        names.push(entry_name(entry, &at)?);
    }
    Ok(())
}

/// The real name of one entry: a string, or a tool object in one of the shapes below.
fn entry_name(entry: &Json, at: &str) -> Result<String, String> {
    match entry {
        Json::String(name) => Ok(name.clone()),
        Json::Object(tool) => tool_object_name(tool, at),
        other => Err(format!(
            "{at} is {}, not a tool name (a string) or a tool object",
            kind(other)
        )),
    }
}

/// The name of a tool object: OpenAI Chat Completions `{"type":"function","function":{"name"}}`,
/// a flat `{"name", ...}` (Messages API, MCP, OpenAI Responses), or Converse `{"toolSpec":{"name"}}`.
fn tool_object_name(tool: &Object, at: &str) -> Result<String, String> {
    if let Some(function) = tool.get("function") {
        if matches!(tool.get("type"), Some(Json::String(t)) if t == "function") {
            let Json::Object(function) = function else {
                return Err(format!(
                    "{at}.function is {}, not an object",
                    kind(function)
                ));
            };
            return string_field(function, "name", &format!("{at}.function"));
        }
    }
    if tool.contains_key("name") {
        return string_field(tool, "name", at);
    }
    if let Some(spec) = tool.get("toolSpec") {
        let Json::Object(spec) = spec else {
            return Err(format!("{at}.toolSpec is {}, not an object", kind(spec)));
        };
        return string_field(spec, "name", &format!("{at}.toolSpec"));
    }
    Err(format!(
        "{at} has no `name`: expected {{\"name\": ...}}, {{\"type\": \"function\", \"function\": \
         {{\"name\": ...}}}} or {{\"toolSpec\": {{\"name\": ...}}}}; found {}",
        describe_keys(tool)
    ))
}

/// The string member `key` of the object at `at`, or why it is not one.
fn string_field(object: &Object, key: &str, at: &str) -> Result<String, String> {
    match object.get(key) {
        Some(Json::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!("{at}.{key} is {}, not a string", kind(other))),
        None => Err(format!(
            "{at} has no `{key}`; found {}",
            describe_keys(object)
        )),
    }
}

/// The corpus format: `{"servers": [{"server": "s", "tools": ["t", ...]}, ...]}` → `mcp/s/t`.
fn collect_corpus(servers: &Json, names: &mut Vec<String>) -> Result<(), String> {
    let Json::Array(servers) = servers else {
        return Err(format!(
            "servers is {}, not an array of servers",
            kind(servers)
        ));
    };
    for (i, entry) in servers.iter().enumerate() {
        let at = format!("servers[{i}]");
        let Json::Object(entry) = entry else {
            return Err(format!(
                "{at} is {}, not an object with `server` and `tools`",
                kind(entry)
            ));
        };
        let server = string_field(entry, "server", &at)?;
        let tools_at = format!("{at}.tools");
        let tools = match entry.get("tools") {
            Some(Json::Array(tools)) => tools,
            Some(other) => return Err(format!("{tools_at} is {}, not an array", kind(other))),
            None => {
                return Err(format!(
                    "{at} has no `tools`; found {}",
                    describe_keys(entry)
                ))
            }
        };
        for (j, tool) in tools.iter().enumerate() {
            let tool = entry_name(tool, &format!("{tools_at}[{j}]"))?;
            names.push(toolwire_core::mcp_tool_name(&server, &tool));
        }
    }
    Ok(())
}

/// `a number`, `an object`: what a JSON value is, for messages.
fn kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool => "a boolean",
        Json::Number => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// `keys `a`, `b``, at most eight of them, for messages.
fn describe_keys(object: &Object) -> String {
    if object.len == 0 {
        return "no keys".to_owned();
    }
    let mut keys: Vec<String> = object.first_keys.iter().map(|k| format!("`{k}`")).collect();
    if object.len > object.first_keys.len() {
        keys.push(format!("and {} more", object.len - object.first_keys.len()));
    }
    format!("keys {}", keys.join(", "))
}

/// The keys a tool name can sit under, in any format read: the only ones [`Json`] keeps.
const KEPT_KEYS: [&str; 8] = [
    "name", "type", "function", "toolSpec", "tools", "servers", "server", "result",
];

/// How many key names an [`Object`] remembers for messages.
const KEYS_SHOWN: usize = 8;

/// A JSON value reduced to what tool names need: strings and structure under [`KEPT_KEYS`];
/// numbers and booleans only as their kind.
#[derive(Debug)]
enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// Any number.
    Number,
    /// A string, kept.
    String(String),
    /// An array, every element kept.
    Array(Vec<Json>),
    /// An object, only its [`KEPT_KEYS`] members kept.
    Object(Object),
}

impl Json {
    /// The object, if this is one.
    fn as_object(&self) -> Option<&Object> {
        match self {
            Json::Object(object) => Some(object),
            _ => None,
        }
    }
}

/// A JSON object: its kept members, the names of its first keys and how many keys it has.
#[derive(Debug, Default)]
struct Object {
    /// The members under [`KEPT_KEYS`], in order.
    kept: Vec<(&'static str, Json)>,
    /// The first [`KEYS_SHOWN`] keys, for messages.
    first_keys: Vec<String>,
    /// How many members the object has.
    len: usize,
}

impl Object {
    /// The member `key` (the last one, as serde_json does, if the key is repeated).
    fn get(&self, key: &str) -> Option<&Json> {
        self.kept
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    /// Whether the object has the member `key`.
    fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Builds a [`Json`] from any JSON value.
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Json, E> {
        Ok(Json::Bool)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Json, E> {
        Ok(Json::Number)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Json, E> {
        Ok(Json::Number)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Json, E> {
        Ok(Json::Number)
    }
    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut object = Object::default();
        while let Some(key) = map.next_key_seed(KeySeed {
            remember: object.len < KEYS_SHOWN,
        })? {
            object.len += 1;
            if let Some(text) = key.text {
                object.first_keys.push(text);
            }
            match key.kept {
                Some(kept) => object.kept.push((kept, map.next_value()?)),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Json::Object(object))
    }
}

/// An object key: which kept key it is, and its text if the object still remembers keys.
struct Key {
    /// The kept key it is, if it is one.
    kept: Option<&'static str>,
    /// Its text, while the object remembers keys.
    text: Option<String>,
}

/// Reads one object key without allocating unless its text is remembered.
struct KeySeed {
    /// Whether to keep the key's text.
    remember: bool,
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }
    fn visit_str<E>(self, key: &str) -> Result<Key, E> {
        Ok(Key {
            kept: KEPT_KEYS.iter().copied().find(|k| *k == key),
            text: self.remember.then(|| key.to_owned()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(json: &str) -> Result<Vec<String>, String> {
        names_from_json("f.json", json.as_bytes(), None).map_err(|e| e.0)
    }

    #[test]
    fn every_tool_object_shape_gives_its_name() {
        let json = r#"[
            "plain",
            {"type": "function", "function": {"name": "openai.chat"}},
            {"type": "function", "name": "openai.responses"},
            {"name": "messages/api", "input_schema": {}},
            {"toolSpec": {"name": "converse"}}
        ]"#;
        assert_eq!(
            names(json).unwrap(),
            [
                "plain",
                "openai.chat",
                "openai.responses",
                "messages/api",
                "converse"
            ]
        );
    }

    #[test]
    fn a_tools_list_answer_is_read_bare_or_whole() {
        assert_eq!(names(r#"{"tools": [{"name": "a"}]}"#).unwrap(), ["a"]);
        let rpc = r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "b"}, 3]}}"#;
        assert_eq!(
            names(rpc).unwrap_err(),
            "f.json: result.tools[1] is a number, not a tool name (a string) or a tool object"
        );
    }

    #[test]
    fn server_prefixes_bare_names_only() {
        let bare = names_from_json("f", br#"{"tools": [{"name": "echo"}]}"#, Some("s")).unwrap();
        assert_eq!(bare, ["mcp/s/echo"]);
        let corpus = br#"{"servers": [{"server": "s", "tools": ["echo"]}]}"#;
        assert!(names_from_json("f", corpus, Some("s")).is_err());
        assert_eq!(names_from_json("f", corpus, None).unwrap(), ["mcp/s/echo"]);
    }

    #[test]
    fn syntax_errors_name_line_and_column_once() {
        let err = names("[\n  \"a\",\n  b\n]").unwrap_err();
        assert_eq!(err, "f.json:3:3: not valid JSON: expected value");
    }

    #[test]
    fn shape_errors_name_the_entry() {
        for (json, expected) in [
            (
                r#"{"tools": [{"name": "a"}, {"name": 7}]}"#,
                "tools[1].name is a number, not a string",
            ),
            (
                r#"[{"type": "function", "function": []}]"#,
                "[0].function is an array, not an object",
            ),
            (
                r#"[{"type": "function", "function": {"name": null}}]"#,
                "[0].function.name is null, not a string",
            ),
            (
                r#"{"servers": [{"server": "s", "tools": ["a", true]}]}"#,
                "servers[0].tools[1] is a boolean, not a tool name (a string) or a tool object",
            ),
            (
                r#"{"servers": [{"tools": []}]}"#,
                "servers[0] has no `server`; found keys `tools`",
            ),
            (
                r#"{"tools": {}}"#,
                "tools is an object, not an array of tools",
            ),
            (r#"[{"description": "d"}]"#, "[0] has no `name`"),
            ("42", "found a number"),
            (r#"{"a": 1}"#, "found an object with keys `a`"),
        ] {
            let err = names(json).unwrap_err();
            assert!(err.starts_with("f.json: "), "{err}");
            assert!(err.contains(expected), "{json}: {err}");
        }
    }

    #[test]
    fn empty_input_is_unusable_and_a_bom_is_not() {
        assert!(names(" \n\t").unwrap_err().contains("the input is empty"));
        assert_eq!(
            names_from_json("f", b"\xEF\xBB\xBF[\"a\"]", None).unwrap(),
            ["a"]
        );
    }

    #[test]
    fn an_empty_name_is_read_for_the_census_to_judge() {
        assert_eq!(names(r#"["", {"name": ""}]"#).unwrap(), ["", ""]);
    }
}
