//! What a served tool set offers: the census under the name budget, each offered tool as an
//! MCP `Tool` under its served name, and what is left out, with why.
//!
//! Policy: built once per snapshot of the runtime (a tool set and its switches) and shared by
//! every session; a session's list is its request's carried tools (all offered ones, or with a
//! deferred catalog the meta-tools, pinned and loaded ones) picked from it, in census order.

use std::sync::Arc;

use rmcp::model::{Tool, ToolAnnotations as McpAnnotations};
use serde_json::Value;

use super::names::served_name_refusal;
use super::ServeOptions;
use crate::census::{Census, LeftOutReason};
use crate::runtime::{Request, ToolRuntime};
use crate::schema::prepare_definition_cached;
use crate::tools::{ToolAnnotations, ToolDefinition};
use crate::wire::{LeftOutTool, WhyLeftOut};

/// One snapshot's served tools.
pub(super) struct ServedView {
    /// Holds the snapshot, so the addresses that key this view are never reused while it lives.
    request: Request,
    /// The census under the budget, over the request's definitions.
    pub(super) census: Census,
    /// The meta-tools a legacy session's list carries, served under their own names.
    meta: Vec<Tool>,
    /// The meta-tools a list that stands alone carries (`tool_call` in place of `reset_tools`).
    stand_alone_meta: Vec<Tool>,
    /// Per census position: the tool as served, when it is.
    tools: Vec<Option<Tool>>,
    /// What is not served, and why, in census order (meta-tools first).
    pub(super) left_out: Vec<LeftOutTool>,
}

impl ServedView {
    /// Whether this view was built for the snapshot `request` reads.
    pub(super) fn is_for(&self, request: &Request) -> bool {
        std::ptr::eq(self.request.census(), request.census())
            && std::ptr::eq(
                self.request.definitions().as_ptr(),
                request.definitions().as_ptr(),
            )
    }

    pub(super) fn build(request: &Request, runtime: &ToolRuntime, options: &ServeOptions) -> Self {
        let runtime_census = request.census();
        let definitions = request.definitions();
        let taken: Vec<&str> = runtime_census.taken().collect();
        let census = Census::build_ranked_within(
            runtime_census.tools().iter().map(|t| (t.name(), t.rank())),
            &taken,
            options.budget,
        );
        let mut left_out = Vec::new();
        let (meta_definitions, _) = request.carried_definitions();
        let meta = served_meta_tools(meta_definitions, options, &mut left_out);
        let (stand_alone_definitions, _) = request.stand_alone_definitions();
        let mut also_left_out = Vec::new();
        let stand_alone_meta =
            served_meta_tools(stand_alone_definitions, options, &mut also_left_out);
        // A meta-tool of one surface only (`tool_call`) is said once.
        for tool in also_left_out {
            if !left_out.iter().any(|t| t.name == tool.name) {
                left_out.push(tool);
            }
        }
        let mut tools = Vec::with_capacity(definitions.len());
        for (i, (served, definition)) in census.tools().iter().zip(definitions).enumerate() {
            let form = served.form();
            let why = if let Some(reason) = served.left_out_reason() {
                Some(WhyLeftOut::Census(reason.clone()))
            } else if let Some(reason) = runtime_census.tools()[i].left_out_reason() {
                Some(withheld_reason(runtime, definition, reason))
            } else {
                served_name_refusal(form).map(refusal_reason)
            };
            match why.map_or_else(|| served_tool(form, definition, options), Err) {
                Ok(tool) => tools.push(Some(tool)),
                Err(why) => {
                    left_out.push(LeftOutTool::new(&definition.name, form, why));
                    tools.push(None);
                }
            }
        }
        ServedView {
            request: request.clone(),
            census,
            meta,
            stand_alone_meta,
            tools,
            left_out,
        }
    }

