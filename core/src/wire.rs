//! Tool definitions and their provider wire shapes (hops 2 and 3 of the spec).
//!
//! Policy: only offered tools travel, each under its model-safe form, with its description and
//! parameter schema verbatim; shape changes between providers, the name string does not.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::census::Census;
use crate::provider_rules::{check_definition_name, Provider};

/// A tool as the app defines it: its real name, what it does and its parameters' JSON schema.
///
/// ```
/// use toolwire_core::ToolDefinition;
/// let def = ToolDefinition::new("mcp/server/echo", "Echoes its input.", serde_json::json!({
///     "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]
/// }));
/// assert_eq!(def.name, "mcp/server/echo");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolDefinition {
    /// The real name: the tool's identity.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// The parameters' JSON schema: an object schema.
    pub parameters: Value,
}

impl ToolDefinition {
    /// A definition from its parts.
    ///
    /// ```
    /// let def = toolwire_core::ToolDefinition::new("t", "d", serde_json::Value::Null);
    /// assert_eq!(def.parameters_schema()["type"], "object");
    /// ```
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: Value,
    ) -> ToolDefinition {
        ToolDefinition {
            name: name.into(),
            description: description.into(),
            parameters,
        }
    }

    /// The parameter schema the wire carries: the tool's own object schema verbatim, or
    /// `{"type":"object","properties":{}}` for a tool with no arguments (a missing, null or
    /// empty schema; an object schema with no `properties` gets an empty one).
    ///
    /// ```
    /// use serde_json::json;
    /// let def = toolwire_core::ToolDefinition::new("t", "d", json!({}));
    /// assert_eq!(def.parameters_schema(), json!({"type": "object", "properties": {}}));
    /// ```
    pub fn parameters_schema(&self) -> Value {
        match &self.parameters {
            Value::Object(map) if !map.is_empty() => {
                let mut map = map.clone();
                if map.get("type").and_then(Value::as_str) == Some("object") {
                    map.entry("properties")
                        .or_insert_with(|| Value::Object(Map::new()));
                }
                Value::Object(map)
            }
            _ => json!({"type": "object", "properties": {}}),
        }
    }
}

/// A provider's request shape for tools.
///
/// ```
/// use toolwire_core::WireFormat;
/// assert_eq!(WireFormat::ALL.len(), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireFormat {
    /// OpenAI: `{"type":"function","function":{name, description, parameters}}`.
    OpenAi,
    /// The Anthropic Messages API: `{name, description, input_schema}`.
    Anthropic,
    /// Bedrock Converse: `{"toolSpec":{name, description, "inputSchema":{"json":…}}}`. Converse
    /// refuses an empty description, so a tool without one is described by its real name.
    Converse,
    /// Gemini: one `{"functionDeclarations":[{name, description, parameters}, …]}`.
    Gemini,
}

impl WireFormat {
    /// Every wire format.
    ///
    /// ```
    /// use toolwire_core::{Provider, WireFormat};
    /// assert_eq!(WireFormat::ALL.map(WireFormat::provider), Provider::ALL);
    /// ```
    pub const ALL: [WireFormat; 4] = [
        WireFormat::OpenAi,
        WireFormat::Anthropic,
        WireFormat::Converse,
        WireFormat::Gemini,
    ];

    /// The provider whose name rule applies to this shape.
    ///
    /// ```
    /// use toolwire_core::{Provider, WireFormat};
    /// assert_eq!(WireFormat::Converse.provider(), Provider::Converse);
    /// ```
    pub fn provider(self) -> Provider {
        match self {
            WireFormat::OpenAi => Provider::OpenAi,
            WireFormat::Anthropic => Provider::Anthropic,
            WireFormat::Converse => Provider::Converse,
            WireFormat::Gemini => Provider::Gemini,
        }
    }

