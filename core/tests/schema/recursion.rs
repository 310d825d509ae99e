//! Recursion by the providers' word (`tool-schema-wire.md`, "Recursion, revised"): a recursive
//! schema travels to every dialect whose provider takes a recursive local `$ref` (openai,
//! openai-strict, anthropic, converse), and is refused, saying why, where the provider refuses
//! recursion (anthropic-strict) or takes no `$ref` at all (gemini). Each dialect's fact and its
//! source are in its provider's file (`core/src/wire/`).
//!
//! The schemas are `Node { children: Vec<Node> }` as schemars 1.2 writes it (copied from its
//! output): as the root type (`$ref: "#"`), as an argument (`$ref: "#/$defs/Node"`, the
//! definition referring to itself), and as `#[tool]` writes an argument (the first level inlined,
//! `$defs` kept). What travels is judged by the `jsonschema` crate: the prepared schema accepts a
//! nested tree the original accepts, and refuses a broken one the original refuses.

use serde_json::{json, Value};
use toolwire_core::schema::{check_schema, prepare_schema, Dialect, RefusalReason};

/// Where a recursive local `$ref` travels.
const TAKE_RECURSION: [Dialect; 4] = [
    Dialect::OpenAi,
    Dialect::OpenAiStrict,
    Dialect::Anthropic,
    Dialect::Converse,
];

/// A shape of the recursive schema, with where its recursive `$ref` stands and how a tree is
/// passed to it.
struct Shape {
    name: &'static str,
    schema: Value,
    recursive_ref_at: &'static str,
    /// The arguments holding `tree` (the root type is the tree itself).
    arguments: fn(Value) -> Value,
}

fn shapes() -> Vec<Shape> {
    let node = json!({"type": "object", "properties": {
        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
        "required": ["children"]});
    vec![
        Shape {
            name: "schema_for!(Node)",
            schema: json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": "Node",
                "type": "object",
                "properties": {"children": {"type": "array", "items": {"$ref": "#"}}},
                "required": ["children"],
            }),
            recursive_ref_at: "/properties/children/items",
            arguments: |tree| tree,
        },
        Shape {
            name: "schema_for!(Args { tree: Node })",
            schema: json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": "Args",
                "type": "object",
                "properties": {"tree": {"$ref": "#/$defs/Node"}},
                "required": ["tree"],
                "$defs": {"Node": node},
            }),
            recursive_ref_at: "/$defs/Node/properties/children/items",
            arguments: |tree| json!({ "tree": tree }),
        },
        Shape {
            name: "#[tool] fn f(tree: Node)",
            schema: json!({
                "type": "object",
                "properties": {"tree": node},
                "required": ["tree"],
                "$defs": {"Node": node},
            }),
            recursive_ref_at: "/$defs/Node/properties/children/items",
            arguments: |tree| json!({ "tree": tree }),
        },
    ]
}

/// Trees three levels deep: what a recursive type is for.
fn nested_trees() -> [Value; 3] {
    [
        json!({"children": []}),
        json!({"children": [{"children": []}, {"children": [{"children": []}]}]}),
        json!({"children": [{"children": [{"children": [{"children": []}]}]}]}),
    ]
}

/// Trees broken below the first level, where only the recursion can see it.
fn broken_trees() -> [Value; 3] {
    [
        json!({"children": [{}]}),
        json!({"children": [{"children": [{"children": "none"}]}]}),
        json!({"children": [{"children": [7]}]}),
    ]
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
        .unwrap_or_else(|e| panic!("the validator refuses {schema}: {e}"))
}

#[test]
fn the_dialects_that_take_recursion_are_those_whose_provider_takes_it() {
    // Pinned here, beside what the tests below prove of them: a change to a table shows up as a
    // failure to read against its provider's file.
    for dialect in Dialect::ALL {
        let travels = prepare_schema(dialect, &shapes()[1].schema).is_ok();
        assert_eq!(travels, TAKE_RECURSION.contains(&dialect), "{dialect}");
    }
}

#[test]
fn a_recursive_schema_travels_wherever_its_provider_takes_it() {
    for shape in shapes() {
        let original = validator(&shape.schema);
        for dialect in TAKE_RECURSION {
            let at = format!("{} in {dialect}", shape.name);
            let prepared = prepare_schema(dialect, &shape.schema)
                .unwrap_or_else(|refusal| panic!("{at}: refused: {refusal}"));
            assert_eq!(
                check_schema(dialect, &prepared.schema),
                [],
                "{at}: {}",
                prepared.schema
            );
            // It travels as a recursion: the reference is kept, not unrolled.
            assert!(prepared.schema.to_string().contains("\"$ref\""), "{at}");
            let sent = validator(&prepared.schema);
            for tree in nested_trees() {
                let arguments = (shape.arguments)(tree);
                assert!(original.is_valid(&arguments), "{at}: {arguments}");
                assert!(
                    sent.is_valid(&arguments),
                    "{at}: {} refuses {arguments}",
                    prepared.schema
                );
            }
            for tree in broken_trees() {
                let arguments = (shape.arguments)(tree);
                assert!(!original.is_valid(&arguments), "{at}: {arguments}");
                assert!(
                    !sent.is_valid(&arguments),
                    "{at}: {} takes {arguments}",
                    prepared.schema
                );
            }
        }
    }
}

#[test]
fn the_broad_dialects_send_a_recursive_schema_as_it_is() {
    for shape in shapes() {
        for dialect in [Dialect::OpenAi, Dialect::Anthropic, Dialect::Converse] {
            assert_eq!(
                prepare_schema(dialect, &shape.schema).unwrap().schema,
                shape.schema,
                "{} in {dialect}",
                shape.name
            );
        }
    }
}

#[test]
fn a_recursive_schema_is_refused_where_its_provider_refuses_or_cannot_take_it() {
    let cases = [
        // Structured outputs: "recursive schemas are not supported".
        (
            Dialect::AnthropicStrict,
            "anthropic-strict has no recursion: its provider refuses recursive schemas",
        ),
        // `parameters` takes no `$ref`, and a recursion cannot be inlined.
        (
            Dialect::Gemini,
            "gemini has no recursion: it takes no `$ref`, and a recursive schema cannot be inlined",
        ),
    ];
    for shape in shapes() {
        for (dialect, why) in cases {
            let at = format!("{} in {dialect}", shape.name);
            let refusal = match prepare_schema(dialect, &shape.schema) {
                Ok(prepared) => panic!("{at}: prepared as {}", prepared.schema),
                Err(refusal) => refusal,
            };
            assert_eq!(refusal.reason, RefusalReason::Recursive, "{at}");
            assert_eq!(
                (refusal.pointer.as_str(), refusal.keyword.as_str()),
                (shape.recursive_ref_at, "$ref"),
                "{at}"
            );
            assert!(refusal.why.ends_with(why), "{at}: {}", refusal.why);
            // Checking says so at the same place, for the same reason.
            assert!(
                check_schema(dialect, &shape.schema).iter().any(|p| {
                    p.pointer == shape.recursive_ref_at
                        && p.keyword == "$ref"
                        && p.why.ends_with(why)
                }),
                "{at}: {:?}",
                check_schema(dialect, &shape.schema)
            );
        }
    }
}