    /// The tools `request` (of this view's snapshot) carries, as served: the meta-tools (of the
    /// stand-alone surface when `stand_alone`), then the carried offered tools in census order.
    /// Borrowed: `tools/list` clones only the page it sends.
    pub(super) fn list_for(&self, request: &Request, stand_alone: bool) -> Vec<&Tool> {
        let (_, carried) = request.carried_definitions();
        let meta = if stand_alone {
            &self.stand_alone_meta
        } else {
            &self.meta
        };
        let mut list: Vec<&Tool> = meta.iter().collect();
        list.extend(
            carried
                .into_iter()
                .filter_map(|i| self.tools.get(i).and_then(Option::as_ref)),
        );
        list
    }

    /// The tool as served that `name` reaches: a meta-tool by its name, an offered tool by its
    /// served name, its real name or the runtime's form (hop 5, as a call resolves it). What
    /// rmcp's `ServerHandler::get_tool` gives, so its HTTP transport checks a call's
    /// `Mcp-Param-*` headers against the tool's `x-mcp-header` annotations (SEP-2243).
    pub(super) fn tool_named(&self, name: &str) -> Option<&Tool> {
        if let Some(meta) = self
            .meta
            .iter()
            .chain(&self.stand_alone_meta)
            .find(|t| t.name == name)
        {
            return Some(meta);
        }
        let index = match self.census.resolve(name) {
            Ok(crate::census::Resolution::Tool(hit)) => hit.index,
            _ => match self.request.census().resolve(name) {
                Ok(crate::census::Resolution::Tool(hit)) => hit.index,
                _ => return None,
            },
        };
        self.tools.get(index)?.as_ref()
    }

    /// The name the tool of real name `real` is served under, when it is served.
    pub(super) fn served_name(&self, real: &str) -> Option<&str> {
        let Ok(crate::census::Resolution::Tool(hit)) = self.census.resolve(real) else {
            return None;
        };
        (hit.name == real).then_some(())?;
        self.tools.get(hit.index)?.as_ref().map(|t| &*t.name)
    }

    /// A catalog meta-tool's answer (`tool_search`'s hits, `tool_schema`'s tool) with each
    /// tool's `form` the name it is served under, so a client calls it by the name its list
    /// shows (under a name budget, the cut one). A tool the served census leaves out keeps the
    /// runtime's form, which still reaches it (hop 5 asks the runtime's census second).
    pub(super) fn serve_forms(&self, answer: &mut Value) {
        match answer {
            Value::Object(object) => {
                let served = match (object.get("name"), object.get("form")) {
                    (Some(Value::String(real)), Some(Value::String(_))) => {
                        self.served_name(real).map(str::to_owned)
                    }
                    _ => None,
                };
                if let Some(served) = served {
                    object.insert("form".to_owned(), Value::String(served));
                }
                object.values_mut().for_each(|v| self.serve_forms(v));
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.serve_forms(v)),
            _ => {}
        }
    }

    /// A meta-tool's arguments with a `name` that is a served name (one the runtime's census
    /// may not know, cut by the budget) as the real name it reaches by hop 5 here.
    pub(super) fn serve_name_argument(&self, arguments: &mut Value) {
        let Some(Value::String(name)) = arguments.get_mut("name") else {
            return;
        };
        if let Ok(crate::census::Resolution::Tool(hit)) = self.census.resolve(name) {
            *name = hit.name.to_owned();
        }
    }

    /// [`ServedView::list_for`], each tool beside its real name.
    pub(super) fn named_list_for(&self, request: &Request) -> Vec<(Tool, String)> {
        let (_, carried) = request.carried_definitions();
        let mut list: Vec<(Tool, String)> = self
            .meta
            .iter()
            .map(|t| (t.clone(), t.name.to_string()))
            .collect();
        list.extend(carried.into_iter().filter_map(|i| {
            let tool = self.tools.get(i)?.clone()?;
            Some((tool, self.census.tools()[i].name().to_owned()))
        }));
        list
    }
}

