//! Builds a census of N generated names and prints, as one JSON line, the median build time of
//! three runs, the time per name, a plain `HashMap<String, usize>` of the same names as a
//! baseline, and the memory the census holds at its peak (VmHWM growth
//! over the input alone, from /proc on Linux). Used by `scripts/performance-report.sh`.
//!
//! ```text
//! cargo run --release -p toolwire-core --example census_scale -- 100000
//! ```

use std::time::Instant;

use toolwire_core::{names::DEFAULT_META_TOOLS, Census};
use toolwire_test_support::generated::names;

/// A field of /proc/self/status in KiB (Linux), if there is one.
fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let input = names(count);
    let before_kib = status_kib("VmRSS:");
    // The first build alone sets the peak: nothing else is alive beside the input.
    let first = Instant::now();
    let census = Census::build(&input, &DEFAULT_META_TOOLS);
    let mut times = vec![first.elapsed().as_secs_f64()];
    let peak_kib = status_kib("VmHWM:");
    assert_eq!(census.offered().count(), count);
    drop(census);
    for _ in 0..2 {
        let start = Instant::now();
        let census = Census::build(&input, &DEFAULT_META_TOOLS);
        times.push(start.elapsed().as_secs_f64());
        drop(census);
    }
    times.sort_by(f64::total_cmp);
    let median = times[1];
    // The baseline: a plain HashMap<String, usize> of the same names (one copy, one probe each).
    let mut baseline: Vec<f64> = (0..3)
        .map(|_| {
            let start = Instant::now();
            let map: std::collections::HashMap<String, usize> = input
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect();
            let took = start.elapsed().as_secs_f64();
            assert_eq!(map.len(), count);
            took
        })
        .collect();
    baseline.sort_by(f64::total_cmp);
    let census_kib = match (before_kib, peak_kib) {
        (Some(before), Some(peak)) => format!("{}", peak.saturating_sub(before)),
        _ => "null".to_owned(),
    };
    println!(
        "{{\"names\": {count}, \"median_s\": {median:.6}, \"ns_per_name\": {:.1}, \"census_peak_kib\": {census_kib}, \"hashmap_median_s\": {:.6}}}",
        median * 1e9 / count as f64,
        baseline[1]
    );
}
