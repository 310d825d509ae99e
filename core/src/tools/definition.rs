//! A tool's definition: its real name, description and parameter schema, and what its server
//! says about it (title, annotations) and whether the runtime can call it.
//!
//! Policy: the name is the identity and travels only as its form; title and annotations are for
//! the app and its approval hook, never for the wire.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// A tool as the app defines it: its real name, what it does and its parameters' JSON schema.
///
/// ```
/// use toolwire_core::ToolDefinition;
/// let def = ToolDefinition::new("mcp/server/echo", "Echoes its input.", serde_json::json!({
///     "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]
/// }));
/// assert_eq!(def.name, "mcp/server/echo");
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolDefinition {
    /// The real name: the tool's identity.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// The parameters' JSON schema: an object schema.
    pub parameters: Value,
    /// A name for people (MCP's `title`): shown by an app, never sent as the tool's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool's server says about it (MCP's `annotations`): hints for the app and its
    /// approval hook, never guarantees.
    #[serde(default, skip_serializing_if = "ToolAnnotations::is_empty")]
    pub annotations: ToolAnnotations,
    /// Why this runtime cannot call the tool, when it cannot (an MCP tool whose
    /// `execution.taskSupport` is `required`): the runtime keeps it in the census, withheld
    /// from every request, and a call to it fails with this reason instead of reaching it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsupported: Option<String>,
    /// Whether the tool reads an explicit `null` for an optional property exactly as it reads
    /// the property's absence. True for every `#[tool]` (serde's `Option`); false by default,
    /// because an MCP server may treat `"limit": null` and no `limit` apart. A strict dialect
    /// that makes optional properties required-or-null is then exact for this tool, not a loss
    /// (`tool-schema-wire.md`, "Strict, revised").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub null_is_absent: bool,
    /// The JSON schema of the tool's structured result (MCP's `outputSchema`, 2025-06-18 on),
    /// when its server gave one. Carried as it came: toolwire never sends it to an LLM API (no
    /// provider takes one for a function tool), and a server serving this tool lists it again.
    /// MCP 2025-06-18, "Tools" → "Output Schema": "If an output schema is provided: Servers
    /// MUST provide structured results that conform to this schema"
    /// (<https://modelcontextprotocol.io/specification/2025-06-18/server/tools#output-schema>).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// The schema the code that runs the tool checks every call against before it runs, when
    /// that code says it does: set only by
    /// [`ToolRegistration::definition`](crate::tools::ToolRegistration::definition) of a
    /// registration that validates (every `#[tool]`, whose handler checks each call with
    /// `jsonschema`: `toolwire::__private::validated_arguments`). Not read from JSON
    /// (`serde(skip)`): a definition from a file or an MCP server says nothing about what checks
    /// its arguments. Kept as the schema itself, so [`ToolDefinition::validates_arguments`]
    /// holds only while `parameters` is still that schema; ignored by `==`.
    #[serde(skip)]
    pub(crate) validated_against: Option<Arc<Value>>,
}

