/// Searches.
#[toolwire::tool(name = "search", name = "find")]
fn search() {}

fn main() {}
