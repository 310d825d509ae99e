//! A request's tool list in one wire format, built once and shared.
//!
//! Policy: a turn whose tools did not change pays for an `Arc` clone, not for a list: the list
//! reads as the JSON value it is (`Deref`, `==` with a `Value`, `Serialize`), and only
//! [`ToolList::into_value`] copies it, when the caller wants one of its own to change.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Serialize, Serializer};
use serde_json::Value;

/// The tool list one provider receives ([`Request::tools`](crate::runtime::Request::tools)): a JSON value,
/// shared by every request of the same tool set. Read it as a [`Value`]; serialize it as it is.
///
/// ```
/// use std::sync::Arc;
/// use serde_json::json;
/// use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(echo)).await.unwrap();
/// let list = runtime.request().tools(WireFormat::Anthropic).unwrap();
/// assert_eq!(list[3]["name"], "mcp_server_echo"); // after the three meta-tools
/// assert_eq!(list.as_array().unwrap().len(), 4);
/// assert!(serde_json::to_string(&list).unwrap().starts_with(r#"[{"description":"Search the tool catalog"#));
/// // The next turn, nothing changed: the same list, not a copy.
/// let again = runtime.request().tools(WireFormat::Anthropic).unwrap();
/// assert!(ToolList::ptr_eq(&list, &again));
/// # });
/// ```
#[derive(Clone)]
pub struct ToolList(Arc<Value>);

impl ToolList {
    pub(super) fn new(list: Value) -> ToolList {
        ToolList(Arc::new(list))
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
        &self.0
    }

    /// The list as a JSON value of the caller's own (a copy unless nothing else holds it).
    ///
    /// ```
    /// # use serde_json::{json, Value};
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// let list = ToolRuntime::new().request().tools(WireFormat::Gemini).unwrap();
    /// let mut value: Value = list.into_value();
    /// value.as_array_mut().unwrap().push(json!({"googleSearch": {}}));
    /// assert_eq!(value[1], json!({"googleSearch": {}}));
    /// ```
    pub fn into_value(self) -> Value {
        Arc::try_unwrap(self.0).unwrap_or_else(|shared| Value::clone(&shared))
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
        &self.0
    }
}

impl AsRef<Value> for ToolList {
    fn as_ref(&self) -> &Value {
        &self.0
    }
}

impl From<ToolList> for Value {
    fn from(list: ToolList) -> Value {
        list.into_value()
    }
}

impl Serialize for ToolList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl PartialEq for ToolList {
    fn eq(&self, other: &ToolList) -> bool {
        self.0 == other.0
    }
}

impl PartialEq<Value> for ToolList {
    fn eq(&self, other: &Value) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<ToolList> for Value {
    fn eq(&self, other: &ToolList) -> bool {
        *self == *other.0
    }
}

impl fmt::Debug for ToolList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for ToolList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}
