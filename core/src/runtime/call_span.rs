//! Each call runs in a `tracing` span named and shaped as OpenTelemetry's GenAI semantic
//! conventions name a tool's execution, so an OpenTelemetry exporter
//! (`tracing-opentelemetry`) shows it as other agents' tool calls are shown.
//!
//! Source: OpenTelemetry semantic conventions, "Semantic conventions for generative AI
//! spans", *Execute tool span* (opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/):
//! span name `execute_tool {gen_ai.tool.name}`; `gen_ai.operation.name` = `execute_tool`
//! (required); `gen_ai.tool.name`, `gen_ai.tool.call.id` (recommended, when available);
//! `error.type` (conditionally required, when the operation ended in an error). The span name
//! goes through `otel.name`, the field tracing-opentelemetry reads as the span's name
//! (tracing-opentelemetry docs, "Special fields"). toolwire's own fields, under `toolwire.`:
//! the name the model called, the route and the tool's provider.
//!
//! Policy: the span is a convenience for an app's telemetry; what a call did is in its return
//! value (a [`CallOutcome`] or a [`DispatchError`]), never only here.

use std::future::Future;

use tracing::field::Empty;
use tracing::Instrument;

use super::dispatch::CallOutcome;
use super::errors::DispatchError;
use super::request::Request;
use super::route::Route;
use crate::census::Resolution;

/// `gen_ai.tool.name` and the provider, from the resolution the call runs by (hop 5 done
/// once, by the caller: a namespaced call's is its pair's, never its bare name's): the real
/// name (a meta-tool's own name, the runtime its provider), or the called name and no provider
/// when no tool answers to it.
fn tool_of(
    request: &Request,
    called: &str,
    resolution: Option<Resolution<'_>>,
) -> (String, Option<String>) {
    match resolution {
        Some(Resolution::Tool(hit)) => {
            let provider = request.owner(hit.index).provider.name().to_owned();
            (hit.name.to_owned(), Some(provider))
        }
        Some(Resolution::Meta(meta)) => (meta.to_owned(), Some("runtime".to_owned())),
        None => (called.to_owned(), None),
    }
}

fn route_name(route: Route) -> &'static str {
    match route {
        Route::Meta => "meta",
        Route::Exact => "exact",
        Route::Form => "form",
        Route::History => "history",
    }
}

impl Request {
    /// Runs `call` (the call of `called`, with `call_id` when the provider gave one, resolved
    /// to `resolution`, `None` when no tool answers to it) inside its `execute_tool` span, and
    /// records how it ended.
    pub(super) async fn in_call_span<F>(
        &self,
        called: &str,
        resolution: Option<Resolution<'_>>,
        call_id: Option<&str>,
        call: F,
    ) -> Result<CallOutcome, DispatchError>
    where
        F: Future<Output = Result<CallOutcome, DispatchError>>,
    {
        let (tool, provider) = tool_of(self, called, resolution);
        let span = tracing::info_span!(
            "execute_tool",
            otel.name = %format_args!("execute_tool {tool}"),
            otel.kind = "internal",
            gen_ai.operation.name = "execute_tool",
            gen_ai.tool.name = %tool,
            gen_ai.tool.type = "function",
            gen_ai.tool.call.id = Empty,
            error.type = Empty,
            otel.status_code = Empty,
            toolwire.called = %called,
            toolwire.route = Empty,
            toolwire.provider = Empty,
        );
        if let Some(id) = call_id {
            span.record("gen_ai.tool.call.id", id);
        }
        if let Some(provider) = &provider {
            span.record("toolwire.provider", provider.as_str());
        }
        let result = call.instrument(span.clone()).await;
        match &result {
            Ok(outcome) => {
                span.record("toolwire.route", route_name(outcome.route));
                span.record("toolwire.provider", outcome.provider.as_str());
                if outcome.output.is_error() {
                    // The tool said its result is an error (MCP `isError`).
                    span.record("error.type", "tool_error");
                    span.record("otel.status_code", "ERROR");
                }
            }
            Err(err) => {
                span.record("error.type", err.kind());
                span.record("otel.status_code", "ERROR");
            }
        }
        result
    }
}
