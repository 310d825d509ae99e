//! Tool definitions and their provider wire shapes (hops 2 and 3 of the spec): the formats, the
//! tool list and its per-request limits, generic over the providers. Each shape and each limit
//! is the provider folder's (`openai/`, `anthropic/`, `converse/`, `gemini/`); this file asks
//! the format's API for it ([`LlmApi`](super::api::LlmApi), found in the table `apis.rs`).
//!
//! Policy: only offered tools travel, each under its model-safe form, with its description
//! verbatim and its parameter schema prepared for the format's dialect (as it is wherever the
//! dialect takes it); shape changes between providers, the name string does not.

use std::fmt;

use serde_json::Value;

use super::apis::{api, wire_dialect};
use super::calls::CallFormat;
use super::tool_list::{LeftOutTool, ToolList, WhyLeftOut};
use crate::census::Census;
use crate::schema::{prepare_definition_cached, Dialect};
use crate::tools::ToolDefinition;
use crate::wire::name_rules::check_name;
use crate::wire::LlmProvider;

/// A provider's request shape for tools, strict or not.
///
/// Strict is an option of the OpenAI (Chat Completions and Responses), Messages API and Converse
/// shapes: the tool carries `"strict": true` and its schema is prepared for the strict dialect.
///
/// ```
/// use toolwire_core::{WireFormat, schema::Dialect};
/// assert_eq!(WireFormat::ALL.len(), 9);
/// assert_eq!(WireFormat::OpenAiResponsesStrict.dialect(), Dialect::OpenAiStrict);
/// assert_eq!(WireFormat::ConverseStrict.dialect(), Dialect::AnthropicStrict);
/// assert_eq!(WireFormat::from_key("openai-strict"), Some(WireFormat::OpenAiStrict));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WireFormat {
    /// OpenAI: `{"type":"function","function":{name, description, parameters}}`.
    OpenAi,
    /// OpenAI with structured outputs: `function.strict: true`, schema for `openai-strict`.
    OpenAiStrict,
    /// The OpenAI Responses API: flat function tools `{"type":"function", name, description,
    /// parameters, "strict": false}` (`strict` is always sent: the API's type requires it),
    /// the `openai` dialect.
    OpenAiResponses,
    /// The Responses API with `"strict": true`, the schema for `openai-strict`.
    OpenAiResponsesStrict,
    /// The Anthropic Messages API: `{name, description, input_schema}`.
    Anthropic,
    /// The Messages API with `"strict": true` beside `input_schema` (`anthropic-strict`).
    AnthropicStrict,
    /// Bedrock Converse: `{"toolSpec":{name, description, "inputSchema":{"json":…}}}`. Converse
    /// refuses an empty description, so a tool without one is described by its real name.
    Converse,
    /// Bedrock Converse with `toolSpec.strict: true` (the `anthropic-strict` dialect).
    ConverseStrict,
    /// Gemini: one `{"functionDeclarations":[{name, description, parameters}, …]}`.
    Gemini,
}

impl WireFormat {
    /// Every wire format.
    ///
    /// ```
    /// use toolwire_core::{WireFormat, wire::LlmProvider};
    /// let providers: Vec<LlmProvider> = WireFormat::ALL.iter().map(|f| f.llm_provider()).collect();
    /// assert!(LlmProvider::ALL.iter().all(|p| providers.contains(p)));
    /// ```
    pub const ALL: [WireFormat; 9] = [
        WireFormat::OpenAi,
        WireFormat::OpenAiStrict,
        WireFormat::OpenAiResponses,
        WireFormat::OpenAiResponsesStrict,
        WireFormat::Anthropic,
        WireFormat::AnthropicStrict,
        WireFormat::Converse,
        WireFormat::ConverseStrict,
        WireFormat::Gemini,
    ];

