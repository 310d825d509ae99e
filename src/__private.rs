//! Not public API. Used by generated code.
//!
//! Everything `#[tool]` expands to goes through `::toolwire::__private`, so a user adds one
//! dependency (`toolwire`) and the expansion never depends on the user's imports. The helpers
//! here keep the generated code small: one generic call per argument.

use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures::FutureExt;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

pub use futures;
pub use inventory;
pub use schemars;
pub use serde;
pub use serde_json;
pub use toolwire_core::{
    tools::{ToolFuture, ToolInput, ToolRegistration},
    AppState, State, ToolError,
};

use toolwire_core::provider::{arguments_as_object, caught_panic};

/// The parameters' object schema of one tool, built one argument at a time.
pub struct ObjectSchema {
    generator: SchemaGenerator,
    properties: Map<String, Value>,
    required: Vec<Value>,
}

impl Default for ObjectSchema {
    fn default() -> Self {
        ObjectSchema::new()
    }
}

impl ObjectSchema {
    /// An empty object schema. Subschemas are inlined (no `$ref` to resolve) and carry no
    /// `$schema`; only a recursive type keeps a `$ref`, into `$defs` at the root.
    pub fn new() -> ObjectSchema {
        let settings = SchemaSettings::draft2020_12()
            .with(|s| {
                s.inline_subschemas = true;
                s.meta_schema = None;
            })
            .for_deserialize();
        ObjectSchema {
            generator: settings.into_generator(),
            properties: Map::new(),
            required: Vec::new(),
        }
    }

    /// Adds the argument `key` of type `T`, described by `description` (none when empty). It is
    /// required unless `null` is one of its values (an `Option`): exactly when the handler
    /// refuses a call that leaves it out.
    pub fn property<T: JsonSchema + DeserializeOwned>(&mut self, key: &str, description: &str) {
        let mut schema = match self.generator.subschema_for::<T>().to_value() {
            Value::Bool(true) => Value::Object(Map::new()),
            Value::Bool(false) => serde_json::json!({"not": {}}),
            other => other,
        };
        strip_numeric_formats(&mut schema);
        if let (Value::Object(map), false) = (&mut schema, description.is_empty()) {
            map.insert("description".to_owned(), Value::from(description));
        }
        self.properties.insert(key.to_owned(), schema);
        if serde_json::from_value::<T>(Value::Null).is_err() {
            self.required.push(Value::from(key));
        }
    }

    /// The finished schema: `{"type":"object","properties":{...}}`, with `required` when an
    /// argument is.
    pub fn finish(mut self) -> Value {
        let mut root = Map::new();
        root.insert("type".to_owned(), Value::from("object"));
        root.insert("properties".to_owned(), Value::Object(self.properties));
        if !self.required.is_empty() {
            root.insert("required".to_owned(), Value::Array(self.required));
        }
        let definitions = self.generator.take_definitions(true);
        if !definitions.is_empty() {
            root.insert("$defs".to_owned(), Value::Object(definitions));
        }
        Value::Object(root)
    }
}

/// Removes the `format` schemars derives from a Rust number type (`uint8`, `int64`, `double`…)
/// everywhere in `schema`. No provider needs it (the bounds, where the type has them, stay as
/// `minimum`/`maximum`, and the handler's own deserialisation enforces the type), and most
/// dialects refuse it: OpenAI strict and the Messages API strict take string formats only,
/// Gemini takes `int32`/`int64`/`float`/`double` but not `uint8`. Without it, a `#[tool]`
/// schema needs no rewrite for them.
fn strip_numeric_formats(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            let numeric = match map.get("type") {
                Some(Value::String(t)) => t == "integer" || t == "number",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer" || t == "number"),
                _ => false,
            };
            if numeric {
                map.remove("format");
            }
            // Data keywords hold values, not schemas: a default that looks like one stays.
            map.iter_mut()
                .filter(|(k, _)| !matches!(k.as_str(), "default" | "examples" | "enum" | "const"))
                .for_each(|(_, v)| strip_numeric_formats(v));
        }
        Value::Array(list) => list.iter_mut().for_each(strip_numeric_formats),
        _ => {}
    }
}

fn invalid(tool: &str, argument: Option<&str>, reason: String) -> ToolError {
    ToolError::InvalidArguments {
        tool: tool.to_owned(),
        argument: argument.map(str::to_owned),
        reason,
    }
}

