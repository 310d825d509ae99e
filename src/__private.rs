//! Not public API. Used by generated code.
//!
//! Everything `#[tool]` expands to goes through `::toolwire::__private`, so a user adds one
//! dependency (`toolwire`) and the expansion never depends on the user's imports. The helpers
//! here keep the generated code small: one generic call per argument.

use std::future::Future;
use std::panic::AssertUnwindSafe;

use std::sync::OnceLock;

use futures::FutureExt;
use schemars::generate::SchemaSettings;
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

/// The parameters' schema of one tool: the JSON schema of its generated arguments struct `T`
/// (one field per JSON argument, with the argument's `#[serde]`/`#[schemars]` attributes),
/// closed at every level ([`close_objects`]).
///
/// Subschemas are inlined (no `$ref` to resolve) and the schema carries no `$schema` nor the
/// struct's `title`; only a recursive type keeps a `$ref`, into `$defs` at the root. An argument
/// is required unless it is an `Option` or has `#[serde(default)]`: exactly when the handler
/// refuses a call that leaves it out.
pub fn arguments_schema<T: JsonSchema>() -> Value {
    finished_schema(schema_generator().into_root_schema_for::<T>().to_value())
}

/// The generator of [`arguments_schema`], in one non-generic function (compiled once).
fn schema_generator() -> schemars::SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .for_deserialize()
        .into_generator()
}

/// What [`arguments_schema`] does to the struct's schema, in one non-generic function.
fn finished_schema(mut schema: Value) -> Value {
    if let Value::Object(root) = &mut schema {
        root.remove("title");
        if let Some(Value::Object(properties)) = root.get_mut("properties") {
            // `true`/`false` as an argument's schema (a `serde_json::Value` argument) is
            // written as the object schemas providers read.
            for property in properties.values_mut() {
                match property {
                    Value::Bool(true) => *property = Value::Object(Map::new()),
                    Value::Bool(false) => *property = serde_json::json!({"not": {}}),
                    _ => {}
                }
            }
        } else if root.get("type").and_then(Value::as_str) == Some("object") {
            root.insert("properties".to_owned(), Value::Object(Map::new()));
        }
    }
    strip_numeric_formats(&mut schema);
    close_objects(&mut schema);
    schema
}

/// The parameters' object schema of a tool whose arguments carry no `#[serde]`/`#[schemars]`
/// attributes, built one argument at a time: the generic code is per argument type, shared by
/// every tool of a crate (the derived struct of [`arguments_schema`] is per tool). It writes
/// what [`arguments_schema`] writes for the same arguments.
pub struct ObjectSchema {
    generator: schemars::SchemaGenerator,
    properties: Map<String, Value>,
    required: Vec<Value>,
}

impl Default for ObjectSchema {
    fn default() -> Self {
        ObjectSchema::new()
    }
}

impl ObjectSchema {
    /// An empty object schema, with [`arguments_schema`]'s settings.
    pub fn new() -> ObjectSchema {
        ObjectSchema {
            generator: schema_generator(),
            properties: Map::new(),
            required: Vec::new(),
        }
    }

    /// Adds the argument `key` of type `T`, described by `description` (none when empty). It is
    /// required unless `null` is one of its values (an `Option`): exactly when the handler
    /// refuses a call that leaves it out ([`take_argument`] reads a missing one as `null`).
    pub fn property<T: JsonSchema + DeserializeOwned>(&mut self, key: &str, description: &str) {
        let schema = self.generator.subschema_for::<T>().to_value();
        let optional = serde_json::from_value::<T>(Value::Null).is_ok();
        self.add(key, description, schema, optional);
    }

    /// The non-generic part of [`ObjectSchema::property`], compiled once.
    fn add(&mut self, key: &str, description: &str, mut schema: Value, optional: bool) {
        if let (Value::Object(map), false) = (&mut schema, description.is_empty()) {
            map.insert("description".to_owned(), Value::from(description));
        }
        self.properties.insert(key.to_owned(), schema);
        if !optional {
            self.required.push(Value::from(key));
        }
    }

    /// The finished schema, as [`arguments_schema`] finishes its own: `{"type": "object",
    /// "properties": {...}}`, `required` when an argument is, `$defs` for a recursive type,
    /// closed at every level.
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
        finished_schema(Value::Object(root))
    }
}

