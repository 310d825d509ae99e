//! The tools registered with `#[tool]` across every crate linked into the binary.
//!
//! Policy: registration is data (`inventory`); nothing here runs a tool. Order of submission is
//! unspecified, so everything that shows order sorts by real name.

use futures::future::BoxFuture;
use serde_json::Value;

use crate::tools::AppState;
use crate::tools::ToolDefinition;
use crate::tools::ToolError;

/// One call's input for a registered tool's handler: its JSON arguments and the app state.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{AppState, tools::ToolInput};
/// let input = ToolInput { arguments: json!({"city": "Oslo"}), state: AppState::new().with(3u8) };
/// assert_eq!(input.arguments["city"], "Oslo");
/// assert_eq!(*input.state.get::<u8>().unwrap(), 3);
/// ```
#[derive(Clone, Debug)]
pub struct ToolInput {
    /// The call's arguments (a JSON object).
    pub arguments: Value,
    /// The app's shared state.
    pub state: AppState,
}

/// The future a handler returns.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{AppState, tools::{ToolFuture, ToolInput}};
/// fn echo(input: ToolInput) -> ToolFuture {
///     Box::pin(async move { Ok(input.arguments) })
/// }
/// let input = ToolInput { arguments: json!({"x": 1}), state: AppState::new() };
/// let out = tokio::runtime::Runtime::new().unwrap().block_on(echo(input));
/// assert_eq!(out, Ok(json!({"x": 1})));
/// ```
pub type ToolFuture = BoxFuture<'static, Result<Value, ToolError>>;

/// A tool registered with `#[tool]`. Generated code builds these; apps read them through
/// [`registered_tools`].
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{registered_tools, tools::ToolRegistration};
///
/// // What `#[tool(name = "echo/text")]` submits, written by hand (core has no macro).
/// inventory::submit! {
///     ToolRegistration {
///         name: "echo/text",
///         form: "echo_text",
///         description: "Echoes its arguments.",
///         schema: || json!({"type": "object"}),
///         handler: |input| Box::pin(async move { Ok(input.arguments) }),
///         module_path: module_path!(),
///         file: file!(),
///         line: line!(), validates_arguments: false,
///     }
/// }
///
/// // Every `#[tool]` of every crate linked into this binary: here, the one above.
/// let tools = registered_tools();
/// assert_eq!(tools.len(), 1);
/// assert_eq!((tools[0].name, tools[0].form), ("echo/text", "echo_text"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ToolRegistration {
    /// The real name.
    pub name: &'static str,
    /// The model-safe form, computed at compile time.
    pub form: &'static str,
    /// The description (the doc comment, or `#[tool(description = ...)]`).
    pub description: &'static str,
    /// Builds the parameters' JSON schema.
    pub schema: fn() -> Value,
    /// Runs the tool.
    pub handler: fn(ToolInput) -> ToolFuture,
    /// Where the function is: `module_path!()`.
    pub module_path: &'static str,
    /// Where the function is: `file!()`.
    pub file: &'static str,
    /// Where the function is: `line!()`.
    pub line: u32,
    /// Whether `handler` refuses every argument `schema` refuses before the tool runs, with
    /// an answer naming the rule: `true` in what `#[tool]` generates (its handler validates
    /// with `jsonschema` against this `schema`). A registration written by hand says `false`
    /// unless its handler does the same, because this is what makes a loss on the way to a
    /// provider *guarded* (`tool-schema-wire.md`, "What the rail fails on, revised 2026-12"):
    /// the rail lets a guarded loss pass.
    pub validates_arguments: bool,
}