/// Equal when every field a definition shows is equal: `validated_against` is what the code
/// that runs the tool checks, not part of the definition (a serde round trip drops it).
impl PartialEq for ToolDefinition {
    fn eq(&self, other: &ToolDefinition) -> bool {
        let ToolDefinition {
            name,
            description,
            parameters,
            title,
            annotations,
            unsupported,
            null_is_absent,
            output_schema,
            validated_against: _,
        } = self;
        *name == other.name
            && *description == other.description
            && *parameters == other.parameters
            && *title == other.title
            && *annotations == other.annotations
            && *unsupported == other.unsupported
            && *null_is_absent == other.null_is_absent
            && *output_schema == other.output_schema
    }
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
            title: None,
            annotations: ToolAnnotations::default(),
            unsupported: None,
            null_is_absent: false,
            output_schema: None,
            validated_against: None,
        }
    }

    /// This definition with a title for people.
    ///
    /// ```
    /// let def = toolwire_core::ToolDefinition::new("echo", "Echoes.", serde_json::json!({}))
    ///     .with_title("Echo Tool");
    /// assert_eq!(def.title.as_deref(), Some("Echo Tool"));
    /// ```
    pub fn with_title(mut self, title: impl Into<String>) -> ToolDefinition {
        self.title = Some(title.into());
        self
    }

    /// This definition with its server's annotations.
    ///
    /// ```
    /// use toolwire_core::{ToolDefinition, tools::ToolAnnotations};
    /// let hints = ToolAnnotations { read_only_hint: Some(true), ..Default::default() };
    /// let def = ToolDefinition::new("read", "Reads.", serde_json::json!({})).with_annotations(hints);
    /// assert_eq!(def.annotations.read_only_hint, Some(true));
    /// ```
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> ToolDefinition {
        self.annotations = annotations;
        self
    }

    /// This definition marked as one the runtime cannot call, and why.
    ///
    /// ```
    /// let def = toolwire_core::ToolDefinition::new("research", "Researches.", serde_json::json!({}))
    ///     .unsupported_because("it requires MCP tasks");
    /// assert_eq!(def.unsupported.as_deref(), Some("it requires MCP tasks"));
    /// ```
    pub fn unsupported_because(mut self, reason: impl Into<String>) -> ToolDefinition {
        self.unsupported = Some(reason.into());
        self
    }

    /// This definition marked as one whose tool reads an explicit `null` for an optional
    /// property as the property's absence (see [`ToolDefinition::null_is_absent`]).
    ///
    /// ```
    /// let def = toolwire_core::ToolDefinition::new("t", "d", serde_json::json!({}))
    ///     .with_null_is_absent(true);
    /// assert!(def.null_is_absent);
    /// ```
    pub fn with_null_is_absent(mut self, null_is_absent: bool) -> ToolDefinition {
        self.null_is_absent = null_is_absent;
        self
    }

    /// Whether the code that runs the tool refuses every argument outside its own
    /// [`parameters`](Self::parameters) before it runs: true only for the definition of a
    /// registration that validates (every `#[tool]`), and only while `parameters` is still the
    /// schema it validates against. What makes a loss on the way to a provider *guarded* rather
    /// than *unguarded*, and only beside the runner's word: the runtime asks the provider that
    /// runs the tool ([`crate::provider::ToolProvider::validates_arguments`]), the rail the
    /// registration, and a bare definition has none
    /// ([`SchemaReport::of_definition_run_by`](crate::schema::SchemaReport::of_definition_run_by)).
    ///
    /// A deep compare of `parameters` with the schema validated, per call: a tenth or less of
    /// the `prepare_definition_cached` hit each route that asks it makes beside it
    /// (`core/benches/schema.rs`, `validates_arguments_*`: 544 ns against 8.74 µs for a
    /// quickstart tool's schema); `parameters` is a public field, so no flag set once could
    /// see it change.
    ///
    /// ```
    /// use toolwire_core::ToolDefinition;
    /// // An MCP server's tool, or one read from a file: nothing on our side checks its arguments.
    /// assert!(!ToolDefinition::new("t", "d", serde_json::json!({})).validates_arguments());
    /// ```
    pub fn validates_arguments(&self) -> bool {
        self.validated_against.as_deref() == Some(&self.parameters)
    }

    /// Whether a loss on the way to a provider is *guarded* when this definition is run by
    /// code that does (`runner_validates`) or does not validate: the runner's word and
    /// [`validates_arguments`](Self::validates_arguments) both. The one judge the runtime's
    /// report, the rail and [`SchemaReport::of_definition_run_by`](crate::schema::SchemaReport::of_definition_run_by)
    /// ask.
    ///
    /// ```
    /// use toolwire_core::ToolDefinition;
    /// let bare = ToolDefinition::new("t", "d", serde_json::json!({}));
    /// // A runner's word is not enough: the definition must be the schema it validates.
    /// assert!(!bare.guarded_when_run(true) && !bare.guarded_when_run(false));
    /// ```
    pub fn guarded_when_run(&self, runner_validates: bool) -> bool {
        runner_validates && self.validates_arguments()
    }

    /// Marks the definition of a registration whose handler validates against `parameters`
    /// as they are now.
    pub(crate) fn validated_against_its_parameters(mut self) -> ToolDefinition {
        self.validated_against = Some(Arc::new(self.parameters.clone()));
        self
    }

    /// This definition with the JSON schema of its structured result (MCP's `outputSchema`).
    ///
    /// ```
    /// use serde_json::json;
    /// let def = toolwire_core::ToolDefinition::new("weather", "Weather.", json!({}))
    ///     .with_output_schema(json!({"type": "object", "properties": {"c": {"type": "number"}}}));
    /// assert_eq!(def.output_schema.unwrap()["type"], "object");
    /// ```
    pub fn with_output_schema(mut self, schema: Value) -> ToolDefinition {
        self.output_schema = Some(schema);
        self
    }

    /// The parameter schema the wire carries: the tool's own object schema verbatim, or
    /// `{"type":"object","properties":{}}` for a tool with no arguments (a missing, null or
    /// empty schema; an object schema with no `properties` gets an empty one). Anything else
    /// (`false`, a string) is handed on as it is, and every dialect refuses it.
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
            Value::Object(_) | Value::Null => json!({"type": "object", "properties": {}}),
            // Not a schema of arguments at all: sent on as it is, for the dialects to refuse
            // loudly, never turned into "any arguments".
            other => other.clone(),
        }
    }
}

/// What a tool's server says about it (MCP's `ToolAnnotations`): hints, not guarantees. Each is
/// `None` when the server did not say.
///
/// ```
/// use toolwire_core::tools::ToolAnnotations;
/// let hints: ToolAnnotations = serde_json::from_value(serde_json::json!({
///     "readOnlyHint": true, "openWorldHint": false
/// })).unwrap();
/// assert_eq!(hints.read_only_hint, Some(true));
/// assert_eq!(hints.destructive_hint, None);
/// assert!(ToolAnnotations::default().is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// The tool does not change its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy or overwrite (meaningful when not read-only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling the tool twice with the same arguments does nothing more the second time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool reaches an open world (the web), not a closed one (a local store).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// Whether the server said nothing.
    ///
    /// ```
    /// let hints = toolwire_core::tools::ToolAnnotations { idempotent_hint: Some(false), ..Default::default() };
    /// assert!(!hints.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        *self == ToolAnnotations::default()
    }
}