/// The call's arguments as an object (`null` counts as `{}`), refusing any key the tool does not
/// take: a misspelt optional argument is an error the model can act on, not silently dropped.
pub fn arguments_object(
    tool: &str,
    arguments: Value,
    known: &[&str],
) -> Result<Map<String, Value>, ToolError> {
    let map = arguments_as_object(tool, arguments)?;
    if let Some(unknown) = map.keys().find(|k| !known.contains(&k.as_str())) {
        let takes = if known.is_empty() {
            "this tool takes no arguments".to_owned()
        } else {
            let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            format!("this tool takes {}", list.join(", "))
        };
        return Err(invalid(
            tool,
            Some(unknown),
            format!("unknown argument; {takes}"),
        ));
    }
    Ok(map)
}

/// Takes the argument `key` out of `arguments` and deserializes it. A missing argument is
/// deserialized from `null`, so an `Option` becomes `None` and anything else is an error.
pub fn take_argument<T: DeserializeOwned>(
    tool: &str,
    arguments: &mut Map<String, Value>,
    key: &str,
) -> Result<T, ToolError> {
    match arguments.remove(key) {
        Some(value) => serde_json::from_value(value)
            .map_err(|error| invalid(tool, Some(key), error.to_string())),
        None => serde_json::from_value(Value::Null).map_err(|_| {
            invalid(
                tool,
                Some(key),
                "missing; this argument is required".to_owned(),
            )
        }),
    }
}

/// An argument filled from the app state rather than the call's JSON.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not `toolwire::State<T>`, but a #[tool] argument whose type is named `State` receives app state",
    label = "an argument of a type named `State` is filled from the app state",
    note = "write `toolwire::State<T>` to receive app state, or give your own type another name to make it a JSON argument"
)]
pub trait FromAppState: Sized {
    /// The value for `tool` from `state`.
    fn from_app_state(state: &AppState, tool: &str) -> Result<Self, ToolError>;
}

impl<T: Send + Sync + 'static> FromAppState for State<T> {
    fn from_app_state(state: &AppState, tool: &str) -> Result<Self, ToolError> {
        State::from_app_state(state, tool)
    }
}

/// A plain return value, serialized.
pub fn value_output<T: Serialize>(tool: &str, value: T) -> Result<Value, ToolError> {
    serde_json::to_value(value).map_err(|error| ToolError::BadOutput {
        tool: tool.to_owned(),
        reason: error.to_string(),
    })
}

/// A `Result` return value: `Ok` serialized, `Err` a [`ToolError::Failed`] with its message.
#[diagnostic::on_unimplemented(
    message = "#[tool] returns `{Self}`, but a tool's `Result<T, E>` needs `T: Serialize` and `E: Display`",
    label = "the `Ok` value must implement `serde::Serialize` and the error `std::fmt::Display`"
)]
pub trait ResultOutput {
    /// The call's outcome.
    fn into_tool_output(self, tool: &str) -> Result<Value, ToolError>;
}

impl<T: Serialize, E: std::fmt::Display> ResultOutput for Result<T, E> {
    fn into_tool_output(self, tool: &str) -> Result<Value, ToolError> {
        match self {
            Ok(value) => value_output(tool, value),
            Err(error) => Err(ToolError::Failed {
                tool: tool.to_owned(),
                message: error.to_string(),
            }),
        }
    }
}

/// A sync tool's handler: the tool runs when the handler is called (not when the future is
/// polled), with a panic caught as [`ToolError::Panicked`]; the outcome is a ready future. One
/// non-generic function for every sync tool keeps each tool cheap to compile.
pub fn guard_sync(
    tool: &'static str,
    run: fn(ToolInput) -> Result<Value, ToolError>,
    input: ToolInput,
) -> ToolFuture {
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| run(input)))
        .unwrap_or_else(|panic| Err(caught_panic(tool, &*panic)));
    Box::pin(futures::future::ready(outcome))
}

/// The handler's future, boxed, with a panic inside the tool caught as
/// [`ToolError::Panicked`] (a tool never takes the runtime down).
pub fn guard<F>(tool: &'static str, future: F) -> ToolFuture
where
    F: Future<Output = Result<Value, ToolError>> + Send + 'static,
{
    Box::pin(async move {
        match AssertUnwindSafe(future).catch_unwind().await {
            Ok(outcome) => outcome,
            Err(panic) => Err(caught_panic(tool, &*panic)),
        }
    })
}