impl ToolRegistration {
    /// The tool's definition: real name, description and schema, marked
    /// [`null_is_absent`](ToolDefinition::null_is_absent): a `#[tool]` reads an explicit `null`
    /// for an optional argument as its absence (serde's `Option`), and the way back of a strict
    /// dialect removes a `null` its schema refuses; and
    /// [`validates_arguments`](ToolDefinition::validates_arguments): the handler `#[tool]`
    /// generates checks every call against `schema` before the function runs
    /// (`toolwire::__private::validated_arguments`), so a loss on the way to a provider is
    /// guarded. That holds only when the registration says so
    /// ([`validates_arguments`](ToolRegistration::validates_arguments), set by `#[tool]`), and
    /// only for the schema `schema` builds: a definition whose `parameters` are changed later
    /// no longer validates what it says.
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # static ECHO: ToolRegistration = ToolRegistration {
    /// #     name: "echo", form: "echo", description: "Echoes.",
    /// #     schema: || json!({"type": "object"}),
    /// #     handler: |input| Box::pin(async move { Ok(input.arguments) }),
    /// #     module_path: "demo", file: "demo.rs", line: 1, validates_arguments: false,
    /// # };
    /// let definition = ECHO.definition();
    /// let expected = ToolDefinition::new("echo", "Echoes.", json!({"type": "object"}));
    /// assert_eq!(definition, expected.with_null_is_absent(true));
    /// // Its handler echoes unchecked arguments, and it says so: its losses are unguarded.
    /// assert!(!definition.validates_arguments());
    /// let promised = ToolRegistration { validates_arguments: true, ..ECHO }.definition();
    /// assert!(promised.validates_arguments());
    /// // Changed after the fact, it no longer is the schema the handler checks.
    /// let mut changed = promised.clone();
    /// changed.parameters = json!({"type": "object", "properties": {"x": {"type": "string"}}});
    /// assert!(!changed.validates_arguments());
    /// ```
    pub fn definition(&self) -> ToolDefinition {
        let definition = ToolDefinition::new(self.name, self.description, (self.schema)())
            .with_null_is_absent(true);
        if self.validates_arguments {
            definition.validated_against_its_parameters()
        } else {
            definition
        }
    }

    /// Runs the tool with `arguments` and `state`.
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # static ECHO: ToolRegistration = ToolRegistration {
    /// #     name: "echo", form: "echo", description: "Echoes.", schema: || json!({}),
    /// #     handler: |input| Box::pin(async move { Ok(input.arguments) }),
    /// #     module_path: "demo", file: "demo.rs", line: 1, validates_arguments: false,
    /// # };
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let out = ECHO.call(json!({"text": "hi"}), AppState::new()).await;
    /// assert_eq!(out, Ok(json!({"text": "hi"})));
    /// # });
    /// ```
    pub fn call(&self, arguments: Value, state: AppState) -> ToolFuture {
        (self.handler)(ToolInput { arguments, state })
    }
}

inventory::collect!(ToolRegistration);

/// Every tool registered with `#[tool]` in the binary, from every crate linked in, sorted by
/// real name (then by file and line).
///
/// A crate that nothing references is not linked, so its tools are absent: a binary that uses a
/// tools-only crate writes `use my_tools as _;`.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{registered_tools, tools::ToolRegistration};
///
/// // Submitted out of order (as crates linked in may submit them).
/// inventory::submit! {
///     ToolRegistration {
///         name: "weather/today", form: "weather_today", description: "Today's weather.",
///         schema: || json!({}), handler: |_| Box::pin(async { Ok(json!("sunny")) }),
///         module_path: module_path!(), file: file!(), line: line!(), validates_arguments: false,
///     }
/// }
/// inventory::submit! {
///     ToolRegistration {
///         name: "clock/now", form: "clock_now", description: "The time.",
///         schema: || json!({}), handler: |_| Box::pin(async { Ok(json!("12:00")) }),
///         module_path: module_path!(), file: file!(), line: line!(), validates_arguments: false,
///     }
/// }
///
/// let names: Vec<&str> = registered_tools().iter().map(|t| t.name).collect();
/// assert_eq!(names, ["clock/now", "weather/today"]);
/// ```
pub fn registered_tools() -> Vec<&'static ToolRegistration> {
    let mut tools: Vec<&'static ToolRegistration> =
        inventory::iter::<ToolRegistration>.into_iter().collect();
    tools.sort_by_key(|t| (t.name, t.file, t.line));
    tools
}