    /// One definition in this shape, under `form`.
    fn one(self, form: &str, def: &ToolDefinition) -> Value {
        let schema = def.parameters_schema();
        match self {
            WireFormat::OpenAi => json!({
                "type": "function",
                "function": {"name": form, "description": def.description, "parameters": schema},
            }),
            WireFormat::Anthropic => json!({
                "name": form, "description": def.description, "input_schema": schema,
            }),
            // Converse refuses an empty description, and one bad tool fails the whole request:
            // an undescribed tool travels described by its real name.
            WireFormat::Converse => json!({
                "toolSpec": {
                    "name": form,
                    "description": if def.description.is_empty() { &def.name } else { &def.description },
                    "inputSchema": {"json": schema},
                },
            }),
            WireFormat::Gemini => json!({
                "name": form, "description": def.description, "parameters": schema,
            }),
        }
    }
}

/// The value of a request's tool list in `format`: the offered tools of `census`, each under its
/// model-safe form, in census order, except a form the format's provider refuses (Gemini wants
/// a letter or `_` first), which is left out of that list with a warning. `definitions` are the census input, in the same order.
/// Gemini's list is one `{"functionDeclarations":[…]}` object (an empty list when nothing is
/// offered).
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{wire_tools, Census, ToolDefinition, WireFormat, META_TOOLS};
///
/// let defs = [ToolDefinition::new("mcp/server/echo", "Echoes.", json!(null))];
/// let census = Census::build(defs.iter().map(|d| &d.name), &META_TOOLS);
/// let tools = wire_tools(&census, &defs, WireFormat::Anthropic).unwrap();
/// assert_eq!(tools, json!([{
///     "name": "mcp_server_echo", "description": "Echoes.",
///     "input_schema": {"type": "object", "properties": {}},
/// }]));
/// ```
pub fn wire_tools(
    census: &Census,
    definitions: &[ToolDefinition],
    format: WireFormat,
) -> Result<Value, WireMismatch> {
    if census.tools().len() != definitions.len() {
        return Err(WireMismatch::Count {
            census: census.tools().len(),
            definitions: definitions.len(),
        });
    }
    let mut list = Vec::new();
    for (index, (tool, def)) in census.tools().iter().zip(definitions).enumerate() {
        if tool.name() != def.name {
            return Err(WireMismatch::Name {
                index,
                census: tool.name().to_owned(),
                definition: def.name.clone(),
            });
        }
        if !tool.is_offered() {
            continue;
        }
        // One refused name fails the whole request: a form this provider refuses (Gemini
        // wants a letter or `_` first) stays out of its list, loudly.
        match check_definition_name(format.provider(), tool.form()) {
            Ok(()) => list.push(format.one(tool.form(), def)),
            Err(why) => tracing::warn!(
                tool = tool.name(),
                form = tool.form(),
                "tool left out of the {} tool list: {why}; rename it",
                format.provider()
            ),
        }
    }
    Ok(match format {
        WireFormat::Gemini if list.is_empty() => json!([]),
        WireFormat::Gemini => json!([{"functionDeclarations": list}]),
        _ => Value::Array(list),
    })
}

/// The definitions handed to [`wire_tools`] are not the census's input.
///
/// ```
/// use toolwire_core::{wire_tools, Census, ToolDefinition, WireFormat};
/// let census = Census::build(["a"], &[]);
/// let err = wire_tools(&census, &[ToolDefinition::new("b", "d", serde_json::json!({}))], WireFormat::OpenAi);
/// assert!(err.unwrap_err().to_string().contains("`b`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WireMismatch {
    /// Different counts.
    #[error("the census has {census} tools but {definitions} definitions were given")]
    Count {
        /// Tools in the census.
        census: usize,
        /// Definitions given.
        definitions: usize,
    },
    /// A definition does not match the census entry at its position.
    #[error("definition {index} is `{definition}` but the census has `{census}` there")]
    Name {
        /// The position.
        index: usize,
        /// The census's real name there.
        census: String,
        /// The definition's name there.
        definition: String,
    },
}