    /// The provider whose name rule and request limits apply to this shape.
    ///
    /// ```
    /// use toolwire_core::{WireFormat, wire::LlmProvider};
    /// assert_eq!(WireFormat::Converse.llm_provider(), LlmProvider::Converse);
    /// assert_eq!(WireFormat::ConverseStrict.llm_provider(), LlmProvider::Converse);
    /// ```
    pub const fn llm_provider(self) -> LlmProvider {
        match self {
            // One name rule for both APIs: the Responses API's `FunctionToolParam.name` documents
            // none of its own (openai-python 3.57), so Chat Completions' is kept (our reading).
            WireFormat::OpenAi
            | WireFormat::OpenAiStrict
            | WireFormat::OpenAiResponses
            | WireFormat::OpenAiResponsesStrict => LlmProvider::OpenAi,
            WireFormat::Anthropic | WireFormat::AnthropicStrict => LlmProvider::Anthropic,
            WireFormat::Converse | WireFormat::ConverseStrict => LlmProvider::Converse,
            WireFormat::Gemini => LlmProvider::Gemini,
        }
    }

    /// The schema dialect of this shape's parameter field.
    ///
    /// ```
    /// use toolwire_core::{WireFormat, schema::Dialect};
    /// assert_eq!(WireFormat::Gemini.dialect(), Dialect::Gemini);
    /// assert_eq!(WireFormat::AnthropicStrict.dialect(), Dialect::AnthropicStrict);
    /// ```
    pub const fn dialect(self) -> Dialect {
        wire_dialect(self)
    }

    /// Whether tools carry `"strict": true` in this shape.
    ///
    /// ```
    /// assert!(toolwire_core::WireFormat::OpenAiStrict.is_strict());
    /// ```
    pub const fn is_strict(self) -> bool {
        self.dialect().is_strict()
    }

    /// The stable key (`openai`, `openai-strict`, `openai-responses`, `openai-responses-strict`,
    /// `anthropic`, `anthropic-strict`, `converse`, `converse-strict`, `gemini`).
    ///
    /// ```
    /// use toolwire_core::WireFormat;
    /// assert_eq!(WireFormat::ConverseStrict.key(), "converse-strict");
    /// assert_eq!(WireFormat::OpenAiResponses.key(), "openai-responses");
    /// ```
    pub const fn key(self) -> &'static str {
        match self {
            WireFormat::OpenAiResponses => "openai-responses",
            WireFormat::OpenAiResponsesStrict => "openai-responses-strict",
            WireFormat::ConverseStrict => "converse-strict",
            other => other.dialect().key(),
        }
    }

    /// The shape of the responses to a request whose tools are in this shape: where its calls
    /// come back, how its answers and its replayed turn go ([`wire::calls`](crate::wire::calls)).
    ///
    /// ```
    /// use toolwire_core::{WireFormat, wire::calls::CallFormat};
    /// assert_eq!(WireFormat::OpenAiStrict.call_format(), CallFormat::OpenAiChat);
    /// assert_eq!(WireFormat::OpenAiResponsesStrict.call_format(), CallFormat::OpenAiResponses);
    /// ```
    pub const fn call_format(self) -> CallFormat {
        match self {
            WireFormat::OpenAi | WireFormat::OpenAiStrict => CallFormat::OpenAiChat,
            WireFormat::OpenAiResponses | WireFormat::OpenAiResponsesStrict => {
                CallFormat::OpenAiResponses
            }
            WireFormat::Anthropic | WireFormat::AnthropicStrict => CallFormat::Anthropic,
            WireFormat::Converse | WireFormat::ConverseStrict => CallFormat::Converse,
            WireFormat::Gemini => CallFormat::Gemini,
        }
    }

    /// The format of `key`, if it is one.
    ///
    /// ```
    /// use toolwire_core::WireFormat;
    /// assert_eq!(WireFormat::from_key("gemini"), Some(WireFormat::Gemini));
    /// assert_eq!(WireFormat::from_key("bard"), None);
    /// ```
    pub fn from_key(key: &str) -> Option<WireFormat> {
        WireFormat::ALL.into_iter().find(|f| f.key() == key)
    }
}

