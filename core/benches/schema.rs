//! Preparing the 64 tool schemas of the MCP corpus (`fixtures/corpus/mcp-schemas.json`) for one
//! dialect (`prepare_schema`, uncached and cached) and checking them (`check_schema`), each
//! beside a `serde_json::Value` clone of the same 64 schemas in the same run so the ratios can be
//! quoted. One group per dialect.
//!
//! Every routine lets go of what it made inside the timed loop (a clone is dropped, a
//! preparation is dropped, a cached `Arc` is released), as a caller would.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::Value;
use toolwire_core::schema::{check_schema, prepare_schema, prepare_schema_cached, Dialect};
use toolwire_test_support::corpus::corpus;

/// The corpus's 64 `inputSchema`s (`servers[].tools[].inputSchema`), in file order.
fn corpus_schemas() -> Vec<Value> {
    let corpus = corpus("mcp-schemas.json");
    let schemas: Vec<Value> = corpus["servers"]
        .as_array()
        .expect("servers is a list")
        .iter()
        .flat_map(|server| server["tools"].as_array().expect("tools is a list"))
        .map(|tool| tool["inputSchema"].clone())
        .collect();
    assert_eq!(schemas.len(), 64, "mcp-schemas.json has 64 tools");
    schemas
}

fn bench_schemas(c: &mut Criterion) {
    let schemas = corpus_schemas();
    for dialect in Dialect::ALL {
        // Hot: every later cached call is a hit.
        for schema in &schemas {
            black_box(prepare_schema_cached(dialect, schema));
        }
        let mut group = c.benchmark_group(format!("schema_{}", dialect.key()));
        group.throughput(Throughput::Elements(schemas.len() as u64));
        group.bench_function("clone", |b| {
            b.iter(|| {
                for schema in black_box(&schemas) {
                    black_box(schema.clone());
                }
            })
        });
        group.bench_function("prepare", |b| {
            b.iter(|| {
                for schema in black_box(&schemas) {
                    let _ = black_box(prepare_schema(dialect, schema));
                }
            })
        });
        group.bench_function("prepare_cached", |b| {
            b.iter(|| {
                for schema in black_box(&schemas) {
                    black_box(prepare_schema_cached(dialect, schema));
                }
            })
        });
        group.bench_function("check", |b| {
            b.iter(|| {
                for schema in black_box(&schemas) {
                    black_box(check_schema(dialect, schema));
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench_schemas);
criterion_main!(benches);
