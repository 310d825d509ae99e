/// Searches the web.
#[toolwire::tool(name = "search.web")]
fn search_dot() {}

/// Searches the web.
#[toolwire::tool]
fn search_web() {}

fn main() {}
