/// Does nothing.
#[toolwire::tool(name = "")]
fn nameless() {}

fn main() {}
