/// Runs a tool by name.
#[toolwire::tool(name = "tool.call")]
fn call_by_name(name: String) -> String {
    name
}

fn main() {}