impl fmt::Display for WireFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The tool list of one request in `format`: the offered tools of `census`, each under its
/// model-safe form with its schema prepared for the format's dialect ([`prepare_definition_cached`]),
/// in census order, and beside it every tool it leaves out with why ([`ToolList::left_out`]):
/// what the census left out, a tool the runtime cannot run ([`unsupported_reason`]), a form
/// the provider refuses (Gemini wants a letter or `_` first), a schema the dialect refuses. A
/// tool left out of this list stays in the census, so its names still reach it and never
/// another tool. `definitions` are the census input, in the same order. Gemini's list is one
/// `{"functionDeclarations":[…]}` object (an empty list when nothing is offered).
///
/// A list over the provider's per-request limits (OpenAI: 128 tools; strict Messages API and
/// Converse: 20 strict tools, 24 optional and 16 union parameters) is an error, not a request.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{Census, ToolDefinition, WireFormat, names::DEFAULT_META_TOOLS, wire::{wire_tools, WhyLeftOut}};
///
/// let defs = [
///     ToolDefinition::new("mcp/server/echo", "Echoes.", json!(null)),
///     ToolDefinition::new("mcp/server/research", "Researches.", json!(null))
///         .unsupported_because("it requires MCP tasks"),
/// ];
/// let census = Census::build(defs.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
/// let tools = wire_tools(&census, &defs, WireFormat::Anthropic).unwrap();
/// assert_eq!(tools, json!([{
///     "name": "mcp_server_echo", "description": "Echoes.",
///     "input_schema": {"type": "object", "properties": {}},
/// }]));
/// assert_eq!(tools.left_out()[0].name, "mcp/server/research");
/// assert_eq!(tools.left_out()[0].reason, WhyLeftOut::Unsupported { reason: "it requires MCP tasks".into() });
/// let strict = wire_tools(&census, &defs, WireFormat::OpenAiStrict).unwrap();
/// assert_eq!(strict[0]["function"]["strict"], true);
/// assert_eq!(strict[0]["function"]["parameters"]["additionalProperties"], false);
/// ```
pub fn wire_tools(
    census: &Census,
    definitions: &[ToolDefinition],
    format: WireFormat,
) -> Result<ToolList, WireError> {
    check_census_matches(census, definitions)?;
    let mut offered = Vec::new();
    let mut left_out = Vec::new();
    for (tool, def) in census.tools().iter().zip(definitions) {
        match tool.left_out_reason() {
            None => offered.push((tool.form(), def)),
            Some(reason) => left_out.push(LeftOutTool::new(
                tool.name(),
                tool.form(),
                WhyLeftOut::Census(reason.clone()),
            )),
        }
    }
    wire_list(format, offered, left_out)
}

/// That `definitions` are `census`'s input, in its order.
pub(crate) fn check_census_matches(
    census: &Census,
    definitions: &[ToolDefinition],
) -> Result<(), WireError> {
    if census.tools().len() != definitions.len() {
        return Err(WireError::Count {
            census: census.tools().len(),
            definitions: definitions.len(),
        });
    }
    for (index, (tool, def)) in census.tools().iter().zip(definitions).enumerate() {
        if tool.name() != def.name {
            return Err(WireError::Name {
                index,
                census: tool.name().to_owned(),
                definition: def.name.clone(),
            });
        }
    }
    Ok(())
}

/// Why the runtime cannot run `definition` at all, if it cannot: then no request carries it,
/// under any provider, and a call to it fails with this reason. The one judgement
/// [`wire_tools`] (so `toolwire wire`), `toolwire census` and the runtime (its tool lists, its
/// Tools page, its dispatch) share. Today that is an MCP tool whose `execution.taskSupport` is
/// `required` (the MCP client marks it so when it lists the server's tools): toolwire does not
/// run MCP tasks.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{ToolDefinition, wire::unsupported_reason};
/// let echo = ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}));
/// assert_eq!(unsupported_reason(&echo), None);
/// let research = echo.unsupported_because("it requires MCP tasks");
/// assert_eq!(unsupported_reason(&research), Some("it requires MCP tasks"));
/// ```
pub fn unsupported_reason(definition: &ToolDefinition) -> Option<&str> {
    definition.unsupported.as_deref()
}

