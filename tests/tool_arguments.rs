//! A `#[tool]` enforces its own schema: every bound schemars writes for its arguments (ranges,
//! patterns, lengths, a nested struct's fields and bounds, unknown fields at every level) is
//! checked before the arguments are deserialized, however the call arrives: through
//! `registered_tools()`, through the runtime, and after the strict way back. The arguments'
//! `#[serde]` and `#[schemars]` attributes apply to them, and the schema is closed wherever a
//! struct made it.

use std::collections::HashMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use toolwire::provider::{RegisteredTools, ToolProvider};
use toolwire::runtime::DispatchError;
use toolwire::schema::{prepare_schema, Dialect};
use toolwire::{registered_tools, tool, AppState, ToolError, ToolRuntime};

#[derive(Debug, Deserialize, JsonSchema)]
struct Address {
    /// Two letters.
    #[schemars(length(min = 2, max = 2))]
    country: String,
    #[schemars(regex(pattern = r"^\d{5}$"))]
    zip: String,
}

/// Orders an item.
#[tool]
fn order(
    /// How many.
    #[schemars(range(min = 1, max = 10))]
    quantity: u32,
    #[schemars(regex(pattern = r"^[A-Z]{3}-\d{3}$"))] sku: String,
    #[schemars(length(max = 20))] note: Option<String>,
    ship_to: Address,
    #[serde(rename = "giftWrap")] gift_wrap: bool,
    #[serde(default)] priority: u8,
) -> Value {
    json!({
        "quantity": quantity, "sku": sku, "note": note, "country": ship_to.country,
        "zip": ship_to.zip, "gift_wrap": gift_wrap, "priority": priority,
    })
}

/// Counts the extra labels it is given: a `#[serde(flatten)]` map takes every other argument.
#[tool]
fn label(name: String, #[serde(flatten)] extra: HashMap<String, u32>) -> usize {
    name.len() + extra.len()
}

// Its fields are read through `Debug` only.
#[allow(dead_code)]
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Circle { radius: u32 },
    Square { side: u32 },
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Drawing {
    #[serde(flatten)]
    shape: Shape,
    layer: u8,
}

/// Draws a shape: an enum flattened beside a struct's own field.
#[tool]
fn draw(drawing: Drawing) -> String {
    format!("{:?} on {}", drawing.shape, drawing.layer)
}

/// A tool whose own pattern is not a regular expression.
#[tool]
fn broken(#[schemars(regex(pattern = "(["))] text: String) -> String {
    text
}

fn registration(name: &str) -> &'static toolwire::tools::ToolRegistration {
    registered_tools()
        .into_iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tool `{name}`"))
}

fn call(name: &str, arguments: Value) -> Result<Value, ToolError> {
    futures::executor::block_on(registration(name).call(arguments, AppState::new()))
}

fn good_order() -> Value {
    json!({
        "quantity": 3, "sku": "ABC-123", "note": "fragile", "giftWrap": true,
        "ship_to": {"country": "NO", "zip": "01234"},
    })
}

/// `good_order()` with `pointer` set to `value`.
fn order_with(pointer: &str, value: Value) -> Value {
    let mut arguments = good_order();
    *arguments.pointer_mut(pointer).unwrap() = value;
    arguments
}

/// The refusal of `arguments` by `name`: the argument named and the reason.
fn refused(name: &str, arguments: Value) -> (Option<String>, String) {
    match call(name, arguments) {
        Err(ToolError::InvalidArguments {
            tool,
            argument,
            reason,
        }) => {
            assert_eq!(tool, name);
            (argument, reason)
        }
        other => panic!("`{name}`: expected InvalidArguments, got {other:?}"),
    }
}

#[test]
fn good_arguments_reach_the_function_with_their_serde_attributes() {
    assert_eq!(
        call("order", good_order()),
        Ok(json!({
            "quantity": 3, "sku": "ABC-123", "note": "fragile", "country": "NO", "zip": "01234",
            "gift_wrap": true, "priority": 0,
        }))
    );
    let mut with_priority = order_with("/quantity", json!(10));
    with_priority["priority"] = json!(2);
    assert_eq!(call("order", with_priority).unwrap()["priority"], 2);
}

