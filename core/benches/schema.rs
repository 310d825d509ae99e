//! Preparing the 64 tool schemas of the MCP corpus (`fixtures/corpus/mcp-schemas.json`) for one
//! dialect (`prepare_schema`, uncached and cached) and checking them (`check_schema`), each
//! beside a `serde_json::Value` clone of the same 64 schemas in the same run so the ratios can be
//! quoted. One group per dialect.
//!
//! Every routine lets go of what it made inside the timed loop (a clone is dropped, a
//! preparation is dropped, a cached `Arc` is released), as a caller would.
//!
//! `validates_arguments_<size>`: `ToolDefinition::validates_arguments` (a deep compare of the
//! parameters with the schema the registration validates) per call, beside
//! `prepare_definition_cached` of the same definition (the hot cache hit every route that asks
//! it, the report, the rail and the commands, makes for each dialect) and a definition clone:
//! whether the compare matters where it is asked. `small` is a quickstart `#[tool]`'s schema,
//! `large` the corpus's largest. Medians of one run (2 shared cores, 2026-12-02): small 544 ns
//! against 8.74 µs for the cache hit (0.06x), large 10.5 µs against 119 µs (0.09x): the compare
//! is a tenth of the call beside it, and neither is on a request's path (the report, the rail
//! and the commands ask it), so it stays a compare rather than a second copy kept in step.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::Value;
use std::sync::OnceLock;

use toolwire_core::schema::{
    check_schema, prepare_definition_cached, prepare_schema, prepare_schema_cached, Dialect,
};
use toolwire_core::tools::ToolRegistration;
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

/// The schemas the `validates_arguments` registrations build (a registration's schema is a
/// `fn`, so it reads them from here).
static SMALL: OnceLock<Value> = OnceLock::new();
static LARGE: OnceLock<Value> = OnceLock::new();

/// A registration that says its handler validates `schema` (as `#[tool]` does).
fn validating(name: &'static str, schema: fn() -> Value) -> ToolRegistration {
    ToolRegistration {
        name,
        form: name,
        description: "Benchmarked.",
        schema,
        handler: |input| Box::pin(async move { Ok(input.arguments) }),
        module_path: "bench",
        file: "bench.rs",
        line: 1,
        validates_arguments: true,
    }
}

fn bench_validates_arguments(c: &mut Criterion) {
    let largest = corpus_schemas()
        .into_iter()
        .max_by_key(|s| s.to_string().len())
        .expect("64 schemas");
    // `get_weather` of `examples/quickstart.rs`, as `#[tool]` writes it.
    let small = serde_json::json!({"type": "object", "additionalProperties": false,
        "required": ["city"], "properties": {
            "city": {"type": "string", "description": "The city."},
            "days": {"type": ["integer", "null"], "minimum": 0, "maximum": 255,
                "description": "How many days."}}});
    SMALL.get_or_init(|| small);
    LARGE.get_or_init(|| largest);
    let small = validating("small", || SMALL.get().expect("set").clone());
    let large = validating("large", || LARGE.get().expect("set").clone());
    for (size, registration) in [("small", small), ("large", large)] {
        let definition = registration.definition();
        assert!(definition.validates_arguments());
        black_box(prepare_definition_cached(Dialect::Gemini, &definition));
        let mut group = c.benchmark_group(format!("validates_arguments_{size}"));
        group.bench_function("validates_arguments", |b| {
            b.iter(|| black_box(black_box(&definition).validates_arguments()))
        });
        group.bench_function("prepare_definition_cached", |b| {
            b.iter(|| {
                black_box(prepare_definition_cached(
                    Dialect::Gemini,
                    black_box(&definition),
                ))
            })
        });
        group.bench_function("clone", |b| {
            b.iter(|| black_box(black_box(&definition).clone()))
        });
        group.finish();
    }
}

criterion_group!(benches, bench_schemas, bench_validates_arguments);
criterion_main!(benches);
