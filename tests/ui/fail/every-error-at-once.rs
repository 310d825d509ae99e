#[toolwire::tool(name = "tool.search", colour = "red")]
fn bad<T>(&self, x: &str) {}

fn main() {}
