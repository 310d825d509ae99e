//! The formats a tool set comes in, told apart once: where its entries stand ([`Layout`]),
//! which shape a tool object has ([`ToolShape`]), and where an entry stood, for messages
//! ([`At`]).
//!
//! Policy: the names reader (`names.rs`, over the sparse parse) and the definitions reader
//! (`definitions.rs`, over `serde_json::Value`) both ask here, through [`JsonView`], so they can
//! never read one file as two different tool sets. What each reader does with a format (check
//! a name, move a schema out) stays with it.

use std::fmt;

/// What the format rules need to see of a parsed JSON value.
pub trait JsonView {
    /// What the value is.
    fn kind(&self) -> Kind;
    /// The member `key`, if the value is an object that has it.
    fn member(&self, key: &str) -> Option<&Self>;
    /// The text, if the value is a string.
    fn as_str(&self) -> Option<&str>;
}

impl JsonView for serde_json::Value {
    fn kind(&self) -> Kind {
        match self {
            serde_json::Value::Null => Kind::Null,
            serde_json::Value::Bool(_) => Kind::Boolean,
            serde_json::Value::Number(_) => Kind::Number,
            serde_json::Value::String(_) => Kind::String,
            serde_json::Value::Array(_) => Kind::Array,
            serde_json::Value::Object(_) => Kind::Object,
        }
    }
    fn member(&self, key: &str) -> Option<&Self> {
        self.as_object()?.get(key)
    }
    fn as_str(&self) -> Option<&str> {
        serde_json::Value::as_str(self)
    }
}

/// What a JSON value is; shown as messages say it (`a number`, `an object`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// Any number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Null => "null",
            Kind::Boolean => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        })
    }
}

/// Where a tool set's entries stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The input is the array of entries.
    Root,
    /// `{"servers": [{"server": "s", "tools": [...]}, ...]}`: the corpus format, whose names
    /// become `mcp/<server>/<tool>`.
    Servers,
    /// `{"tools": [...]}`: an MCP `tools/list` answer.
    Tools,
    /// `{"result": {"tools": [...]}}`: a whole JSON-RPC answer to `tools/list`.
    ResultTools,
}

impl Layout {
    /// The layout of `root`, tried in this order: an array, `servers`, `tools`, `result.tools`
    /// (the first key found decides, even when its value turns out to be of the wrong kind).
    /// `None`: `root` is no tool set.
    pub fn of(root: &impl JsonView) -> Option<Layout> {
        match root.kind() {
            Kind::Array => Some(Layout::Root),
            Kind::Object if root.member("servers").is_some() => Some(Layout::Servers),
            Kind::Object if root.member("tools").is_some() => Some(Layout::Tools),
            Kind::Object
                if root
                    .member("result")
                    .and_then(|result| result.member("tools"))
                    .is_some() =>
            {
                Some(Layout::ResultTools)
            }
            _ => None,
        }
    }
}

/// The shapes a tool object comes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolShape {
    /// OpenAI Chat Completions: `{"type": "function", "function": {"name", "description",
    /// "parameters"}}`.
    ChatFunction,
    /// A flat `{"name", "description", <schema>}`: the Messages API (`input_schema`), MCP
    /// (`inputSchema`), OpenAI Responses and Gemini (`parameters`).
    Flat,
    /// Bedrock Converse: `{"toolSpec": {"name", "description", "inputSchema": {"json"}}}`.
    ToolSpec,
}

impl ToolShape {
    /// The shape of the tool object `tool`, told apart in this order: `function` with `"type":
    /// "function"`, then `name`, then `toolSpec`. `None`: no shape has its name.
    pub fn of(tool: &impl JsonView) -> Option<ToolShape> {
        if tool.member("function").is_some()
            && tool.member("type").and_then(JsonView::as_str) == Some("function")
        {
            Some(ToolShape::ChatFunction)
        } else if tool.member("name").is_some() {
            Some(ToolShape::Flat)
        } else if tool.member("toolSpec").is_some() {
            Some(ToolShape::ToolSpec)
        } else {
            None
        }
    }

    /// The member holding the name, description and schema, or `None` when the tool object
    /// holds them itself.
    pub fn inner(self) -> Option<&'static str> {
        match self {
            ToolShape::ChatFunction => Some("function"),
            ToolShape::Flat => None,
            ToolShape::ToolSpec => Some("toolSpec"),
        }
    }
}

/// The arrays tool entries stand in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    /// The input itself.
    Root,
    /// `tools`.
    Tools,
    /// `result.tools`.
    ResultTools,
    /// `servers[i].tools`.
    Server(usize),
}

impl fmt::Display for List {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            List::Root => Ok(()),
            List::Tools => f.write_str("tools"),
            List::ResultTools => f.write_str("result.tools"),
            List::Server(server) => write!(f, "servers[{server}].tools"),
        }
    }
}

/// Where an entry stood, for messages: `[2]`, `tools[3]`, `result.tools[0]`,
/// `servers[0].tools[1]`. Written out only when a message needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    /// The array it stands in.
    pub list: List,
    /// Its index there.
    pub index: usize,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.list, self.index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn layouts_are_tried_in_order() {
        for (value, layout) in [
            (json!([]), Some(Layout::Root)),
            (json!({"tools": [], "servers": 3}), Some(Layout::Servers)),
            (
                json!({"tools": {}, "result": {"tools": []}}),
                Some(Layout::Tools),
            ),
            (
                json!({"result": {"tools": null}}),
                Some(Layout::ResultTools),
            ),
            (json!({"result": []}), None),
            (json!("tools"), None),
        ] {
            assert_eq!(Layout::of(&value), layout, "{value}");
        }
    }

    #[test]
    fn shapes_are_tried_in_order() {
        for (value, shape) in [
            (
                json!({"type": "function", "function": {}, "name": "x"}),
                Some(ToolShape::ChatFunction),
            ),
            (
                json!({"type": "function", "name": "x"}),
                Some(ToolShape::Flat),
            ),
            (json!({"function": {}, "name": "x"}), Some(ToolShape::Flat)),
            (json!({"toolSpec": {}}), Some(ToolShape::ToolSpec)),
            (json!({"description": "d"}), None),
        ] {
            assert_eq!(ToolShape::of(&value), shape, "{value}");
        }
    }

    #[test]
    fn places_read_as_paths() {
        let at = |list, index| At { list, index }.to_string();
        assert_eq!(at(List::Root, 2), "[2]");
        assert_eq!(at(List::Tools, 3), "tools[3]");
        assert_eq!(at(List::ResultTools, 0), "result.tools[0]");
        assert_eq!(at(List::Server(0), 1), "servers[0].tools[1]");
    }
}