/// The tool list in `format` of `entries` (each a form and the definition that travels under
/// it), in their order, with `left_out` (what the caller already left out) and what this list
/// refuses: the one place a list is shaped, for [`wire_tools`] and for the runtime's requests
/// (its meta-tools first, then the tools a request carries). A tool the runtime cannot run,
/// a form the provider refuses and a schema the dialect refuses are left out (with a warning,
/// a convenience: the list says it); a list over its limits is an error.
pub(crate) fn wire_list<'a>(
    format: WireFormat,
    entries: impl IntoIterator<Item = (&'a str, &'a ToolDefinition)>,
    mut left_out: Vec<LeftOutTool>,
) -> Result<ToolList, WireError> {
    let api = api(format.call_format());
    let strict = format.is_strict();
    let dialect = api.dialect(strict);
    let provider = api.provider();
    let mut list = Vec::new();
    let mut prepared_schemas = Vec::new();
    for (form, def) in entries {
        if let Some(reason) = unsupported_reason(def) {
            left_out.push(LeftOutTool::new(
                &def.name,
                form,
                WhyLeftOut::Unsupported {
                    reason: reason.to_owned(),
                },
            ));
            continue;
        }
        // One refused name fails the whole request: a form this provider refuses (Gemini
        // wants a letter or `_` first) stays out of its list, loudly.
        if let Err(why) = check_name(provider, api.name_rule(), form) {
            tracing::warn!(
                tool = def.name.as_str(),
                form,
                "tool left out of the {provider} tool list: {why}; rename it",
            );
            left_out.push(LeftOutTool::new(
                &def.name,
                form,
                WhyLeftOut::FormRefused(why),
            ));
            continue;
        }
        let prepared = prepare_definition_cached(dialect, def);
        match &*prepared {
            Ok(ready) => {
                list.push(api.tool(form, def, &ready.schema, strict));
                prepared_schemas.push(prepared.clone());
            }
            // Likewise a schema the dialect refuses: the tool is left out of this list only.
            Err(refusal) => {
                tracing::warn!(
                    tool = def.name.as_str(),
                    provider = format.key(),
                    "tool left out of the {format} tool list: {refusal}"
                );
                left_out.push(LeftOutTool::new(
                    &def.name,
                    form,
                    WhyLeftOut::SchemaRefused(refusal.clone()),
                ));
            }
        }
    }
    check_request_limits(format, &prepared_schemas)?;
    Ok(ToolList::new(api.tool_list(list), left_out))
}

/// The per-request limits of `format`, over the schemas about to be sent.
fn check_request_limits(
    format: WireFormat,
    schemas: &[std::sync::Arc<crate::schema::Preparation>],
) -> Result<(), WireError> {
    let api = api(format.call_format());
    let strict = format.is_strict();
    let over = |limit: RequestLimit, found: usize| match api.request_limit(limit, strict) {
        Some(most) if found > most => Err(WireError::OverLimit {
            format,
            limit,
            found,
        }),
        _ => Ok(()),
    };
    over(RequestLimit::OpenAiTools, schemas.len())?;
    if api
        .request_limit(RequestLimit::StrictTools, strict)
        .is_some()
    {
        let (mut optional, mut unions) = (0, 0);
        for schema in schemas.iter().filter_map(|p| p.as_ref().as_ref().ok()) {
            count_parameters(&schema.schema, &mut optional, &mut unions, 0);
        }
        over(RequestLimit::StrictTools, schemas.len())?;
        over(RequestLimit::StrictOptionalParameters, optional)?;
        over(RequestLimit::StrictUnionParameters, unions)?;
    }
    Ok(())
}

/// Counts the optional parameters and the parameters with a union type (`anyOf` or a type
/// array) of a schema, at every level of nesting.
fn count_parameters(schema: &Value, optional: &mut usize, unions: &mut usize, depth: usize) {
    let Some(map) = schema.as_object() else {
        return;
    };
    if depth > 64 {
        return;
    }
    if let Some(Value::Object(properties)) = map.get("properties") {
        let required = map.get("required").and_then(Value::as_array);
        for (name, property) in properties {
            if !required.is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name))) {
                *optional += 1;
            }
            if property.get("anyOf").is_some() || property.get("type").is_some_and(Value::is_array)
            {
                *unions += 1;
            }
            count_parameters(property, optional, unions, depth + 1);
        }
    }
    for key in ["items", "anyOf", "$defs"] {
        match map.get(key) {
            Some(Value::Array(list)) => list
                .iter()
                .for_each(|s| count_parameters(s, optional, unions, depth + 1)),
            Some(Value::Object(defs)) if key == "$defs" => defs
                .values()
                .for_each(|s| count_parameters(s, optional, unions, depth + 1)),
            Some(other) if key == "items" => count_parameters(other, optional, unions, depth + 1),
            _ => {}
        }
    }
}

