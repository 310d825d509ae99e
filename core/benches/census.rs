//! model_safe_name, building a census, and resolve, each beside a plain HashMap baseline in
//! the same run so the ratios can be quoted.

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use toolwire_core::{model_safe_name, names::DEFAULT_META_TOOLS, Census};
use toolwire_test_support::generated::names;

fn bench_model_safe_name(c: &mut Criterion) {
    let mut group = c.benchmark_group("model_safe_name");
    group.bench_function("safe", |b| {
        b.iter(|| model_safe_name(black_box("list_directory_with_sizes")))
    });
    group.bench_function("unsafe", |b| {
        b.iter(|| model_safe_name(black_box("mcp/filesystem/list_directory_with_sizes")))
    });
    group.bench_function("baseline_to_owned", |b| {
        b.iter(|| black_box("mcp/filesystem/list_directory_with_sizes").to_owned())
    });
    group.finish();
}

fn bench_census_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("census_build");
    group.sample_size(10);
    for count in [1_000, 10_000, 100_000] {
        let input = names(count);
        group.throughput(Throughput::Elements(count as u64));
        group.bench_with_input(BenchmarkId::new("census", count), &input, |b, input| {
            b.iter(|| Census::build(black_box(input), &DEFAULT_META_TOOLS))
        });
        group.bench_with_input(
            BenchmarkId::new("baseline_hashmap_of_names", count),
            &input,
            |b, input| {
                b.iter(|| {
                    black_box(input)
                        .iter()
                        .enumerate()
                        .map(|(i, n)| (n.clone(), i))
                        .collect::<HashMap<String, usize>>()
                })
            },
        );
    }
    group.finish();
}

fn bench_resolve(c: &mut Criterion) {
    let input = names(10_000);
    let census = Census::build(&input, &DEFAULT_META_TOOLS);
    let plain: HashMap<String, usize> = input
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i))
        .collect();
    let exact = input[3000].as_str(); // mcp/server../read_file_3000
    let form = model_safe_name(exact).into_owned();
    let unknown = "mcp_server_unknown_tool";
    let mut group = c.benchmark_group("resolve");
    group.bench_function("exact", |b| b.iter(|| census.resolve(black_box(exact))));
    group.bench_function("form", |b| b.iter(|| census.resolve(black_box(&form))));
    group.bench_function("unknown", |b| b.iter(|| census.resolve(black_box(unknown))));
    group.bench_function("baseline_hashmap_get_exact", |b| {
        b.iter(|| plain.get(black_box(exact)))
    });
    group.bench_function("baseline_hashmap_get_form", |b| {
        b.iter(|| plain.get(black_box(form.as_str())))
    });
    group.bench_function("baseline_hashmap_get_unknown", |b| {
        b.iter(|| plain.get(black_box(unknown)))
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_model_safe_name,
    bench_census_build,
    bench_resolve
);
criterion_main!(benches);
