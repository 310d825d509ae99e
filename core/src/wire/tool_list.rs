//! A request's tool list in one wire format, and what it left out: built once and shared.
//!
//! Policy: loud means returned. A tool that does not travel (the census left it out, the
//! provider refuses its form, the dialect refuses its schema, the runtime cannot run it) is
//! named in [`ToolList::left_out`] with its typed reason, beside the JSON, so an app shows it
//! without a log subscriber; the `tracing` warning is only a convenience. A request whose tools did
//! not change pays for an `Arc` clone, not for a list: the list reads as the JSON value it is
//! (`Deref`, `==` with a `Value`, `Serialize` writes the JSON only), and only
//! [`ToolList::into_value`] copies it, when the caller wants one of its own to change.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::census::LeftOutReason;
use crate::schema::SchemaRefusal;
use crate::wire::NameRejection;

/// A tool a list leaves out, and why: its real name, the form it would travel as, the reason.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{Census, ToolDefinition, WireFormat, wire::{wire_tools, WhyLeftOut}};
/// let defs = [ToolDefinition::new("3d/render", "Renders.", json!({}))];
/// let census = Census::build(defs.iter().map(|d| &d.name), &[]);
/// let list = wire_tools(&census, &defs, WireFormat::Gemini).unwrap();
/// let left = &list.left_out()[0];
/// assert_eq!((left.name.as_str(), left.form.as_str()), ("3d/render", "3d_render"));
/// assert!(matches!(left.reason, WhyLeftOut::FormRefused(_)));
/// assert!(left.to_string().starts_with("tool `3d/render` (sent as `3d_render`) is left out: Gemini"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LeftOutTool {
    /// The tool's real name.
    pub name: String,
    /// The model-safe form it travels as, when it travels.
    pub form: String,
    /// Why it is not in the list.
    pub reason: WhyLeftOut,
}

impl LeftOutTool {
    pub(crate) fn new(name: &str, form: &str, reason: WhyLeftOut) -> LeftOutTool {
        LeftOutTool {
            name: name.to_owned(),
            form: form.to_owned(),
            reason,
        }
    }
}

impl fmt::Display for LeftOutTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tool `{}` (sent as `{}`) is left out: {}",
            self.name, self.form, self.reason
        )
    }
}

/// Serializes as `{name, form, reason, reason_key}`: the reason in words and its stable key,
/// as a Tools page shows them.
impl Serialize for LeftOutTool {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut entry = serializer.serialize_struct("LeftOutTool", 4)?;
        entry.serialize_field("name", &self.name)?;
        entry.serialize_field("form", &self.form)?;
        entry.serialize_field("reason", &self.reason.to_string())?;
        entry.serialize_field("reason_key", self.reason.key())?;
        entry.end()
    }
}

/// Why a tool is not in a tool list.
///
/// New reasons may come, so a `match` on it needs a `_` arm.
///
/// ```
/// use toolwire_core::{census::LeftOutReason, wire::WhyLeftOut};
/// let why = WhyLeftOut::Census(LeftOutReason::EmptyName);
/// assert_eq!((why.key(), why.to_string().as_str()), ("empty_name", "the name is empty"));
/// let tasks = WhyLeftOut::Unsupported { reason: "it requires MCP tasks".into() };
/// assert_eq!(tasks.key(), "unsupported");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WhyLeftOut {
    /// The census left it out (a shared form, a reserved name, a repeated name…): no request
    /// carries it under any provider.
    Census(LeftOutReason),
    /// The provider refuses its form (Gemini wants a letter or `_` first): rename the tool.
    FormRefused(NameRejection),
    /// The format's schema dialect refuses its parameter schema (say a map argument in strict
    /// mode): the refusal names the dialect, the JSON pointer and the keyword.
    SchemaRefused(SchemaRefusal),
    /// The runtime cannot run it ([`unsupported_reason`](crate::wire::unsupported_reason): an
    /// MCP tool that requires MCP tasks).
    Unsupported {
        /// Why, in words.
        reason: String,
    },
    /// The user switched it off (runtime only).
    SwitchedOff,
    /// Its provider is unreachable until it is reloaded (runtime only).
    Unreachable,
    /// Its form is a name this conversation's replayed history carries for the call of
    /// another tool: a call by that name reaches that tool, or none if it is gone, never this
    /// one ([`ConversationState::history_names`](crate::runtime::ConversationState::history_names);
    /// runtime only). Renaming it, or a new conversation, is the fix.
    HistoryName {
        /// The name history carries.
        name: String,
        /// The real name of the tool the call by it reached.
        tool: String,
    },
}