/// The meta-tools `definitions` as served, under their own names; one a client or an API would
/// refuse, or longer than the budget, is left out, saying why.
fn served_meta_tools(
    definitions: Vec<&ToolDefinition>,
    options: &ServeOptions,
    left_out: &mut Vec<LeftOutTool>,
) -> Vec<Tool> {
    let mut meta = Vec::with_capacity(definitions.len());
    for definition in definitions {
        let name = definition.name.as_str();
        let why = if name.chars().count() > options.budget.chars() {
            Some(WhyLeftOut::Unsupported {
                reason: format!(
                    "the meta-tool's name is longer than the name budget of {}",
                    options.budget
                ),
            })
        } else {
            served_name_refusal(name).map(refusal_reason)
        };
        match why.map_or_else(|| served_tool(name, definition, options), Err) {
            Ok(tool) => meta.push(tool),
            Err(why) => left_out.push(LeftOutTool::new(name, name, why)),
        }
    }
    meta
}

/// Why the runtime's census holds back a tool the served census offers.
fn withheld_reason(
    runtime: &ToolRuntime,
    definition: &ToolDefinition,
    reason: &LeftOutReason,
) -> WhyLeftOut {
    if let Some(unsupported) = &definition.unsupported {
        WhyLeftOut::Unsupported {
            reason: unsupported.clone(),
        }
    } else if !runtime.is_enabled(&definition.name) {
        WhyLeftOut::SwitchedOff
    } else if *reason == LeftOutReason::Withheld {
        WhyLeftOut::Unreachable
    } else {
        WhyLeftOut::Census(reason.clone())
    }
}

fn refusal_reason(refusal: super::ServedNameRefusal) -> WhyLeftOut {
    match refusal {
        super::ServedNameRefusal::Provider(rejection) => WhyLeftOut::FormRefused(rejection),
        other => WhyLeftOut::Unsupported {
            reason: other.to_string(),
        },
    }
}

/// `definition` as the MCP tool `name`: its description, title and annotations, and its
/// parameter schema as it is or prepared for the options' dialect (a refusal leaves it out).
fn served_tool(
    name: &str,
    definition: &ToolDefinition,
    options: &ServeOptions,
) -> Result<Tool, WhyLeftOut> {
    let schema = match options.dialect {
        None => definition.parameters_schema(),
        Some(dialect) => match prepare_definition_cached(dialect, definition).as_ref() {
            Ok(prepared) => prepared.schema.clone(),
            Err(refusal) => return Err(WhyLeftOut::SchemaRefused(refusal.clone())),
        },
    };
    // MCP's `inputSchema` is an object; a schema that is not one is never turned into "any
    // arguments" (`ToolDefinition::parameters_schema`): the tool is left out, saying so.
    let Value::Object(schema) = schema else {
        return Err(WhyLeftOut::Unsupported {
            reason: "its parameter schema is not a JSON object, as MCP's inputSchema must be"
                .to_owned(),
        });
    };
    let description =
        (!definition.description.is_empty()).then(|| definition.description.clone().into());
    let mut tool = Tool::new_with_raw(name.to_owned(), description, Arc::new(schema));
    tool.title = definition.title.clone();
    // Served as it came (MCP's `outputSchema` is an object schema, rmcp's `Tool` holds an
    // object): the backend's `structuredContent` passes through the gateway unchanged, so it
    // conforms to it exactly when it conformed at the backend. A definition whose output
    // schema is not an object has none served: MCP has no place for another kind.
    if let Some(Value::Object(output)) = &definition.output_schema {
        tool.output_schema = Some(Arc::new(output.clone()));
    }
    if !definition.annotations.is_empty() {
        tool.annotations = Some(mcp_annotations(&definition.annotations));
    }
    Ok(tool)
}

fn mcp_annotations(hints: &ToolAnnotations) -> McpAnnotations {
    McpAnnotations::from_raw(
        None,
        hints.read_only_hint,
        hints.destructive_hint,
        hints.idempotent_hint,
        hints.open_world_hint,
    )
}
