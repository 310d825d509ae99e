/// Tells the type of a value.
#[toolwire::tool]
fn r#type(r#match: String) -> String {
    r#match
}

fn main() {
    let tool = toolwire::registered_tools()[0];
    assert_eq!(tool.name, "type");
    assert!((tool.schema)()["properties"].get("match").is_some());
}