impl WhyLeftOut {
    /// A short stable key, for JSON: the census reason's own key, else `form_refused`,
    /// `schema_refused`, `unsupported`, `switched_off`, `unreachable` or `history_name`.
    ///
    /// ```
    /// assert_eq!(toolwire_core::wire::WhyLeftOut::SwitchedOff.key(), "switched_off");
    /// ```
    pub fn key(&self) -> &'static str {
        match self {
            WhyLeftOut::Census(reason) => reason.key(),
            WhyLeftOut::FormRefused(_) => "form_refused",
            WhyLeftOut::SchemaRefused(_) => "schema_refused",
            WhyLeftOut::Unsupported { .. } => "unsupported",
            WhyLeftOut::SwitchedOff => "switched_off",
            WhyLeftOut::Unreachable => "unreachable",
            WhyLeftOut::HistoryName { .. } => "history_name",
        }
    }
}

impl fmt::Display for WhyLeftOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WhyLeftOut::Census(reason) => reason.fmt(f),
            WhyLeftOut::FormRefused(why) => write!(f, "{why}; rename it"),
            WhyLeftOut::SchemaRefused(refusal) => refusal.fmt(f),
            WhyLeftOut::Unsupported { reason } => write!(f, "unsupported: {reason}"),
            WhyLeftOut::SwitchedOff => f.write_str("switched off"),
            WhyLeftOut::Unreachable => f.write_str("its provider is unreachable; reload it"),
            WhyLeftOut::HistoryName { name, tool } => write!(
                f,
                "its form `{name}` is a name this conversation's history carries for `{tool}`"
            ),
        }
    }
}

/// The tool list one provider request carries ([`wire_tools`](crate::wire::wire_tools),
/// [`Request::tools`](crate::runtime::Request::tools)), and the tools it left out, each with
/// its reason ([`left_out`](Self::left_out)). Read it as the JSON [`Value`] it is; serialize it
/// as it is (the JSON only: what is sent). The runtime shares one list between every request
/// of the same tool set.
///
/// ```
/// use std::sync::Arc;
/// use serde_json::json;
/// use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let tools = provider_fn("tools", vec![
///     ToolDefinition::new("mcp/server/echo", "Echoes.", json!({})),
///     ToolDefinition::new("mcp/a.b", "One.", json!({})),
///     ToolDefinition::new("mcp/a/b", "Another.", json!({})),
/// ], |_, args| async move { Ok(args) });
/// let runtime = ToolRuntime::new();
/// let status = runtime.add_provider(Arc::new(tools)).await.unwrap();
/// assert!(status.check().is_err()); // two of its tools share the form `mcp_a_b`
/// let list = runtime.request().tools(WireFormat::Anthropic).unwrap();
/// assert_eq!(list[0]["name"], "mcp_server_echo");
/// assert_eq!(list.as_array().unwrap().len(), 1);
/// assert!(serde_json::to_string(&list).unwrap().starts_with(r#"[{"description":"Echoes."#));
/// // Beside the JSON, what it left out and why.
/// let left: Vec<(&str, &str)> = list.left_out().iter().map(|t| (t.name.as_str(), t.reason.key())).collect();
/// assert_eq!(left, [("mcp/a.b", "shares_form"), ("mcp/a/b", "shares_form")]);
/// // The next request, nothing changed: the same list, not a copy.
/// let again = runtime.request().tools(WireFormat::Anthropic).unwrap();
/// assert!(ToolList::ptr_eq(&list, &again));
/// # });
/// ```
#[derive(Clone)]
#[must_use = "a tool list says what it left out: send its JSON, and show `left_out()`"]
pub struct ToolList(Arc<Listed>);

/// What a list holds: the JSON sent, and what did not travel.
struct Listed {
    value: Value,
    left_out: Vec<LeftOutTool>,
}

impl ToolList {
    pub(crate) fn new(value: Value, left_out: Vec<LeftOutTool>) -> ToolList {
        ToolList(Arc::new(Listed { value, left_out }))
    }