/// The call's arguments as an object, checked against the tool's own `schema` (see
/// [`parse_arguments`]), for [`take_argument`] to take one at a time.
pub fn validated_object(
    tool: &str,
    validator: &ArgumentsValidator,
    schema: fn() -> Value,
    arguments: Value,
) -> Result<Map<String, Value>, ToolError> {
    match validated_arguments(tool, validator, schema, arguments)? {
        Value::Object(map) => Ok(map),
        // `validated_arguments` makes an object of every call it passes.
        _ => Ok(Map::new()),
    }
}

/// Takes the argument `key` out of the validated `arguments` and deserializes it. A missing
/// argument is read as `null`, so an `Option` becomes `None` and anything else is an error.
pub fn take_argument<T: DeserializeOwned>(
    tool: &str,
    arguments: &mut Map<String, Value>,
    key: &str,
) -> Result<T, ToolError> {
    let value = arguments.remove(key);
    let present = value.is_some();
    serde_json::from_value(value.unwrap_or(Value::Null)).map_err(|error| {
        let reason = if present {
            error.to_string()
        } else {
            "missing; this argument is required".to_owned()
        };
        invalid(tool, Some(key), reason)
    })
}

/// What, beside `properties`, can admit a property `properties` does not name: closing a node
/// that has one of these would refuse what the node accepts (`#[serde(flatten)]` of an enum
/// writes its variants under `anyOf`/`oneOf`/`allOf` beside the struct's own `properties`).
const OPENING_KEYWORDS: [&str; 11] = [
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "$ref",
    "if",
    "then",
    "else",
    "dependentSchemas",
];

/// Writes `additionalProperties: false` on every object node of `schema` that lists its
/// `properties` and has nothing else that admits a property (see `OPENING_KEYWORDS`): the
/// node a Rust struct generates. A map, a `#[serde(flatten)]` catch-all or an enum flattened
/// beside the fields keeps what it has.
///
/// A `#[tool]` validates its arguments against this schema, so the tool refuses an unknown
/// field at every level, and a strict dialect, which needs every object closed, closes
/// nothing. Only schema positions are walked: a property named `properties` or a `default`
/// that looks like a schema is data, not a node.
pub fn close_objects(schema: &mut Value) {
    close_node(schema, true);
}

