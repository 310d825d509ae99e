/// Resets things.
#[toolwire::tool(name = "reset.tools")]
fn reset() {}

fn main() {}
