//! What a turn costs with the 2,486 tools of the MCP corpus loaded (`mcp/<server>/<tool>`, one
//! provider per server, one small object schema each): `request()`, `tools()` and a
//! serialisation of the finished list, with nothing changed and just after a provider reload,
//! in one run so the ratios can be quoted (docs/performance.md, "A turn with 2,486 tools").
//!
//! The runtime's catalog policy is `All` here, so every list carries every tool: OpenAI takes at
//! most 128 tools, so its list of 2,486 is refused (`WireError::OverLimit`) after it is built:
//! `tools(OpenAi)` is measured as asked, and the list serialised is the Messages API's (no
//! tool-count limit; the same tools, the same schemas). The default policy defers that catalog:
//! `deferred/*` measures a conversation's turn, which carries the meta-tools and what it loaded.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use toolwire_core::{
    provider::provider_fn, runtime::CatalogPolicy, ToolDefinition, ToolRuntime, WireFormat,
};
use toolwire_test_support::corpus::corpus;

/// The corpus's servers and their tools' names, in file order.
fn corpus_servers() -> Vec<(String, Vec<String>)> {
    corpus("mcp-servers.json")["servers"]
        .as_array()
        .expect("servers is a list")
        .iter()
        .map(|server| {
            let name = server["server"].as_str().expect("a server name").to_owned();
            let tools = server["tools"]
                .as_array()
                .expect("tools is a list")
                .iter()
                .map(|t| t.as_str().expect("a tool name").to_owned())
                .collect();
            (name, tools)
        })
        .collect()
}

/// A runtime with one provider per corpus server.
fn loaded_runtime(rt: &tokio::runtime::Runtime, policy: CatalogPolicy) -> (ToolRuntime, String) {
    let servers = corpus_servers();
    let runtime = ToolRuntime::builder().catalog(policy).build().unwrap();
    rt.block_on(async {
        for (server, tools) in &servers {
            let definitions = tools
                .iter()
                .map(|tool| {
                    ToolDefinition::new(
                        format!("mcp/{server}/{tool}"),
                        format!("The {tool} tool of the {server} server."),
                        json!({
                            "type": "object",
                            "properties": {"query": {"type": "string", "description": "What to look for."}},
                            "required": ["query"],
                        }),
                    )
                })
                .collect();
            let provider = provider_fn(format!("mcp/{server}"), definitions, |_, arguments| {
                async move { Ok(arguments) }
            });
            runtime.add_provider(Arc::new(provider)).await.unwrap().check().unwrap();
        }
    });
    let request = runtime.request();
    assert_eq!(
        request.census().tools().len(),
        2_486,
        "the corpus has 2,486 tools"
    );
    let first = format!("mcp/{}", servers[0].0);
    (runtime, first)
}

/// `iters` runs of `measure`, each just after `prepare` (not timed).
fn timed_after<P, M, O>(iters: u64, mut prepare: impl FnMut() -> P, mut measure: M) -> Duration
where
    M: FnMut(P) -> O,
{
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let input = prepare();
        let start = Instant::now();
        black_box(measure(input));
        total += start.elapsed();
    }
    total
}

fn bench_turn(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let (runtime, reloaded) = loaded_runtime(&rt, CatalogPolicy::All);
    let reload = || {
        rt.block_on(runtime.reload_provider(&reloaded))
            .unwrap()
            .check()
            .unwrap();
    };

    let mut group = c.benchmark_group("turn_2486");
    // Nothing changed: every request shares what the last change built.
    let request = runtime.request();
    let list = request.tools(WireFormat::Anthropic).unwrap();
    assert!(
        request.tools(WireFormat::OpenAi).is_err(),
        "over OpenAI's 128"
    );
    group.bench_function("unchanged/request", |b| b.iter(|| runtime.request()));
    group.bench_function("unchanged/tools_openai", |b| {
        b.iter(|| request.tools(WireFormat::OpenAi))
    });
    group.bench_function("unchanged/tools_anthropic", |b| {
        b.iter(|| request.tools(WireFormat::Anthropic))
    });
    group.bench_function("unchanged/request_and_tools_openai", |b| {
        b.iter(|| runtime.request().tools(WireFormat::OpenAi))
    });
    group.bench_function("unchanged/request_and_tools_anthropic", |b| {
        b.iter(|| runtime.request().tools(WireFormat::Anthropic))
    });
    group.bench_function("to_string_anthropic_list", |b| {
        b.iter(|| serde_json::to_string(&list).unwrap())
    });
    drop((request, list));

    // Just after a reload of one provider (the reload itself is not timed): the first request
    // builds the tool set and its census, the first `tools()` of a format builds that list.
    group.sample_size(30);
    group.bench_function("after_reload/request", |b| {
        b.iter_custom(|iters| timed_after(iters, reload, |()| runtime.request()))
    });
    group.bench_function("after_reload/tools_openai", |b| {
        b.iter_custom(|iters| {
            let prepare = || {
                reload();
                runtime.request()
            };
            timed_after(iters, prepare, |r| r.tools(WireFormat::OpenAi))
        })
    });
    group.bench_function("after_reload/tools_anthropic", |b| {
        b.iter_custom(|iters| {
            let prepare = || {
                reload();
                runtime.request()
            };
            timed_after(iters, prepare, |r| r.tools(WireFormat::Anthropic))
        })
    });
    group.bench_function("after_reload/request_and_tools_anthropic", |b| {
        b.iter_custom(|iters| {
            timed_after(iters, reload, |()| {
                runtime.request().tools(WireFormat::Anthropic)
            })
        })
    });

    // The default policy: the catalog is deferred; a conversation that loaded five tools.
    let (deferred, _) = loaded_runtime(&rt, CatalogPolicy::default());
    let conversation = deferred.conversation();
    let census = deferred.request().census().clone();
    for tool in census.tools().iter().take(5) {
        conversation.load(tool.name());
    }
    assert_eq!(
        conversation
            .request()
            .tools(WireFormat::OpenAi)
            .unwrap()
            .as_array()
            .map(Vec::len),
        Some(8),
        "3 meta-tools and 5 loaded tools"
    );
    group.sample_size(100);
    group.bench_function("deferred/request_and_tools_openai", |b| {
        b.iter(|| conversation.request().tools(WireFormat::OpenAi))
    });
    let request = conversation.request();
    group.bench_function("deferred/tool_search", |b| {
        b.iter(|| request.search("list the issues of a repository", 5))
    });
    group.finish();
}

criterion_group!(benches, bench_turn);
criterion_main!(benches);