#[test]
fn a_range_is_enforced() {
    for quantity in [json!(0), json!(11)] {
        let (argument, reason) = refused("order", order_with("/quantity", quantity));
        assert_eq!(argument.as_deref(), Some("quantity"));
        assert!(reason.contains("at `/quantity`"), "{reason}");
        assert!(
            reason.contains("minimum") || reason.contains("maximum"),
            "{reason}"
        );
    }
    let (_, reason) = refused("order", order_with("/quantity", json!(0)));
    assert!(
        reason.contains("0 is less than the minimum of 1"),
        "{reason}"
    );
}

#[test]
fn a_pattern_is_enforced() {
    let (argument, reason) = refused("order", order_with("/sku", json!("lower-case")));
    assert_eq!(argument.as_deref(), Some("sku"));
    assert!(reason.contains("at `/sku`"), "{reason}");
    assert!(reason.contains(r"^[A-Z]{3}-\d{3}$"), "{reason}");
    assert!(reason.contains("rule `pattern`"), "{reason}");
}

#[test]
fn a_length_is_enforced_on_an_optional_argument() {
    let (argument, reason) = refused("order", order_with("/note", json!("x".repeat(21))));
    assert_eq!(argument.as_deref(), Some("note"));
    assert!(reason.contains("longer than 20 characters"), "{reason}");
    // `null` is what the `Option` reads as absent.
    assert_eq!(
        call("order", order_with("/note", Value::Null)).unwrap()["note"],
        Value::Null
    );
}

#[test]
fn a_nested_structs_bounds_are_enforced() {
    let (argument, reason) = refused("order", order_with("/ship_to/country", json!("NOR")));
    assert_eq!(argument.as_deref(), Some("ship_to"));
    assert!(reason.contains("at `/ship_to/country`"), "{reason}");
    assert!(reason.contains("maxLength"), "{reason}");

    let (argument, reason) = refused("order", order_with("/ship_to/zip", json!("12")));
    assert_eq!(argument.as_deref(), Some("ship_to"));
    assert!(reason.contains("at `/ship_to/zip`"), "{reason}");
}

#[test]
fn an_unknown_field_is_refused_at_every_level() {
    // serde ignores an unknown field of a struct without `deny_unknown_fields`; the closed
    // schema does not.
    let mut arguments = good_order();
    arguments["ship_to"]["street"] = json!("Main St");
    let (argument, reason) = refused("order", arguments);
    assert_eq!(argument.as_deref(), Some("ship_to"));
    assert!(reason.contains("at `/ship_to`"), "{reason}");
    assert!(reason.contains("unknown field `street`"), "{reason}");

    let mut arguments = good_order();
    arguments["gift_wrap"] = json!(true);
    let (argument, reason) = refused("order", arguments);
    assert_eq!(argument.as_deref(), Some("gift_wrap"));
    assert!(
        reason.starts_with("unknown argument `gift_wrap`; this tool takes "),
        "{reason}"
    );
    assert!(reason.contains("`giftWrap`"), "{reason}");
}

#[test]
fn the_reason_says_where_what_and_which_rule() {
    let error = call("order", order_with("/quantity", json!(0))).unwrap_err();
    assert_eq!(
        error.to_string(),
        "bad arguments for tool `order`, argument `quantity`: at `/quantity`: 0 is less than the minimum of 1 (rule `minimum` at `/properties/quantity/minimum` of the schema)"
    );
}

#[test]
fn every_broken_rule_is_listed() {
    let mut arguments = order_with("/quantity", json!(0));
    arguments["sku"] = json!("x");
    let (argument, reason) = refused("order", arguments);
    assert_eq!(argument.as_deref(), Some("quantity"));
    assert!(
        reason.contains("`/quantity`") && reason.contains("`/sku`"),
        "{reason}"
    );
}

#[test]
fn a_missing_argument_and_a_missing_nested_field_are_named() {
    let mut arguments = good_order();
    arguments.as_object_mut().unwrap().remove("sku");
    let (argument, reason) = refused("order", arguments);
    assert_eq!(argument.as_deref(), Some("sku"));
    assert_eq!(
        reason,
        "at `/sku`: missing; this argument is required (rule `required` at `/required` of the schema)"
    );

    let mut arguments = good_order();
    arguments["ship_to"].as_object_mut().unwrap().remove("zip");
    let (argument, reason) = refused("order", arguments);
    assert_eq!(argument.as_deref(), Some("ship_to"));
    assert!(reason.contains("missing field `zip`"), "{reason}");
}

