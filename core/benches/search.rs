//! Searching a tool set: `SearchIndex::search` beside a linear case-insensitive substring scan
//! of the same tools (name, form, description) in the same run, and the index's build time.
//!
//! Two tool sets from `fixtures/corpus/`: the 2,486 names of `mcp-servers.json`
//! (`mcp/<server>/<tool>`, no descriptions) and the 64 described tools of `mcp-schemas.json`.
//! Two baselines: `substring` is today's `tool_search` (lowercase every name, form and
//! description at every query, then `contains`); `substring_prelowered` lowercases once before
//! the run, the cheapest a substring scan can be. Quoted in docs/performance.md ("Searching
//! tools").

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use serde_json::Value;
use toolwire_core::{names::DEFAULT_META_TOOLS, search::SearchIndex, Census};
use toolwire_test_support::corpus::corpus;

/// One tool as both searches see it.
struct Doc {
    name: String,
    form: String,
    description: String,
}

/// The tools of a corpus file, named `mcp/<server>/<tool>`, with their forms from a census.
fn docs(file: &str) -> Vec<Doc> {
    let corpus = corpus(file);
    let mut named: Vec<(String, String)> = Vec::new();
    for server in corpus["servers"].as_array().expect("servers is a list") {
        let server_name = server["server"].as_str().expect("a server name");
        for tool in server["tools"].as_array().expect("tools is a list") {
            // mcp-servers.json lists names; mcp-schemas.json whole tool objects.
            let (name, description) = match tool {
                Value::String(name) => (name.as_str(), ""),
                tool => (
                    tool["name"].as_str().expect("a tool name"),
                    tool["description"].as_str().unwrap_or(""),
                ),
            };
            named.push((format!("mcp/{server_name}/{name}"), description.to_owned()));
        }
    }
    let census = Census::build(named.iter().map(|(n, _)| n), &DEFAULT_META_TOOLS);
    census
        .tools()
        .iter()
        .zip(named)
        .map(|(tool, (name, description))| Doc {
            form: tool.form().to_owned(),
            name,
            description,
        })
        .collect()
}

fn index_of(docs: &[Doc]) -> SearchIndex {
    SearchIndex::build(
        docs.iter()
            .map(|d| (d.name.as_str(), d.form.as_str(), d.description.as_str())),
    )
}

/// Today's `tool_search`: every tool whose name, form or description contains the query,
/// case-insensitively, lowercasing each at each query.
fn substring_scan(docs: &[Doc], query: &str) -> Vec<usize> {
    let query = query.to_lowercase();
    docs.iter()
        .enumerate()
        .filter(|(_, d)| {
            d.name.to_lowercase().contains(&query)
                || d.form.to_lowercase().contains(&query)
                || d.description.to_lowercase().contains(&query)
        })
        .map(|(i, _)| i)
        .collect()
}

/// The same scan over text lowercased once, before the run.
fn substring_scan_prelowered(lowered: &[[String; 3]], query: &str) -> Vec<usize> {
    let query = query.to_lowercase();
    lowered
        .iter()
        .enumerate()
        .filter(|(_, fields)| fields.iter().any(|f| f.contains(&query)))
        .map(|(i, _)| i)
        .collect()
}

fn bench_set(c: &mut Criterion, label: &str, docs: &[Doc], queries: &[&str]) {
    let index = index_of(docs);
    let lowered: Vec<[String; 3]> = docs
        .iter()
        .map(|d| {
            [
                d.name.to_lowercase(),
                d.form.to_lowercase(),
                d.description.to_lowercase(),
            ]
        })
        .collect();
    let mut group = c.benchmark_group(format!("search_{label}"));
    for &query in queries {
        group.bench_with_input(BenchmarkId::new("index", query), query, |b, q| {
            b.iter(|| index.search(black_box(q), 5, |_| true))
        });
        group.bench_with_input(BenchmarkId::new("substring", query), query, |b, q| {
            b.iter(|| substring_scan(black_box(docs), black_box(q)))
        });
        group.bench_with_input(
            BenchmarkId::new("substring_prelowered", query),
            query,
            |b, q| b.iter(|| substring_scan_prelowered(black_box(&lowered), black_box(q))),
        );
    }
    group.finish();

    let mut group = c.benchmark_group(format!("search_build_{label}"));
    group.sample_size(20);
    group.bench_function("index", |b| b.iter(|| index_of(black_box(docs))));
    group.finish();
}

fn bench_search(c: &mut Criterion) {
    let names = docs("mcp-servers.json");
    assert_eq!(names.len(), 2_486, "the corpus has 2,486 tool names");
    bench_set(
        c,
        "2486_names",
        &names,
        &[
            "list github issues",
            "read file",
            "query the database",
            "dns",
        ],
    );
    let described = docs("mcp-schemas.json");
    assert_eq!(described.len(), 64, "the corpus has 64 described tools");
    bench_set(
        c,
        "64_described",
        &described,
        &[
            "what time is it in Tokyo",
            "read file",
            "delete entities from the knowledge graph",
        ],
    );
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
