/// Searches my tools.
#[toolwire::tool]
fn tool_search(query: String) -> String {
    query
}

fn main() {}
