//! What a conversation's history records cost a turn's `tools()`: 200
//! tools, catalog `All` (one shared list per tool set), and a conversation with 0 records (the
//! baseline), 10 and 1,000 records none of which takes a tool's name, and 1,000 of which one
//! does (the list is then the conversation's own, built at each call). One run, so the
//! ratios against the baseline can be quoted.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use toolwire_core::runtime::{CatalogPolicy, ConversationState, RecordedName};
use toolwire_core::{provider::provider_fn, ToolDefinition, ToolRuntime, WireFormat};

const TOOLS: usize = 200;

/// A runtime of `TOOLS` tools `mcp/s/tool_<i>`, every one carried.
fn runtime(rt: &tokio::runtime::Runtime) -> ToolRuntime {
    let definitions: Vec<ToolDefinition> = (0..TOOLS)
        .map(|i| {
            let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
            ToolDefinition::new(format!("mcp/s/tool_{i}"), "A tool.", schema)
        })
        .collect();
    let runtime = (ToolRuntime::builder().catalog(CatalogPolicy::All))
        .build()
        .unwrap();
    let provider = provider_fn("s", definitions, |_, args| async move { Ok(args) });
    rt.block_on(runtime.add_provider(Arc::new(provider)))
        .unwrap()
        .check()
        .unwrap();
    runtime
}

/// `count` records, as a conversation makes them: a tool's form recorded for that tool (half)
/// and aliases that reach no tool; with `clash`, the first names a tool's form for a gone one.
fn records(count: usize, clash: bool) -> ConversationState {
    let history_names: Vec<RecordedName> = (0..count)
        .map(|i| {
            let (name, tool) = if clash && i == 0 {
                ("mcp_s_tool_0".to_owned(), "mcp/gone/tool".to_owned())
            } else if i % 2 == 0 {
                (
                    format!("mcp_s_tool_{}", i % TOOLS),
                    format!("mcp/s/tool_{}", i % TOOLS),
                )
            } else {
                (
                    format!("mcp_s_tool_{i}_h0badf00"),
                    format!("mcp/s/tool_{}", i % TOOLS),
                )
            };
            RecordedName {
                name,
                namespace: None,
                tool,
            }
        })
        .collect();
    // As an app resumes one: from its saved JSON.
    let saved = json!({ "history_names": history_names });
    serde_json::from_value(saved).unwrap()
}

fn bench_tools(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let runtime = runtime(&rt);
    let mut group = c.benchmark_group("history_records/tools");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(3));
    for (label, count, clash) in [
        ("0", 0, false),
        ("10", 10, false),
        ("1000", 1000, false),
        ("1000_one_clash", 1000, true),
    ] {
        let conversation = runtime.resume(records(count, clash));
        let request = conversation.request();
        let list = request.tools(WireFormat::Anthropic).unwrap();
        assert_eq!(list.left_out().len(), usize::from(clash), "{label}");
        group.bench_function(label, |b| {
            b.iter(|| black_box(request.tools(WireFormat::Anthropic).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_tools);
criterion_main!(benches);
