/// Gives a schema.
#[toolwire::tool(name = "tool/schema")]
fn schema() {}

fn main() {}