/// `closable`: whether `schema` alone says which properties the instance at its place may
/// have. A branch of `anyOf`/`oneOf` beside its parent's own `properties` does not (the parent
/// adds the fields a flattened enum sits beside), a branch of `allOf` never does (its siblings
/// add theirs), and neither does a schema under `not` or `if`, whose meaning closing would
/// invert. Those are not closed, but what they hold at other places (their properties' values,
/// their items) is.
fn close_node(schema: &mut Value, closable: bool) {
    let Value::Object(node) = schema else { return };
    let adds_properties = ["properties", "patternProperties", "additionalProperties"]
        .iter()
        .any(|k| node.contains_key(*k));
    if closable
        && node.contains_key("properties")
        && !OPENING_KEYWORDS.iter().any(|k| node.contains_key(*k))
    {
        node.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    for (key, value) in node.iter_mut() {
        match key.as_str() {
            // The same instance as this node's, seen through a branch.
            "anyOf" | "oneOf" => each_schema(value, |branch| close_node(branch, !adds_properties)),
            "allOf" => each_schema(value, |branch| close_node(branch, false)),
            "not" | "if" => close_node(value, false),
            "then" | "else" => close_node(value, closable && !adds_properties),
            "dependentSchemas" => {
                if let Value::Object(map) = value {
                    map.values_mut().for_each(|s| close_node(s, false));
                }
            }
            // Another instance: a property's value, an item, a definition's own place.
            "properties" | "patternProperties" | "$defs" | "definitions" => {
                if let Value::Object(map) = value {
                    map.values_mut().for_each(|s| close_node(s, true));
                }
            }
            "prefixItems" => each_schema(value, |item| close_node(item, true)),
            "items"
            | "additionalProperties"
            | "contains"
            | "unevaluatedItems"
            | "unevaluatedProperties" => close_node(value, true),
            _ => {}
        }
    }
}

fn each_schema(list: &mut Value, mut visit: impl FnMut(&mut Value)) {
    if let Value::Array(list) = list {
        list.iter_mut().for_each(&mut visit);
    }
}

/// Removes the `format` schemars derives from a Rust number type (`uint8`, `int64`, `double`…)
/// everywhere in `schema`. No provider needs it (the bounds, where the type has them, stay as
/// `minimum`/`maximum`, and the tool's own validation and deserialisation enforce the type), and most
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

/// A tool's own schema compiled as a validator, once, on the tool's first call (one `static`
/// per `#[tool]`, in its expansion). A schema that does not compile is kept as the reason, and
/// every call of that tool fails with [`ToolError::BadSchema`]: no panic, no other tool touched.
pub struct ArgumentsValidator {
    compiled: OnceLock<Result<CompiledArguments, String>>,
}

/// What a call is checked with: the validator, and the argument names for an unknown
/// argument's message.
struct CompiledArguments {
    validator: jsonschema::Validator,
    arguments: Vec<String>,
}

impl Default for ArgumentsValidator {
    fn default() -> Self {
        ArgumentsValidator::new()
    }
}

impl ArgumentsValidator {
    /// Not compiled yet: it compiles on the first call.
    pub const fn new() -> ArgumentsValidator {
        ArgumentsValidator {
            compiled: OnceLock::new(),
        }
    }

    fn compiled(&self, schema: fn() -> Value) -> &Result<CompiledArguments, String> {
        self.compiled.get_or_init(|| {
            let schema = schema();
            let arguments = schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default();
            // The one builder of the `#[tool]` validator's options: what it checks is what the
            // report calls guarded (draft 2020-12, formats checked, unknown formats ignored).
            toolwire_core::schema::arguments_validator_options()
                .build(&schema)
                .map(|validator| CompiledArguments {
                    validator,
                    arguments,
                })
                .map_err(|error| error.to_string())
        })
    }
}

/// The call's arguments, checked against the tool's own `schema` by `validator` and then
/// deserialized into the tool's arguments struct `T`. `null` counts as `{}`; anything else that
/// is not an object is refused.
///
/// Every bound the schema states is enforced (`minimum`, `pattern`, `maxLength`, a nested
/// struct's fields, `additionalProperties: false` at every level), not only what serde checks.
/// A refusal is [`ToolError::InvalidArguments`] naming the argument at fault and, for each
/// rule broken, where (the JSON pointer into the arguments) and what was expected.
pub fn parse_arguments<T: DeserializeOwned>(
    tool: &str,
    validator: &ArgumentsValidator,
    schema: fn() -> Value,
    arguments: Value,
) -> Result<T, ToolError> {
    let arguments = validated_arguments(tool, validator, schema, arguments)?;
    // The schema said yes; what serde still refuses (a number too precise for its type, a
    // custom `Deserialize`) is refused with serde's words.
    serde_json::from_value(arguments).map_err(|error| invalid(tool, None, error.to_string()))
}

/// The checks of [`parse_arguments`], in one non-generic function: compiled once in this
/// crate, not once per tool in the user's.
fn validated_arguments(
    tool: &str,
    validator: &ArgumentsValidator,
    schema: fn() -> Value,
    arguments: Value,
) -> Result<Value, ToolError> {
    let arguments = Value::Object(arguments_as_object(tool, arguments)?);
    let compiled = match validator.compiled(schema) {
        Ok(compiled) => compiled,
        Err(reason) => {
            return Err(ToolError::BadSchema {
                tool: tool.to_owned(),
                reason: reason.clone(),
            })
        }
    };
    let mut argument = None;
    let mut reasons = Vec::new();
    for error in compiled.validator.iter_errors(&arguments) {
        let (at, reason) = broken_rule(&error, &compiled.arguments);
        argument = argument.or(at);
        reasons.push(reason);
    }
    if !reasons.is_empty() {
        return Err(invalid(tool, argument.as_deref(), reasons.join("; ")));
    }
    Ok(arguments)
}

/// The argument a validation error is about, and the error in words: where, what was expected
/// and which rule of the schema says so.
fn broken_rule(
    error: &jsonschema::ValidationError<'_>,
    arguments: &[String],
) -> (Option<String>, String) {
    use jsonschema::error::ValidationErrorKind;
    let at = error.instance_path().as_str();
    let top = at.strip_prefix('/').map(|rest| {
        let segment = rest.split('/').next().unwrap_or_default();
        segment.replace("~1", "/").replace("~0", "~")
    });
    let rule = format!(
        "(rule `{}` at `{}` of the schema)",
        error.kind().keyword(),
        error.schema_path().as_str()
    );
    match (error.kind(), top) {
        (ValidationErrorKind::Required { property }, None) => {
            let name = property.as_str().map(str::to_owned);
            let reason = format!(
                "at `/{}`: missing; this argument is required {rule}",
                name.as_deref().unwrap_or_default()
            );
            (name, reason)
        }
        (ValidationErrorKind::AdditionalProperties { unexpected }, None) => {
            let takes = if arguments.is_empty() {
                "this tool takes no arguments".to_owned()
            } else {
                let list: Vec<String> = arguments.iter().map(|k| format!("`{k}`")).collect();
                format!("this tool takes {}", list.join(", "))
            };
            let names: Vec<String> = unexpected.iter().map(|k| format!("`{k}`")).collect();
            let reason = format!("unknown argument {}; {takes} {rule}", names.join(", "));
            (unexpected.first().cloned(), reason)
        }
        (ValidationErrorKind::Required { property }, top) => {
            let name = property.as_str().unwrap_or_default();
            (
                top,
                format!("at `{at}`: missing field `{name}`, which is required {rule}"),
            )
        }
        (ValidationErrorKind::AdditionalProperties { unexpected }, top) => {
            let names: Vec<String> = unexpected.iter().map(|k| format!("`{k}`")).collect();
            let reason = format!(
                "at `{at}`: unknown field {}; this object takes only the fields its schema lists {rule}",
                names.join(", ")
            );
            (top, reason)
        }
        (_, top) => {
            let at = if at.is_empty() { "the arguments" } else { at };
            (top, format!("at `{at}`: {error} {rule}"))
        }
    }
}

/// A JSON argument's type has a JSON schema.
///
/// `#[tool]` generates its arguments struct generic over the arguments' types and instantiates
/// it once, through a function bounded by this trait, with the user's types written (and
/// spanned) where the user wrote them: a type without `JsonSchema` is one error, at that type,
/// in these words, rather than errors of the derives' generated code (PyO3 bounds its
/// arguments by `PyFunctionArgument` the same way).
#[diagnostic::on_unimplemented(
    message = "#[tool] argument type `{Self}` has no JSON schema: it does not implement `schemars::JsonSchema`",
    label = "this argument's type needs `#[derive(schemars::JsonSchema)]`",
    note = "add `#[derive(schemars::JsonSchema)]` to `{Self}` (the `schemars` crate, version 1), or take a type that has a schema"
)]
pub trait ArgumentSchema: JsonSchema {}

