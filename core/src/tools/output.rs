//! What a tool said, kept as it said it: a JSON value, or content blocks (text, image, audio, a
//! resource link, an embedded resource) beside a structured result.
//!
//! Policy: nothing here flattens. An image stays an image with its MIME type and data, so each
//! wire format carries it where it can and names it where it cannot (`wire::answers`), never as
//! base64 text; an MCP server serving a [`ToolOutput`] back gives its client the same blocks
//! (each block's serde form *is* MCP's `ContentBlock` JSON, its unknown members kept in
//! `extra`). These types are toolwire's own, so the `runtime` feature builds without `rmcp`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::content::ContentBlock;

/// A tool's output: what a `#[tool]`, a closure provider or a meta-tool returned (a JSON
/// value), or what an MCP tool returned (content blocks and a structured result, distinct).
///
/// `From<Value>` makes the first, so a closure provider stays `|_, args| async move { Ok(args) }`.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::tools::{ContentBlock, ToolContent, ToolOutput};
///
/// let value = ToolOutput::from(json!({"temperature": 18}));
/// assert_eq!(value.as_json(), Some(&json!({"temperature": 18})));
///
/// let radar = ToolOutput::Content(ToolContent::new(vec![
///     ContentBlock::text("Radar image for Paris:"),
///     ContentBlock::image("iVBORw0KGgo=", "image/png"),
/// ]));
/// assert_eq!(radar.as_json(), None); // blocks, not a value: nothing was flattened
/// assert_eq!(radar.text(), "Radar image for Paris:");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ToolOutput {
    /// A JSON value, as the tool returned it.
    Json(Value),
    /// Content blocks and a structured result (an MCP `CallToolResult`).
    Content(ToolContent),
}

