//! An argument's `#[schemars(...)]` and `#[serde(...)]` attributes apply to it: in the schema,
//! and at call time.

use serde_json::json;
use toolwire::{registered_tools, ToolError};

/// Orders an item.
#[toolwire::tool]
fn order(
    /// How many.
    #[schemars(range(min = 1, max = 10))]
    quantity: u32,
    #[serde(rename = "itemSku")] sku: String,
    #[serde(default)] gift: bool,
) -> String {
    format!("{quantity} x {sku}{}", if gift { " (gift)" } else { "" })
}

fn main() {
    let tool = registered_tools().into_iter().find(|t| t.name == "order").unwrap();
    let schema = (tool.schema)();
    assert_eq!(
        schema["properties"]["quantity"],
        json!({"type": "integer", "minimum": 1, "maximum": 10, "description": "How many."})
    );
    assert_eq!(schema["properties"]["itemSku"], json!({"type": "string"}));
    assert_eq!(schema["properties"]["gift"], json!({"type": "boolean"}));
    assert_eq!(schema["required"], json!(["quantity", "itemSku"]));

    let call = |arguments| futures::executor::block_on(tool.call(arguments, Default::default()));
    assert_eq!(call(json!({"quantity": 2, "itemSku": "A-1"})), Ok(json!("2 x A-1")));
    assert_eq!(
        call(json!({"quantity": 2, "itemSku": "A-1", "gift": true})),
        Ok(json!("2 x A-1 (gift)"))
    );
    match call(json!({"quantity": 0, "itemSku": "A-1"})) {
        Err(ToolError::InvalidArguments { argument, reason, .. }) => {
            assert_eq!(argument.as_deref(), Some("quantity"));
            assert!(reason.contains("minimum of 1"), "{reason}");
        }
        other => panic!("expected the range to be enforced, got {other:?}"),
    }
    match call(json!({"quantity": 2, "sku": "A-1"})) {
        Err(ToolError::InvalidArguments { argument, .. }) => {
            assert_eq!(argument.as_deref(), Some("itemSku"));
        }
        other => panic!("expected the renamed argument to be required, got {other:?}"),
    }
}