// Not recommended: the error is this trait's, not "`JsonSchema` is not implemented, required
// for `Point` to implement `ArgumentSchema`" with a list of unrelated types.
#[diagnostic::do_not_recommend]
impl<T: JsonSchema> ArgumentSchema for T {}

/// A JSON argument's type can be deserialized from the call's JSON (see [`ArgumentSchema`]).
#[diagnostic::on_unimplemented(
    message = "#[tool] argument type `{Self}` cannot be read from JSON: it does not implement `serde::Deserialize`",
    label = "this argument's type needs `#[derive(serde::Deserialize)]`",
    note = "add `#[derive(serde::Deserialize)]` to `{Self}`, or take a type that implements it; arguments are owned values read from the call's JSON"
)]
pub trait ArgumentDeserialize: DeserializeOwned {}

#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned> ArgumentDeserialize for T {}

/// What a tool's handler and registration need of its arguments `T`, as plain function
/// pointers: made once, in a generic function bounded by [`ArgumentSchema`] and
/// [`ArgumentDeserialize`], so the concrete code asks nothing of the user's types. `T` is the
/// derived arguments struct ([`ArgumentsParts::new`]), or, on the plain path, the tuple of the
/// arguments, with `schema` an [`ObjectSchema`] and `parse` [`validated_object`] then
/// [`take_argument`] per argument.
pub struct ArgumentsParts<T> {
    /// The tool's schema.
    pub schema: fn() -> Value,
    /// The call's arguments, validated and deserialized.
    pub parse: ParseArguments<T>,
}

/// [`parse_arguments`] for one arguments struct `T`.
pub type ParseArguments<T> =
    fn(&str, &ArgumentsValidator, fn() -> Value, Value) -> Result<T, ToolError>;

impl<T: DeserializeOwned + JsonSchema> Default for ArgumentsParts<T> {
    fn default() -> Self {
        ArgumentsParts::new()
    }
}

impl<T: DeserializeOwned + JsonSchema> ArgumentsParts<T> {
    /// The parts for `T`.
    pub const fn new() -> ArgumentsParts<T> {
        ArgumentsParts {
            schema: arguments_schema::<T>,
            parse: parse_arguments::<T>,
        }
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