/// An MCP tool's result as the server sent it: `content` (what the model reads),
/// `structuredContent` (what a program reads; the MCP spec says a server that sends it
/// SHOULD also send it serialized as a text block, so both may be present) and `isError`.
/// Source: the MCP schema's `CallToolResult` (modelcontextprotocol.io, specification
/// 2025-06-18, server/tools "Tool Result").
///
/// ```
/// use serde_json::json;
/// use toolwire_core::tools::{ContentBlock, ToolContent};
/// let content = ToolContent::new(vec![ContentBlock::text("18 °C")]).with_structured(json!({"c": 18}));
/// assert_eq!(content.structured, Some(json!({"c": 18})));
/// assert!(!content.is_error);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolContent {
    /// The content blocks, in the server's order.
    #[serde(default)]
    pub content: Vec<ContentBlock>,
    /// The structured result (`structuredContent`), when the server sent one.
    #[serde(
        default,
        rename = "structuredContent",
        skip_serializing_if = "Option::is_none"
    )]
    pub structured: Option<Value>,
    /// Whether the server said the result is an error (`isError`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_error: bool,
    /// The result's other members (`_meta`, and any later addition of the spec), kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ToolContent {
    /// A successful result of these blocks, without a structured result.
    ///
    /// ```
    /// use toolwire_core::tools::{ContentBlock, ToolContent};
    /// assert_eq!(ToolContent::new(vec![ContentBlock::text("hi")]).content.len(), 1);
    /// ```
    pub fn new(content: Vec<ContentBlock>) -> ToolContent {
        ToolContent {
            content,
            ..ToolContent::default()
        }
    }

    /// This result with a structured result.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::tools::ToolContent;
    /// let content = ToolContent::new(Vec::new()).with_structured(json!({"ok": true}));
    /// assert_eq!(content.structured, Some(json!({"ok": true})));
    /// ```
    pub fn with_structured(mut self, structured: Value) -> ToolContent {
        self.structured = Some(structured);
        self
    }

    /// This result marked as an error (`isError: true`).
    ///
    /// ```
    /// use toolwire_core::tools::{ContentBlock, ToolContent};
    /// assert!(ToolContent::new(vec![ContentBlock::text("no such city")]).as_error().is_error);
    /// ```
    pub fn as_error(mut self) -> ToolContent {
        self.is_error = true;
        self
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl From<Value> for ToolOutput {
    fn from(value: Value) -> ToolOutput {
        ToolOutput::Json(value)
    }
}

impl From<ToolContent> for ToolOutput {
    fn from(content: ToolContent) -> ToolOutput {
        ToolOutput::Content(content)
    }
}

/// A JSON output equal to the value: what a test of a `#[tool]` or a closure provider asserts.
/// Content blocks never equal a value (compare [`ToolOutput::to_value`] for that).
impl PartialEq<Value> for ToolOutput {
    fn eq(&self, other: &Value) -> bool {
        self.as_json() == Some(other)
    }
}

/// A JSON output that is this string.
impl PartialEq<&str> for ToolOutput {
    fn eq(&self, other: &&str) -> bool {
        self.as_json().and_then(Value::as_str) == Some(*other)
    }
}

impl ToolOutput {
    /// The JSON value, for a JSON output; `None` for content blocks.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::tools::ToolOutput;
    /// assert_eq!(ToolOutput::from(json!(7)).as_json(), Some(&json!(7)));
    /// ```
    pub fn as_json(&self) -> Option<&Value> {
        match self {
            ToolOutput::Json(value) => Some(value),
            ToolOutput::Content(_) => None,
        }
    }

    /// Whether the tool said its result is an error (an MCP `isError: true` result).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::tools::{ContentBlock, ToolContent, ToolOutput};
    /// assert!(!ToolOutput::from(json!("fine")).is_error());
    /// let failed = ToolContent::new(vec![ContentBlock::text("no such city")]).as_error();
    /// assert!(ToolOutput::from(failed).is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        matches!(self, ToolOutput::Content(content) if content.is_error)
    }

    /// The text blocks' text, joined by newlines (a JSON output: its value as JSON text, a
    /// string as itself). Images and other blocks are not text and are not in it.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::tools::ToolOutput;
    /// assert_eq!(ToolOutput::from(json!({"a": 1})).text(), r#"{"a":1}"#);
    /// assert_eq!(ToolOutput::from(json!("sunny")).text(), "sunny");
    /// ```
    pub fn text(&self) -> String {
        match self {
            ToolOutput::Json(value) => json_text(value),
            ToolOutput::Content(content) => {
                let texts: Vec<&str> = content
                    .content
                    .iter()
                    .filter_map(ContentBlock::as_text)
                    .collect();
                texts.join("\n")
            }
        }
    }

    /// One JSON value for the output, for an app that wants one (the runtime's own reading of
    /// an output before outputs kept their kind): a JSON output's value; else the structured
    /// result when there is one; else each block's value (a text block's text as JSON when it
    /// parses, else as a string; any other block as its MCP JSON), one block alone, several as
    /// an array. Lossy for blocks by design: the wire formats read the blocks themselves.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::tools::{ContentBlock, ToolContent, ToolOutput};
    /// let text = ToolOutput::from(ToolContent::new(vec![ContentBlock::text(r#"{"tool":"echo"}"#)]));
    /// assert_eq!(text.to_value(), json!({"tool": "echo"}));
    /// ```
    pub fn to_value(&self) -> Value {
        let content = match self {
            ToolOutput::Json(value) => return value.clone(),
            ToolOutput::Content(content) => content,
        };
        if let Some(structured) = &content.structured {
            return structured.clone();
        }
        let values: Vec<Value> = content
            .content
            .iter()
            .map(|block| match block.as_text() {
                Some(text) => {
                    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
                }
                None => serde_json::to_value(block).unwrap_or(Value::Null),
            })
            .collect();
        match <[Value; 1]>::try_from(values) {
            Ok([one]) => one,
            Err(many) => Value::Array(many),
        }
    }
}

/// A JSON value as the model reads it in text: a string as itself, anything else as compact
/// JSON.
pub(crate) fn json_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
