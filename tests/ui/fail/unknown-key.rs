/// Searches.
#[toolwire::tool(nmae = "search", descrption = "Searches.")]
fn search() {}

fn main() {}