#[test]
fn the_schema_is_closed_wherever_a_struct_made_it() {
    let schema = (registration("order").schema)();
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(
        schema["properties"]["ship_to"]["additionalProperties"],
        false
    );
    // The arguments' attributes are in the schema.
    let properties = &schema["properties"];
    assert_eq!(
        (
            &properties["quantity"]["minimum"],
            &properties["quantity"]["maximum"]
        ),
        (&json!(1), &json!(10))
    );
    assert_eq!(properties["quantity"]["description"], "How many.");
    assert_eq!(properties["sku"]["pattern"], r"^[A-Z]{3}-\d{3}$");
    assert_eq!(
        properties["ship_to"]["properties"]["country"]["maxLength"],
        2
    );
    assert!(properties.get("giftWrap").is_some() && properties.get("gift_wrap").is_none());
    assert_eq!(
        schema["required"],
        json!(["quantity", "sku", "ship_to", "giftWrap"])
    );

    // A strict dialect has nothing left to close.
    for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
        let prepared = prepare_schema(dialect, &schema).unwrap();
        let closed: Vec<_> = prepared
            .losses
            .iter()
            .filter(|l| l.keyword == "additionalProperties")
            .collect();
        assert!(closed.is_empty(), "{dialect}: {closed:?}");
    }
}

#[test]
fn a_flattened_map_keeps_the_root_open_and_takes_the_other_arguments() {
    let schema = (registration("label").schema)();
    assert_eq!(
        schema["additionalProperties"],
        json!({"type": "integer", "minimum": 0})
    );
    assert_eq!(
        call("label", json!({"name": "ab", "x": 1, "y": 2})),
        Ok(json!(4))
    );
    let (argument, reason) = refused("label", json!({"name": "ab", "x": "one"}));
    assert_eq!(argument.as_deref(), Some("x"));
    assert!(reason.contains("at `/x`"), "{reason}");
}

#[test]
fn a_flattened_enum_beside_fields_is_not_closed_so_its_fields_still_pass() {
    let schema = (registration("draw").schema)();
    let drawing = &schema["properties"]["drawing"];
    assert!(drawing["oneOf"].is_array(), "{drawing}");
    assert_eq!(drawing.get("additionalProperties"), None, "{drawing}");
    for branch in drawing["oneOf"].as_array().unwrap() {
        assert_eq!(branch.get("additionalProperties"), None, "{branch}");
    }
    assert_eq!(
        call(
            "draw",
            json!({"drawing": {"kind": "circle", "radius": 2, "layer": 1}})
        ),
        Ok(json!("Circle { radius: 2 } on 1"))
    );
    let (argument, _) = refused("draw", json!({"drawing": {"kind": "hexagon", "layer": 1}}));
    assert_eq!(argument.as_deref(), Some("drawing"));
}

#[test]
fn a_schema_that_does_not_compile_is_an_error_of_that_tools_calls_only() {
    for _ in 0..2 {
        match call("broken", json!({"text": "x"})) {
            Err(ToolError::BadSchema { tool, reason }) => {
                assert_eq!(tool, "broken");
                assert!(!reason.is_empty());
            }
            other => panic!("expected BadSchema, got {other:?}"),
        }
    }
    assert!(call("order", good_order()).is_ok());
}

#[test]
fn every_tool_reads_null_as_absent() {
    for tool in registered_tools() {
        assert!(tool.definition().null_is_absent, "{}", tool.name);
    }
    let provider = RegisteredTools::new(AppState::new());
    let listed = futures::executor::block_on(provider.list_tools()).unwrap();
    assert!(!listed.is_empty());
    assert!(listed.iter().all(|d| d.null_is_absent));
}

fn dispatch(arguments: Value) -> Result<Value, DispatchError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let tools = ToolRuntime::new();
        let _ = tools
            .add_provider(Arc::new(RegisteredTools::new(AppState::new())))
            .await
            .unwrap();
        tools
            .request()
            .dispatch("order", arguments)
            .await
            .map(|outcome| outcome.output.to_value())
    })
}

