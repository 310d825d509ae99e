/// A doc comment that the empty description overrides.
#[toolwire::tool(description = "  ")]
fn blank() {}

fn main() {}
