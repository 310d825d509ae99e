//! The names every census benchmark builds from (also `core/examples/census_scale.rs` and the
//! Python model's `bench` mode): MCP-style real names that need a form of their own, dotted
//! names, and names that are already model-safe, one third each.

/// `count` generated tool names.
pub fn names(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| match i % 3 {
            0 => format!("mcp/server{}/read_file_{i}", i % 97),
            1 => format!("search.web.v{i}"),
            _ => format!("get_weather_{i}"),
        })
        .collect()
}