#[test]
fn the_runtime_enforces_the_same_bounds() {
    assert!(dispatch(good_order()).is_ok());
    let cases = [
        (order_with("/quantity", json!(0)), "quantity"),
        (order_with("/sku", json!("lower-case")), "sku"),
        (order_with("/ship_to/country", json!("NOR")), "ship_to"),
        (
            {
                let mut arguments = good_order();
                arguments["ship_to"]["street"] = json!("Main St");
                arguments
            },
            "ship_to",
        ),
    ];
    for (arguments, expected) in cases {
        match dispatch(arguments) {
            Err(DispatchError::Tool(ToolError::InvalidArguments { tool, argument, .. })) => {
                assert_eq!(
                    (tool.as_str(), argument.as_deref()),
                    ("order", Some(expected))
                );
            }
            other => panic!("expected InvalidArguments for `{expected}`, got {other:?}"),
        }
    }
}

#[test]
fn the_strict_way_back_then_the_same_bounds() {
    // What OpenAI strict sends for "left out": `null` for every optional argument. The way
    // back removes the `null` the schema refuses (`priority`, a `#[serde(default)]` integer)
    // and keeps the one it takes (`note`, an `Option`); then the call is validated as any.
    let mut arguments = order_with("/note", Value::Null);
    arguments["priority"] = Value::Null;
    let out = dispatch(arguments.clone()).unwrap();
    assert_eq!((&out["note"], &out["priority"]), (&Value::Null, &json!(0)));
    // Called directly, nothing is restored: the schema refuses `"priority": null`.
    let (argument, _) = refused("order", arguments.clone());
    assert_eq!(argument.as_deref(), Some("priority"));
    // And a bound still holds after the way back.
    arguments["quantity"] = json!(0);
    assert!(matches!(
        dispatch(arguments),
        Err(DispatchError::Tool(ToolError::InvalidArguments { .. }))
    ));
}

/// Ships a parcel: no argument has an attribute, so its schema is built one argument at a
/// time (the plain path, cheap to compile).
#[tool]
fn ship_plain(
    /// Where to.
    to: Address,
    /// How many parcels.
    parcels: u32,
    /// A note for the driver.
    note: Option<String>,
) -> String {
    format!("{} {parcels} {note:?}", to.country)
}

/// Ships a parcel: one attribute (which says what the doc comment says) sends it down the
/// derived path.
#[tool]
fn ship_derived(
    /// Where to.
    to: Address,
    #[schemars(description = "How many parcels.")] parcels: u32,
    /// A note for the driver.
    note: Option<String>,
) -> String {
    format!("{} {parcels} {note:?}", to.country)
}

#[test]
fn the_plain_and_the_derived_path_write_and_enforce_the_same_schema() {
    let plain = (registration("ship_plain").schema)();
    let derived = (registration("ship_derived").schema)();
    assert_eq!(plain, derived);
    assert_eq!(plain["additionalProperties"], false);
    assert_eq!(plain["properties"]["to"]["additionalProperties"], false);
    assert_eq!(plain["required"], json!(["to", "parcels"]));
    let good = json!({"to": {"country": "NO", "zip": "01234"}, "parcels": 2});
    for name in ["ship_plain", "ship_derived"] {
        assert_eq!(
            call(name, good.clone()).unwrap(),
            json!("NO 2 None"),
            "{name}"
        );
        let bad = [
            json!({"to": {"country": "NOR", "zip": "01234"}, "parcels": 2}),
            json!({"to": {"country": "NO", "zip": "01234", "city": "Oslo"}, "parcels": 2}),
            json!({"to": {"country": "NO", "zip": "01234"}, "parcels": -1}),
            json!({"to": {"country": "NO", "zip": "01234"}}),
            json!({"to": {"country": "NO", "zip": "01234"}, "parcels": 2, "speed": "fast"}),
        ];
        for arguments in bad {
            let plain_error = call("ship_plain", arguments.clone())
                .unwrap_err()
                .to_string();
            let derived_error = call("ship_derived", arguments.clone()).unwrap_err();
            assert!(
                matches!(derived_error, ToolError::InvalidArguments { .. }),
                "{arguments}: {derived_error}"
            );
            assert_eq!(
                plain_error.replace("ship_plain", "ship_derived"),
                derived_error.to_string(),
                "{arguments}"
            );
        }
    }
}
