/// Says hello.
#[toolwire::tool]
fn hello() -> &'static str {
    "hello"
}

fn main() {
    let tool = toolwire::registered_tools()[0];
    // Closed: a call with any argument is refused.
    assert_eq!(
        (tool.schema)(),
        serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
}