    /// The list as a JSON value.
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// let bare = ToolRuntime::builder().meta_tools([]).build().unwrap();
    /// let list = bare.request().tools(WireFormat::OpenAi).unwrap();
    /// assert_eq!(list.as_value(), &json!([]));
    /// ```
    pub fn as_value(&self) -> &Value {
        &self.0.value
    }

    /// The tools this list leaves out, each with its real name, its form and why, in census
    /// order: what the census left out, what the provider or the dialect refuses, what the
    /// runtime cannot run (and, for the runtime, what is switched off or unreachable). Empty
    /// when every tool travels. A tool the catalog defers is not left out: the model finds it
    /// with `tool_search`.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::{Census, ToolDefinition, WireFormat, schema::Dialect, wire::{wire_tools, WhyLeftOut}};
    /// let map = json!({"type": "object", "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}}, "required": ["tags"]});
    /// let defs = [ToolDefinition::new("tag", "Tags.", map)];
    /// let census = Census::build(["tag"], &[]);
    /// let strict = wire_tools(&census, &defs, WireFormat::OpenAiStrict).unwrap();
    /// assert_eq!(strict.as_value(), &json!([]));
    /// let WhyLeftOut::SchemaRefused(refusal) = &strict.left_out()[0].reason else { panic!() };
    /// assert_eq!((refusal.dialect, refusal.pointer.as_str()), (Dialect::OpenAiStrict, "/properties/tags"));
    /// assert!(wire_tools(&census, &defs, WireFormat::OpenAi).unwrap().left_out().is_empty());
    /// ```
    pub fn left_out(&self) -> &[LeftOutTool] {
        &self.0.left_out
    }

    /// The list as a JSON value of the caller's own (a copy unless nothing else holds it).
    ///
    /// ```
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// let list = ToolRuntime::new().request().tools(WireFormat::Gemini).unwrap();
    /// let mut value: Value = list.into_value();
    /// value.as_array_mut().unwrap().push(json!({"googleSearch": {}}));
    /// assert_eq!(value, json!([{"googleSearch": {}}])); // no tools: no declarations
    /// ```
    pub fn into_value(self) -> Value {
        match Arc::try_unwrap(self.0) {
            Ok(listed) => listed.value,
            Err(shared) => shared.value.clone(),
        }
    }

    /// Whether two lists are one (built once and shared), not merely equal.
    ///
    /// ```
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// let request = ToolRuntime::builder().meta_tools([]).build().unwrap().request();
    /// let (a, b) = (request.tools(WireFormat::OpenAi).unwrap(), request.tools(WireFormat::OpenAi).unwrap());
    /// assert!(ToolList::ptr_eq(&a, &b));
    /// let c = request.tools(WireFormat::Anthropic).unwrap();
    /// assert!(a == c && !ToolList::ptr_eq(&a, &c)); // both `[]`, built apart
    /// ```
    pub fn ptr_eq(a: &ToolList, b: &ToolList) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }
}

impl Deref for ToolList {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.0.value
    }
}

impl AsRef<Value> for ToolList {
    fn as_ref(&self) -> &Value {
        &self.0.value
    }
}

impl From<ToolList> for Value {
    fn from(list: ToolList) -> Value {
        list.into_value()
    }
}

/// The JSON only: what the provider receives.
impl Serialize for ToolList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.value.serialize(serializer)
    }
}

/// Two lists are equal when their JSON and what they left out are.
impl PartialEq for ToolList {
    fn eq(&self, other: &ToolList) -> bool {
        self.0.value == other.0.value && self.0.left_out == other.0.left_out
    }
}

/// The JSON only.
impl PartialEq<Value> for ToolList {
    fn eq(&self, other: &Value) -> bool {
        self.0.value == *other
    }
}

impl PartialEq<ToolList> for Value {
    fn eq(&self, other: &ToolList) -> bool {
        *self == other.0.value
    }
}

impl fmt::Debug for ToolList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolList")
            .field("value", &self.0.value)
            .field("left_out", &self.0.left_out)
            .finish()
    }
}

/// The JSON, as `Value`'s `Display` writes it.
impl fmt::Display for ToolList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.value, f)
    }
}
