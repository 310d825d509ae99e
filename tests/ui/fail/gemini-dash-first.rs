/// Does x.
#[toolwire::tool(name = "-x")]
fn x() {}

fn main() {}
