/// Searches.
#[toolwire::tool(name = search, description = 42)]
fn search() {}

/// Finds.
#[toolwire::tool(allow_gemini_refusal = true, crate = 1)]
fn find() {}

fn main() {}
