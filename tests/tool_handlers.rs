//! Calls every tool registered in this binary through its handler, with good and bad JSON
//! arguments: the table below must cover every registered tool, so a tool added here without
//! cases fails the test.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use toolwire::{registered_tools, tool, AppState, State, ToolError};

/// Gets the weather for a city.
#[tool]
fn get_weather(
    /// The city.
    city: String,
    /// Days ahead.
    days: Option<u8>,
) -> String {
    format!("sunny in {city} for {} days", days.unwrap_or(0))
}

#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
struct Point {
    /// Across, in pixels.
    x: i32,
    y: i32,
}

/// Moves a point.
#[tool(name = "geo/move")]
async fn move_point(point: Point, by: i32) -> Point {
    Point {
        x: point.x + by,
        y: point.y + by,
    }
}

#[derive(Debug)]
struct Refused(String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "refused: {}", self.0)
    }
}

/// Divides, refusing zero.
#[tool(name = "math.divide")]
fn divide(a: i64, b: i64) -> Result<i64, Refused> {
    if b == 0 {
        Err(Refused("division by zero".into()))
    } else {
        Ok(a / b)
    }
}

/// Counts calls in the app state.
#[tool]
fn count(counter: State<AtomicU64>) -> u64 {
    counter.fetch_add(1, Ordering::SeqCst) + 1
}