/// A per-request limit of a provider: over it, the provider refuses the whole request.
///
/// ```
/// use toolwire_core::wire::RequestLimit;
/// assert_eq!(RequestLimit::OpenAiTools.most(), 128);
/// assert_eq!(RequestLimit::StrictTools.most(), 20);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RequestLimit {
    /// OpenAI: at most 128 tools per request.
    OpenAiTools,
    /// Strict Messages API and Converse: at most 20 strict tools.
    StrictTools,
    /// Strict: at most 24 optional parameters over all strict tools.
    StrictOptionalParameters,
    /// Strict: at most 16 parameters with `anyOf` or a type array over all strict tools.
    StrictUnionParameters,
    /// Messages API with its tool search: at most 10,000 deferred tools.
    AnthropicDeferredTools,
}

impl RequestLimit {
    /// The most the provider takes.
    ///
    /// ```
    /// assert_eq!(toolwire_core::wire::RequestLimit::StrictUnionParameters.most(), 16);
    /// ```
    pub fn most(self) -> usize {
        // Each limit is one API's fact (every API that sets one agrees: a test in `apis.rs`).
        WireFormat::ALL
            .into_iter()
            .find_map(|format| api(format.call_format()).request_limit(self, format.is_strict()))
            .unwrap_or(usize::MAX)
    }

    /// What is counted, in words.
    ///
    /// ```
    /// assert_eq!(toolwire_core::wire::RequestLimit::OpenAiTools.what(), "tools");
    /// ```
    pub fn what(self) -> &'static str {
        match self {
            RequestLimit::OpenAiTools => "tools",
            RequestLimit::AnthropicDeferredTools => "deferred tools",
            RequestLimit::StrictTools => "strict tools",
            RequestLimit::StrictOptionalParameters => "optional parameters over all strict tools",
            RequestLimit::StrictUnionParameters => {
                "parameters with anyOf or a type array over all strict tools"
            }
        }
    }
}

/// Why [`wire_tools`] gives no list.
///
/// ```
/// use toolwire_core::{Census, ToolDefinition, WireFormat, wire::wire_tools};
/// let census = Census::build(["a"], &[]);
/// let err = wire_tools(&census, &[ToolDefinition::new("b", "d", serde_json::json!({}))], WireFormat::OpenAi).unwrap_err();
/// assert!(err.to_string().contains("`b`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
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
    /// The format has no native tool search (native deferral is confirmed for the Messages
    /// API only).
    #[error("the {format} format has no native tool search; use the tool catalog (tool_search)")]
    NoNativeDeferral {
        /// The wire format.
        format: WireFormat,
    },
    /// The format has no namespaces: only the Responses API groups tools under a `namespace`
    /// tool ([`namespaced_tools`](crate::wire::namespaced_tools)).
    #[error("the {format} format has no namespace tools; use openai-responses or openai-responses-strict")]
    NoNamespaces {
        /// The wire format.
        format: WireFormat,
    },
    /// A tool travels under a name the provider's own tool (its tool search) has: the request
    /// would name a tool twice.
    #[error(
        "tool `{tool}` travels as `{name}`, the name of the provider's own tool search; rename it"
    )]
    NameTaken {
        /// The name.
        name: String,
        /// The tool's real name.
        tool: String,
    },
    /// The list is over one of the provider's per-request limits: sent, it would fail whole.
    #[error("the {format} tool list has {found} {}; the provider takes at most {}", limit.what(), limit.most())]
    OverLimit {
        /// The wire format.
        format: WireFormat,
        /// The limit passed.
        limit: RequestLimit,
        /// What the list has.
        found: usize,
    },
}
