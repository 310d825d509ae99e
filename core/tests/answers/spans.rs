//! Each call runs in an `execute_tool` span with OpenTelemetry's GenAI attributes, seen by a
//! real `tracing-subscriber` layer.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::Subscriber;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

use toolwire_core::provider::provider_fn;
use toolwire_core::tools::{ToolDefinition, ToolError};
use toolwire_core::ToolRuntime;

use super::call;

/// A span's name and its fields, as recorded (at creation and later).
type SeenSpan = (String, BTreeMap<String, String>);

/// Every span the layer saw.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<SeenSpan>>>);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

/// The span's position in `Spans`, kept in the span's extensions.
struct Slot(usize);

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Spans {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        let mut spans = self.0.lock().unwrap();
        spans.push((attrs.metadata().name().to_owned(), fields));
        ctx.span(id)
            .unwrap()
            .extensions_mut()
            .insert(Slot(spans.len() - 1));
    }
    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let span = ctx.span(id).unwrap();
        let slot = span.extensions().get::<Slot>().unwrap().0;
        values.record(&mut Fields(&mut self.0.lock().unwrap()[slot].1));
    }
}

fn field<'a>(fields: &'a BTreeMap<String, String>, name: &str) -> Option<&'a str> {
    fields.get(name).map(String::as_str)
}

#[tokio::test]
async fn each_call_runs_in_an_execute_tool_span_with_the_gen_ai_attributes() {
    let spans = Spans::default();
    let _guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));

    let tools = ["files/read", "files/fail"]
        .map(|n| ToolDefinition::new(n, "A tool.", json!({})))
        .to_vec();
    let files = provider_fn("files", tools, |tool, arguments| async move {
        if tool == "files/fail" {
            return Err(ToolError::Failed {
                tool,
                message: "no".into(),
            });
        }
        Ok(arguments)
    });
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(files))
        .await
        .unwrap()
        .check()
        .unwrap();
    let calls = [
        call(Some("call_ok"), "files_read", json!({})),
        call(Some("call_fail"), "files/fail", json!({})),
        call(None, "nope", json!({})),
    ];
    let answers = runtime.request().answer_calls(&calls).await;
    assert_eq!(answers.len(), 3);
    // And a plain dispatch, without a call id.
    runtime
        .request()
        .dispatch("files/read", json!({}))
        .await
        .unwrap();

    let spans = spans.0.lock().unwrap().clone();
    let tool_spans: Vec<&BTreeMap<String, String>> = spans
        .iter()
        .filter(|(name, _)| name == "execute_tool")
        .map(|(_, fields)| fields)
        .collect();
    assert_eq!(tool_spans.len(), 4, "{spans:?}");

    let ok = tool_spans[0];
    assert_eq!(field(ok, "otel.name"), Some("execute_tool files/read"));
    assert_eq!(field(ok, "gen_ai.operation.name"), Some("execute_tool"));
    assert_eq!(
        field(ok, "gen_ai.tool.name"),
        Some("files/read"),
        "the real name"
    );
    assert_eq!(field(ok, "gen_ai.tool.call.id"), Some("call_ok"));
    assert_eq!(
        field(ok, "toolwire.called"),
        Some("files_read"),
        "the called form"
    );
    assert_eq!(field(ok, "toolwire.route"), Some("form"));
    assert_eq!(field(ok, "toolwire.provider"), Some("files"));
    assert_eq!(field(ok, "error.type"), None);

    let failed = tool_spans[1];
    assert_eq!(field(failed, "gen_ai.tool.name"), Some("files/fail"));
    assert_eq!(field(failed, "gen_ai.tool.call.id"), Some("call_fail"));
    assert_eq!(field(failed, "error.type"), Some("failed"));
    assert_eq!(field(failed, "otel.status_code"), Some("ERROR"));

    let unknown = tool_spans[2];
    assert_eq!(field(unknown, "gen_ai.tool.name"), Some("nope"));
    assert_eq!(
        field(unknown, "gen_ai.tool.call.id"),
        None,
        "no id, none invented"
    );
    assert_eq!(field(unknown, "error.type"), Some("unknown_tool"));
    assert_eq!(field(unknown, "toolwire.provider"), None);

    let plain = tool_spans[3];
    assert_eq!(field(plain, "toolwire.route"), Some("exact"));
    assert_eq!(field(plain, "gen_ai.tool.call.id"), None);
}

/// Issue 26, point 6: a namespaced call's span names the tool its (namespace, name) pair
/// reached, not the top-level tool its bare name would.
#[tokio::test]
async fn a_namespaced_call_s_span_names_the_tool_that_ran() {
    let spans = Spans::default();
    let _guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));

    let runtime = ToolRuntime::new();
    for (provider, name) in [("flat", "create_issue"), ("gh", "mcp/github/create_issue")] {
        let tools = vec![ToolDefinition::new(name, "A tool.", json!({}))];
        let provider = provider_fn(provider, tools, |tool, _| async move { Ok(json!(tool)) });
        runtime
            .add_provider(Arc::new(provider))
            .await
            .unwrap()
            .check()
            .unwrap();
    }
    let mut namespaced = call(Some("call_ns"), "create_issue", json!({}));
    namespaced.namespace = Some("mcp_github".into());
    let answers = runtime.request().answer_calls(&[namespaced]).await;
    let ran = answers[0].result.as_ref().unwrap();
    assert_eq!(
        (ran.tool.as_str(), ran.provider.as_str()),
        ("mcp/github/create_issue", "gh")
    );

    let spans = spans.0.lock().unwrap().clone();
    let span = spans
        .iter()
        .find(|(name, _)| name == "execute_tool")
        .map(|(_, fields)| fields)
        .unwrap_or_else(|| panic!("no execute_tool span: {spans:?}"));
    assert_eq!(
        field(span, "gen_ai.tool.name"),
        Some("mcp/github/create_issue")
    );
    assert_eq!(
        field(span, "otel.name"),
        Some("execute_tool mcp/github/create_issue")
    );
    assert_eq!(field(span, "toolwire.provider"), Some("gh"));
    assert_eq!(field(span, "toolwire.called"), Some("create_issue"));
    assert_eq!(field(span, "gen_ai.tool.call.id"), Some("call_ns"));
}