/// Panics, to show a panic is a tool error.
#[tool]
fn explode(really: bool) -> bool {
    if really {
        panic!("boom");
    }
    really
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct Tree {
    children: Vec<Tree>,
}

impl Tree {
    fn depth(&self) -> usize {
        1 + self.children.iter().map(Tree::depth).max().unwrap_or(0)
    }
}

/// Measures a tree: a recursive argument type.
#[tool]
fn tree_depth(tree: Tree) -> usize {
    tree.depth()
}

fn state() -> AppState {
    AppState::new().with(AtomicU64::new(0))
}

fn call(name: &str, arguments: Value) -> Result<Value, ToolError> {
    let tool = registered_tools()
        .into_iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tool `{name}`"));
    futures::executor::block_on(tool.call(arguments, state()))
}

fn bad_argument(name: &str, arguments: Value) -> (Option<String>, String) {
    match call(name, arguments) {
        Err(ToolError::InvalidArguments {
            tool,
            argument,
            reason,
        }) => {
            assert_eq!(tool, name);
            (argument, reason)
        }
        other => panic!("`{name}`: expected bad arguments, got {other:?}"),
    }
}

#[test]
fn every_registered_tool_is_covered_here() {
    let registered: BTreeSet<&str> = registered_tools().iter().map(|t| t.name).collect();
    let covered: BTreeSet<&str> = [
        "get_weather",
        "geo/move",
        "math.divide",
        "count",
        "explode",
        "tree_depth",
    ]
    .into();
    assert_eq!(registered, covered);
    let forms: Vec<(&str, &str)> = registered_tools()
        .iter()
        .map(|t| (t.name, t.form))
        .collect();
    assert_eq!(
        forms,
        [
            ("count", "count"),
            ("explode", "explode"),
            ("geo/move", "geo_move"),
            ("get_weather", "get_weather"),
            ("math.divide", "math_divide"),
            ("tree_depth", "tree_depth"),
        ]
    );
}

#[test]
fn good_arguments_reach_the_function() {
    assert_eq!(
        call("get_weather", json!({"city": "Paris", "days": 2})),
        Ok(json!("sunny in Paris for 2 days"))
    );
    assert_eq!(
        call("get_weather", json!({"city": "Oslo"})),
        Ok(json!("sunny in Oslo for 0 days"))
    );
    assert_eq!(
        call("get_weather", json!({"city": "Oslo", "days": null})),
        Ok(json!("sunny in Oslo for 0 days"))
    );
    assert_eq!(
        call("geo/move", json!({"point": {"x": 1, "y": 2}, "by": 3})),
        Ok(json!({"x": 4, "y": 5}))
    );
    assert_eq!(call("math.divide", json!({"a": 7, "b": 2})), Ok(json!(3)));
    assert_eq!(call("count", json!({})), Ok(json!(1)));
    assert_eq!(call("count", Value::Null), Ok(json!(1)));
    assert_eq!(call("explode", json!({"really": false})), Ok(json!(false)));
    assert_eq!(
        call(
            "tree_depth",
            json!({"tree": {"children": [{"children": []}]}})
        ),
        Ok(json!(2))
    );
}

#[test]
fn a_missing_argument_is_named() {
    let (argument, reason) = bad_argument("get_weather", json!({"days": 1}));
    assert_eq!(argument.as_deref(), Some("city"));
    assert!(reason.contains("required"), "{reason}");
}

#[test]
fn a_mistyped_argument_is_named_with_why() {
    let (argument, reason) = bad_argument("get_weather", json!({"city": "Paris", "days": 300}));
    assert_eq!(argument.as_deref(), Some("days"));
    assert!(reason.contains("300"), "{reason}");

    let (argument, reason) = bad_argument("geo/move", json!({"point": {"x": 1}, "by": 1}));
    assert_eq!(argument.as_deref(), Some("point"));
    assert!(reason.contains("`y`"), "{reason}");

    let (argument, _) = bad_argument("math.divide", json!({"a": "seven", "b": 2}));
    assert_eq!(argument.as_deref(), Some("a"));

    let (argument, reason) = bad_argument("tree_depth", json!({"tree": {"children": [{}]}}));
    assert_eq!(argument.as_deref(), Some("tree"));
    assert!(reason.contains("`children`"), "{reason}");
}

#[test]
fn an_unknown_argument_is_refused_and_the_known_ones_listed() {
    let (argument, reason) = bad_argument("get_weather", json!({"city": "Paris", "dayz": 1}));
    assert_eq!(argument.as_deref(), Some("dayz"));
    assert!(reason.contains("`city`, `days`"), "{reason}");

    // App state is not an argument a call can give.
    let (argument, reason) = bad_argument("count", json!({"counter": 5}));
    assert_eq!(argument.as_deref(), Some("counter"));
    assert!(reason.contains("no arguments"), "{reason}");
}

#[test]
fn arguments_that_are_not_an_object_are_refused() {
    for arguments in [json!("Paris"), json!(["Paris"]), json!(3), json!(true)] {
        let (argument, reason) = bad_argument("get_weather", arguments);
        assert_eq!(argument, None);
        assert!(reason.contains("JSON object"), "{reason}");
    }
}

#[test]
fn a_tool_error_reaches_the_caller_as_a_tool_error() {
    assert_eq!(
        call("math.divide", json!({"a": 1, "b": 0})),
        Err(ToolError::Failed {
            tool: "math.divide".into(),
            message: "refused: division by zero".into()
        })
    );
}

#[test]
fn a_panic_is_a_tool_error_not_a_crash() {
    assert_eq!(
        call("explode", json!({"really": true})),
        Err(ToolError::Panicked {
            tool: "explode".into(),
            message: "boom".into()
        })
    );
}

#[test]
fn missing_app_state_names_the_type() {
    let tool = registered_tools()
        .into_iter()
        .find(|t| t.name == "count")
        .unwrap();
    let out = futures::executor::block_on(tool.call(json!({}), AppState::new()));
    match out {
        Err(ToolError::MissingState { tool, type_name }) => {
            assert_eq!(tool, "count");
            assert!(type_name.contains("AtomicU64"), "{type_name}");
        }
        other => panic!("expected missing state, got {other:?}"),
    }
}

#[test]
fn schemas_are_self_contained_objects() {
    let schema = |name: &str| {
        let tool = registered_tools()
            .into_iter()
            .find(|t| t.name == name)
            .unwrap();
        (tool.schema)()
    };
    assert_eq!(
        schema("get_weather"),
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "The city."},
                "days": {
                    "type": ["integer", "null"],
                    "minimum": 0, "maximum": 255, "description": "Days ahead.",
                },
            },
            "required": ["city"],
            // The handler refuses unknown arguments, and its schema says so.
            "additionalProperties": false,
        })
    );
    assert_eq!(
        schema("count"),
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
    let moved = schema("geo/move").to_string();
    assert!(
        !moved.contains("$ref") && !moved.contains("$schema"),
        "{moved}"
    );
    assert_eq!(
        schema("geo/move")["properties"]["point"]["required"],
        json!(["x", "y"])
    );
    // A recursive type cannot be inlined all the way: its `$ref` points into `$defs` at the root
    // of the same object, so nothing is left to resolve elsewhere.
    let tree = schema("tree_depth");
    assert_eq!(
        tree["properties"]["tree"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/Tree"
    );
    assert_eq!(
        tree["$defs"]["Tree"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/Tree"
    );
}

#[test]
fn tool_schemas_need_no_rewrite_where_one_can_be_avoided() {
    use toolwire::schema::{prepare_schema, Dialect, SchemaStatus};
    let schema = |name: &str| {
        let tool = registered_tools()
            .into_iter()
            .find(|t| t.name == name)
            .unwrap();
        tool.definition().parameters_schema()
    };
    // A nested type's doc comments travel with its fields.
    assert_eq!(
        schema("geo/move")["properties"]["point"]["properties"]["x"]["description"],
        "Across, in pixels."
    );
    for name in ["get_weather", "geo/move"] {
        let schema = schema(name);
        // No `format` from a Rust number type: no dialect has to drop one.
        assert!(!schema.to_string().contains("format"), "{schema}");
        for dialect in [Dialect::OpenAi, Dialect::Anthropic, Dialect::Converse] {
            assert_eq!(
                prepare_schema(dialect, &schema).unwrap().status,
                SchemaStatus::AsIs,
                "{name} {dialect}"
            );
        }
        // Gemini has no type arrays: `Option<u8>` is rewritten to `nullable`, exactly. What
        // it drops is the objects' closure (`parameters` has no `additionalProperties`): a
        // loss recorded and written for the model, which the tool still enforces.
        let gemini = prepare_schema(Dialect::Gemini, &schema).unwrap();
        let dropped: Vec<&str> = gemini.losses.iter().map(|l| l.keyword.as_str()).collect();
        assert!(
            dropped.iter().all(|k| *k == "additionalProperties"),
            "{name}: {:?}",
            gemini.losses
        );
        // Strict dialects close objects (and OpenAI makes optionals required-or-null): losses
        // of their own, but every tool still travels.
        for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
            assert!(prepare_schema(dialect, &schema).is_ok(), "{name} {dialect}");
        }
    }
    let days = &prepare_schema(Dialect::Gemini, &schema("get_weather"))
        .unwrap()
        .schema["properties"]["days"];
    assert_eq!(
        days,
        &json!({"type": "INTEGER", "nullable": true, "minimum": 0, "maximum": 255, "description": "Days ahead."})
    );
}

#[test]
fn descriptions_come_from_doc_comments() {
    let tool = registered_tools()
        .into_iter()
        .find(|t| t.name == "explode")
        .unwrap();
    assert_eq!(tool.description, "Panics, to show a panic is a tool error.");
}
