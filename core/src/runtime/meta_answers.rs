//! The runtime's answers to its own tools: `tool_search`, `tool_schema` and `reset_tools`.
//!
//! Policy: a meta-tool lists offered tools only, each under the form the request carries; a
//! tool the request does not carry is never handed out under a form (its form may answer to
//! another tool, or to nothing).

use serde_json::{json, Value};

use super::dispatch::{CallOutcome, Route};
use super::errors::DispatchError;
use super::request::Request;
use crate::census::Resolution;
use crate::tool_error::ToolError;

impl Request {
    /// The runtime's answer to a meta-tool: `tool_search` lists offered tools matching
    /// `query`, `tool_schema` gives one tool's definition by any name, `reset_tools` lists every
    /// offered tool again.
    pub(super) fn answer_meta(
        &self,
        meta: &str,
        arguments: &Value,
    ) -> Result<CallOutcome, DispatchError> {
        let output = match meta {
            "tool_search" => {
                let query = arguments
                    .get("query")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_lowercase();
                let hits: Vec<Value> = self
                    .offered()
                    .filter(|&i| query.is_empty() || self.matches(i, &query))
                    .map(|i| self.summary(i))
                    .collect();
                json!({ "tools": hits })
            }
            "tool_schema" => self.schema_of(meta, arguments)?,
            "reset_tools" => {
                json!({ "tools": self.offered().map(|i| self.summary(i)).collect::<Vec<_>>() })
            }
            other => {
                return Err(DispatchError::MetaToolUnhandled {
                    name: other.to_owned(),
                })
            }
        };
        Ok(CallOutcome {
            tool: meta.to_owned(),
            provider: "runtime".to_owned(),
            route: Route::Meta,
            output,
        })
    }

    /// `tool_schema`: the definition of the tool `name` (any name that resolves to it).
    fn schema_of(&self, meta: &str, arguments: &Value) -> Result<Value, DispatchError> {
        let invalid = |reason: String| ToolError::InvalidArguments {
            tool: meta.to_owned(),
            argument: Some("name".to_owned()),
            reason,
        };
        let Some(name) = arguments.get("name").and_then(Value::as_str) else {
            return Err(invalid("a string `name` is required".to_owned()).into());
        };
        let Ok(Resolution::Tool(hit)) = self.census().resolve(name) else {
            return Err(invalid(format!("no tool answers to `{name}`")).into());
        };
        let mut out = self.summary(hit.index);
        out["parameters"] = self.definitions()[hit.index].parameters_schema();
        if let Some(reason) = self.census().tools()[hit.index].left_out_reason() {
            // Its form may answer to another tool, or to nothing: never hand it out for a tool
            // this request does not carry.
            out["name"] = Value::Null;
            out["left_out"] = Value::String(reason.to_string());
        }
        Ok(out)
    }

    /// The census positions of the offered tools.
    fn offered(&self) -> impl Iterator<Item = usize> + '_ {
        self.census()
            .tools()
            .iter()
            .enumerate()
            .filter(|(_, t)| t.is_offered())
            .map(|(i, _)| i)
    }

    /// Whether the tool at `index` matches a lowercase `query` by name, form or description.
    fn matches(&self, index: usize, query: &str) -> bool {
        let tool = &self.census().tools()[index];
        tool.name().to_lowercase().contains(query)
            || tool.form().to_lowercase().contains(query)
            || self.definitions()[index]
                .description
                .to_lowercase()
                .contains(query)
    }

    /// One tool as a meta-tool lists it.
    fn summary(&self, index: usize) -> Value {
        let tool = &self.census().tools()[index];
        json!({
            "name": tool.form(),
            "real_name": tool.name(),
            "description": self.definitions()[index].description,
        })
    }
}
