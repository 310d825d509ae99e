//! One test per rule of `tool-schema-wire.md`: each exact rewrite, each lossy kind (with its
//! note written into the description of the node it stood on), each refusal, each real refusal
//! the spec quotes; then the corpus of real MCP schemas.
//!
//! Tests named `finding_*` are ignored: each pins, with a minimal schema, a place where the
//! implementation disagrees with the spec (found by `properties.rs` or by the
//! `prepare_schema` fuzz target); each passes once its finding is fixed (then drop its
//! `#[ignore]`, and the matching skip in `properties.rs` or the fuzz target).

use serde_json::{json, Value};
use toolwire_core::schema::{
    check_schema, prepare_definition_cached, prepare_schema, prepare_schema_cached,
    prepare_schema_with, restore_arguments, Dialect, PrepareOptions, Prepared, RefusalReason,
    SchemaRefusal, SchemaStatus,
};
use toolwire_core::ToolDefinition;
use toolwire_test_support::corpus::corpus;

fn prepared(dialect: Dialect, schema: &Value) -> Prepared {
    let prepared = prepare_schema(dialect, schema)
        .unwrap_or_else(|refusal| panic!("{dialect} refused {schema}: {refusal}"));
    let problems = check_schema(dialect, &prepared.schema);
    assert!(problems.is_empty(), "{dialect}: {problems:?}");
    prepared
}

fn refused(dialect: Dialect, schema: &Value) -> SchemaRefusal {
    match prepare_schema(dialect, schema) {
        Ok(prepared) => panic!("{dialect} prepared {schema} as {}", prepared.schema),
        Err(refusal) => refusal,
    }
}

/// An object schema with one property.
fn with_property(name: &str, schema: Value) -> Value {
    json!({"type": "object", "properties": {name: schema}})
}

/// The one loss at `pointer` for `keyword`, and that its note is in the node's description.
fn assert_loss(prepared: &Prepared, pointer: &str, keyword: &str, note: &str) {
    let loss = prepared
        .losses
        .iter()
        .find(|l| l.pointer == pointer && l.keyword == keyword)
        .unwrap_or_else(|| panic!("no `{keyword}` loss at {pointer}: {:?}", prepared.losses));
    assert_eq!(loss.note, note);
    assert_eq!(prepared.status, SchemaStatus::Lossy);
    let description = prepared
        .schema
        .pointer(pointer)
        .and_then(|node| node.get("description"))
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no description at {pointer}: {}", prepared.schema));
    assert!(description.contains(note), "{description:?} lacks {note:?}");
}

// ---------------------------------------------------------------------------------------------
// Exact rewrites

#[test]
fn a_local_ref_is_inlined_and_unused_definitions_go() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/Tag"},
            "b": {"$ref": "#/definitions/Size"},
            "c": {"$ref": "#/properties/a"},
        },
        "$defs": {"Tag": {"type": "string"}, "Unused": {"type": "integer"}},
        "definitions": {"Size": {"type": "integer", "minimum": 0}},
    });
    let gemini = prepared(Dialect::Gemini, &schema);
    assert_eq!(gemini.status, SchemaStatus::Rewritten);
    assert!(gemini.losses.is_empty());
    assert_eq!(
        gemini.schema,
        json!({"type": "OBJECT", "properties": {
            "a": {"type": "STRING"},
            "b": {"type": "INTEGER", "minimum": 0},
            "c": {"type": "STRING"},
        }})
    );
    // A broad dialect takes local references as they are.
    assert_eq!(
        prepared(Dialect::Anthropic, &schema).status,
        SchemaStatus::AsIs
    );
}

#[test]
fn a_ref_with_siblings_is_inlined_with_them() {
    // Gemini: `$ref … was set alongside unsupported fields`.
    let schema = json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/Tag", "description": "The tag.", "maxLength": 8}},
        "$defs": {"Tag": {"type": "string", "description": "A tag."}},
    });
    assert!(check_schema(Dialect::Gemini, &schema)
        .iter()
        .any(|p| p.keyword == "$ref"));
    let gemini = prepared(Dialect::Gemini, &schema);
    assert_eq!(gemini.status, SchemaStatus::Rewritten);
    assert_eq!(
        gemini.schema["properties"]["a"],
        json!({"type": "STRING", "description": "The tag.", "maxLength": 8})
    );
}

#[test]
fn a_type_array_with_null_becomes_nullable() {
    // Gemini: `Proto field is not repeating, cannot start list`.
    let schema = with_property("days", json!({"type": ["integer", "null"]}));
    let problems = check_schema(Dialect::Gemini, &schema);
    assert!(problems
        .iter()
        .any(|p| p.pointer == "/properties/days" && p.keyword == "type"));
    let gemini = prepared(Dialect::Gemini, &schema);
    assert_eq!(gemini.status, SchemaStatus::Rewritten);
    assert_eq!(
        gemini.schema["properties"]["days"],
        json!({"type": "INTEGER", "nullable": true})
    );
}

#[test]
fn any_of_a_schema_and_null_becomes_nullable() {
    let schema = with_property(
        "when",
        json!({"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}], "description": "When."}),
    );
    let gemini = prepared(Dialect::Gemini, &schema);
    assert_eq!(gemini.status, SchemaStatus::Rewritten);
    assert_eq!(
        gemini.schema["properties"]["when"],
        json!({"type": "STRING", "format": "date-time", "nullable": true, "description": "When."})
    );
}

#[test]
fn const_becomes_a_one_value_enum_and_gemini_takes_strings_only() {
    // Gemini: `Unknown name "const"`.
    let schema = with_property("kind", json!({"const": "circle"}));
    let gemini = prepared(Dialect::Gemini, &schema);
    assert_eq!(gemini.status, SchemaStatus::Rewritten);
    assert_eq!(
        gemini.schema["properties"]["kind"],
        json!({"type": "STRING", "enum": ["circle"]})
    );
    // A number: no string enum can say it, so it goes, loudly (the type stays).
    let number = prepared(Dialect::Gemini, &with_property("n", json!({"const": 5})));
    assert_loss(&number, "/properties/n", "enum", "One of: 5.");
    assert_eq!(number.schema["properties"]["n"]["type"], "INTEGER");
}

#[test]
fn schema_id_and_comment_are_dropped() {
    // Gemini: `Unknown name "$schema" at 'function_declarations[0].parameters'`.
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:tool:echo",
        "$comment": "generated",
        "type": "object",
        "properties": {"q": {"type": "string", "$comment": "the query"}},
    });
    assert!(check_schema(Dialect::Gemini, &schema)
        .iter()
        .any(|p| p.keyword == "$schema"));
    let gemini = prepared(Dialect::Gemini, &schema);
    assert_eq!(gemini.status, SchemaStatus::Rewritten);
    assert_eq!(
        gemini.schema,
        json!({"type": "OBJECT", "properties": {"q": {"type": "STRING"}}})
    );
}

#[test]
fn integer_exclusive_bounds_become_inclusive_ones() {
    // Gemini: `Unknown name "exclusiveMinimum"`.
    let schema = with_property(
        "n",
        json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10}),
    );
    let gemini = prepared(Dialect::Gemini, &schema);
    assert_eq!(gemini.status, SchemaStatus::Rewritten);
    assert_eq!(
        gemini.schema["properties"]["n"],
        json!({"type": "INTEGER", "minimum": 1, "maximum": 9})
    );
    // A fractional bound on an integer: the next integer.
    let half = prepared(
        Dialect::Gemini,
        &with_property("n", json!({"type": "integer", "exclusiveMinimum": 2.5})),
    );
    assert_eq!(half.status, SchemaStatus::Rewritten);
    assert_eq!(half.schema["properties"]["n"]["minimum"], 3);
}

#[test]
fn a_discriminated_one_of_becomes_any_of_exactly() {
    let schema = with_property(
        "shape",
        json!({"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind"]},
        ]}),
    );
    let gemini = prepared(Dialect::Gemini, &schema);
    assert_eq!(gemini.status, SchemaStatus::Rewritten);
    let shape = &gemini.schema["properties"]["shape"];
    assert!(shape.get("oneOf").is_none());
    assert_eq!(shape["anyOf"].as_array().map(Vec::len), Some(2));
    // Branches of disjoint types cannot both match either.
    let types = with_property(
        "v",
        json!({"oneOf": [{"type": "string"}, {"type": "boolean"}]}),
    );
    assert_eq!(
        prepared(Dialect::Gemini, &types).status,
        SchemaStatus::Rewritten
    );
}

#[test]
fn a_schema_a_dialect_takes_travels_as_is() {
    let schema =
        json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
    for dialect in [Dialect::OpenAi, Dialect::Anthropic, Dialect::Converse] {
        let p = prepared(dialect, &schema);
        assert_eq!((p.status, &p.schema), (SchemaStatus::AsIs, &schema));
    }
}

/// What schemars writes for `category: Option<Category>` and `plain: Category`, where
/// `Category`'s variants have doc comments (issue 17, point 1).
fn documented_enum_arguments() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Args",
        "type": "object",
        "properties": {
            "category": {
                "description": "The category.",
                "anyOf": [{"$ref": "#/$defs/Category"}, {"type": "null"}],
            },
            "plain": {"$ref": "#/$defs/Category"},
        },
        "required": ["plain"],
        "$defs": {"Category": {"description": "A category.", "oneOf": [
            {"const": "books", "type": "string", "description": "Books and magazines."},
            {"const": "movies", "type": "string", "description": "Films."},
        ]}},
    })
}

#[test]
fn a_union_of_constants_travels_as_an_enum_of_its_values() {
    let schema = documented_enum_arguments();
    let gemini = prepared(Dialect::Gemini, &schema);
    assert_eq!(
        gemini.status,
        SchemaStatus::Rewritten,
        "{:?}",
        gemini.losses
    );
    assert_eq!(
        gemini.schema["properties"]["category"],
        json!({
            "type": "STRING", "enum": ["books", "movies"], "nullable": true,
            "description": "The category.\n- \"books\": Books and magazines.\n- \"movies\": Films.",
        })
    );
    assert_eq!(
        gemini.schema["properties"]["plain"],
        json!({
            "type": "STRING", "enum": ["books", "movies"],
            "description": "A category.\n- \"books\": Books and magazines.\n- \"movies\": Films.",
        })
    );
    // The strict dialects: one `enum` too, and no `oneOf` lost.
    for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
        let p = prepared(dialect, &schema);
        assert!(
            p.losses.iter().all(|l| l.keyword != "oneOf"),
            "{dialect}: {:?}",
            p.losses
        );
        assert_eq!(
            p.schema["properties"]["plain"]["enum"],
            json!(["books", "movies"])
        );
        assert_eq!(
            p.schema["properties"]["category"]["enum"],
            json!(["books", "movies", null])
        );
    }
}

#[test]
fn a_union_of_one_value_enums_and_nested_unions_is_one_enum() {
    let mut schema = with_property(
        "v",
        json!({"anyOf": [
            {"type": "string", "enum": ["a"]},
            {"enum": ["b"], "description": "B."},
            {"oneOf": [{"const": "c"}, {"const": "d", "description": "D."}]},
        ]}),
    );
    schema["required"] = json!(["v"]);
    for dialect in [
        Dialect::Gemini,
        Dialect::OpenAiStrict,
        Dialect::AnthropicStrict,
    ] {
        let v = &prepared(dialect, &schema).schema["properties"]["v"];
        assert_eq!(v["enum"], json!(["a", "b", "c", "d"]), "{dialect}");
        assert_eq!(v["description"], "- \"b\": B.\n- \"d\": D.", "{dialect}");
    }
}

#[test]
fn a_union_of_constants_gemini_cannot_list_travels_branch_by_branch() {
    // Gemini's `enum` takes strings only: numbers stay a union of typed branches.
    let schema = with_property(
        "n",
        json!({"oneOf": [{"const": 1, "type": "integer"}, {"const": "x", "type": "string"}]}),
    );
    let gemini = prepared(Dialect::Gemini, &schema);
    let n = &gemini.schema["properties"]["n"];
    assert_eq!(n["anyOf"][0]["type"], "INTEGER");
    assert_eq!(n["anyOf"][1], json!({"type": "STRING", "enum": ["x"]}));
    assert!(gemini.losses.iter().all(|l| l.keyword != "oneOf"));
}

#[test]
fn a_one_of_whose_branches_allow_distinct_values_is_exact() {
    // Two documented unit variants and a struct variant (externally tagged), then struct
    // variants only: each pair of branches provably excludes the other.
    let mixed = json!({"oneOf": [
        {"type": "string", "const": "a", "description": "A."},
        {"type": "string", "const": "b", "description": "B."},
        {"type": "object", "properties": {"c": {"type": "integer"}}, "required": ["c"],
         "additionalProperties": false},
    ]});
    let tagged = json!({"oneOf": [
        {"type": "object", "properties": {"c": {"type": "integer"}}, "required": ["c"],
         "additionalProperties": false},
        {"type": "object", "properties": {"d": {"type": "string"}}, "required": ["d"],
         "additionalProperties": false},
    ]});
    for union in [mixed, tagged] {
        let mut schema = with_property("v", union);
        schema["required"] = json!(["v"]);
        schema["additionalProperties"] = json!(false);
        for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
            let p = prepared(dialect, &schema);
            assert!(p.losses.is_empty(), "{dialect}: {:?}", p.losses);
            assert_eq!(p.status, SchemaStatus::Rewritten, "{dialect}");
        }
        // (Gemini drops `additionalProperties`, a loss of its own, but not "exactly one".)
        let gemini = prepared(Dialect::Gemini, &schema);
        assert!(gemini.losses.iter().all(|l| l.keyword != "oneOf"));
    }
    // Two branches that both take "a" are no such union: exactly-one is lost, loudly.
    let overlapping = with_property(
        "v",
        json!({"oneOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "string", "const": "a"}]}),
    );
    let p = prepared(Dialect::OpenAiStrict, &overlapping);
    assert_eq!(p.schema["properties"]["v"]["enum"], json!(["b", null]));
}

// ---------------------------------------------------------------------------------------------
// Strict, revised: the strict dialects' own changes lose only what the tool could receive

#[test]
fn closing_an_object_the_schema_already_closes_is_no_loss() {
    let schema = json!({"type": "object", "additionalProperties": false,
        "properties": {"inner": {"type": "object", "additionalProperties": false,
            "properties": {"x": {"type": "string"}}, "required": ["x"]}},
        "required": ["inner"]});
    for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
        let p = prepared(dialect, &schema);
        assert!(p.losses.is_empty(), "{dialect}: {:?}", p.losses);
        assert_ne!(p.status, SchemaStatus::Lossy, "{dialect}");
    }
}

/// A closed object with an optional property that refuses `null` (`limit`) and two that take
/// it (`tag`, `pick`: an `Option` as schemars writes it).
fn optional_arguments() -> Value {
    json!({"type": "object", "additionalProperties": false, "properties": {
        "q": {"type": "string"},
        "limit": {"type": "integer", "minimum": 0},
        "tag": {"type": ["string", "null"]},
        "pick": {"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]},
    }, "required": ["q"]})
}

#[test]
fn required_or_null_is_a_loss_only_where_null_and_absence_may_differ() {
    let schema = optional_arguments();
    let p = prepared(Dialect::OpenAiStrict, &schema);
    let lost: Vec<&str> = p.losses.iter().map(|l| l.pointer.as_str()).collect();
    assert_eq!(lost, ["/properties/pick", "/properties/tag"]);
    assert!(p.losses.iter().all(|l| l.keyword == "required"));
    // The way back removes `limit`'s `null`: the tool never sees it.
    let mut args = json!({"q": "x", "limit": null, "tag": null, "pick": null});
    restore_arguments(&schema, &mut args);
    assert_eq!(args, json!({"q": "x", "tag": null, "pick": null}));
    // A tool that reads `null` as absent loses nothing.
    let same = PrepareOptions {
        null_is_absent: true,
        ..PrepareOptions::default()
    };
    let p = prepare_schema_with(Dialect::OpenAiStrict, &schema, same).expect("prepared");
    assert!(p.losses.is_empty(), "{:?}", p.losses);
    assert_eq!(p.status, SchemaStatus::Rewritten);
    assert_eq!(p.schema["required"], json!(["q", "limit", "pick", "tag"]));
}

#[test]
fn a_definition_that_reads_null_as_absent_prepares_for_openai_strict_without_loss() {
    let own = ToolDefinition::new("find", "Finds.", optional_arguments()).with_null_is_absent(true);
    let mcp = ToolDefinition::new("find", "Finds.", optional_arguments());
    let exact = prepare_definition_cached(Dialect::OpenAiStrict, &own);
    let exact = exact.as_ref().as_ref().expect("prepared");
    assert!(exact.losses.is_empty(), "{:?}", exact.losses);
    assert_eq!(exact.status, SchemaStatus::Rewritten);
    // The same schema from a tool that may read them apart: the cache keeps the two apart.
    let lossy = prepare_definition_cached(Dialect::OpenAiStrict, &mcp);
    let lossy = lossy.as_ref().as_ref().expect("prepared");
    assert_eq!(lossy.status, SchemaStatus::Lossy);
    assert_eq!(lossy.losses.len(), 2, "{:?}", lossy.losses);
    assert_eq!(exact.schema, lossy.schema);
}

// ---------------------------------------------------------------------------------------------
// Lossy rewrites: recorded, and written into the node's description

#[test]
fn a_pattern_that_is_not_simple_is_dropped_for_anthropic_strict() {
    let schema = with_property(
        "tag",
        json!({"type": "string", "pattern": "^(?=a)\\w+$", "description": "The tag."}),
    );
    let p = prepared(Dialect::AnthropicStrict, &schema);
    assert_loss(&p, "/properties/tag", "pattern", "Must match ^(?=a)\\w+$.");
    assert_eq!(
        p.schema["properties"]["tag"]["description"],
        "The tag. Must match ^(?=a)\\w+$."
    );
    // A simple one stays.
    let simple = with_property("tag", json!({"type": "string", "pattern": "^[a-z]+$"}));
    let p = prepared(Dialect::AnthropicStrict, &simple);
    assert_eq!(p.schema["properties"]["tag"]["pattern"], "^[a-z]+$");
}

#[test]
fn a_format_the_dialect_lacks_is_dropped() {
    // OpenAI strict: `'uri' is not a valid format`.
    let schema = with_property("home", json!({"type": "string", "format": "uri"}));
    assert!(check_schema(Dialect::OpenAiStrict, &schema)
        .iter()
        .any(|p| p.keyword == "format"));
    for dialect in [Dialect::OpenAiStrict, Dialect::Gemini] {
        let p = prepared(dialect, &schema);
        assert_loss(&p, "/properties/home", "format", "Format: uri.");
        assert!(p.schema["properties"]["home"].get("format").is_none());
    }
}

#[test]
fn a_length_is_dropped_where_the_dialect_lacks_it() {
    let schema = with_property(
        "name",
        json!({"type": "string", "minLength": 2, "maxLength": 40}),
    );
    for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
        let p = prepared(dialect, &schema);
        assert_loss(
            &p,
            "/properties/name",
            "minLength",
            "At least 2 characters.",
        );
        assert_loss(
            &p,
            "/properties/name",
            "maxLength",
            "At most 40 characters.",
        );
    }
    // Gemini takes both.
    let gemini = prepared(Dialect::Gemini, &schema);
    assert_eq!(gemini.schema["properties"]["name"]["maxLength"], 40);
}

#[test]
fn item_bounds_are_dropped_or_lowered() {
    let schema = with_property(
        "ids",
        json!({"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 10}),
    );
    let p = prepared(Dialect::AnthropicStrict, &schema);
    assert_loss(&p, "/properties/ids", "minItems", "At least 3 items.");
    assert_loss(&p, "/properties/ids", "maxItems", "At most 10 items.");
    // "minItems values of 0 and 1": lowered to 1, a widening.
    assert_eq!(p.schema["properties"]["ids"]["minItems"], 1);
    assert!(p.schema["properties"]["ids"].get("maxItems").is_none());
}

#[test]
fn numeric_bounds_are_dropped_where_the_dialect_lacks_them() {
    let schema = with_property(
        "n",
        json!({"type": "number", "minimum": 1, "maximum": 9, "multipleOf": 0.5}),
    );
    let p = prepared(Dialect::AnthropicStrict, &schema);
    assert_loss(&p, "/properties/n", "minimum", "At least 1.");
    assert_loss(&p, "/properties/n", "maximum", "At most 9.");
    assert_loss(&p, "/properties/n", "multipleOf", "A multiple of 0.5.");
    // Gemini: an exclusive bound on a number becomes the inclusive one, a widening.
    let gemini = prepared(
        Dialect::Gemini,
        &with_property("x", json!({"type": "number", "exclusiveMinimum": 0.5})),
    );
    assert_loss(
        &gemini,
        "/properties/x",
        "exclusiveMinimum",
        "Greater than 0.5.",
    );
    assert_eq!(gemini.schema["properties"]["x"]["minimum"], 0.5);
}

#[test]
fn additional_properties_and_property_names_are_dropped_for_gemini() {
    let schema = with_property(
        "labels",
        json!({"type": "object", "additionalProperties": {"type": "string"}, "propertyNames": {"pattern": "^[a-z]+$"}}),
    );
    let p = prepared(Dialect::Gemini, &schema);
    assert_loss(
        &p,
        "/properties/labels",
        "additionalProperties",
        "Other properties must match {\"type\":\"string\"}.",
    );
    assert_loss(
        &p,
        "/properties/labels",
        "propertyNames",
        "Property names must match {\"pattern\":\"^[a-z]+$\"}.",
    );
    // A closed object opens (a widening), loudly; a non-strict dialect never closes one.
    let closed = with_property(
        "o",
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}),
    );
    let p = prepared(Dialect::Gemini, &closed);
    assert_loss(
        &p,
        "/properties/o",
        "additionalProperties",
        "No properties other than those listed.",
    );
    // `true` allowed anything: dropping it is exact.
    let open = with_property(
        "o",
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true}),
    );
    assert_eq!(
        prepared(Dialect::Gemini, &open).status,
        SchemaStatus::Rewritten
    );
}

#[test]
fn a_non_string_enum_is_dropped_for_gemini() {
    let schema = with_property("level", json!({"enum": [1, 2, 3]}));
    let p = prepared(Dialect::Gemini, &schema);
    assert_loss(&p, "/properties/level", "enum", "One of: 1, 2, 3.");
    assert_eq!(p.schema["properties"]["level"]["type"], "INTEGER");
    // Values of several types keep a type each (issue 17: never neither a type nor values).
    let schema = with_property("level", json!({"enum": [1, "high", 2.5, null]}));
    let p = prepared(Dialect::Gemini, &schema);
    let level = &p.schema["properties"]["level"];
    assert_eq!(
        level["anyOf"],
        json!([{"type": "NUMBER"}, {"type": "STRING", "enum": ["high"]}])
    );
    assert_eq!(level["nullable"], true);
}

#[test]
fn an_unprovable_one_of_becomes_any_of_with_a_note() {
    // OpenAI strict: `'oneOf' is not permitted`.
    // (Required: under openai-strict an optional one is wrapped in `anyOf: [it, null]` first.)
    let schema = json!({"type": "object", "properties": {
        "v": {"oneOf": [{"type": "string"}, {"type": "string", "minLength": 3}]},
    }, "required": ["v"]});
    assert!(check_schema(Dialect::OpenAiStrict, &schema)
        .iter()
        .any(|p| p.keyword == "oneOf"));
    for dialect in [Dialect::OpenAiStrict, Dialect::Gemini] {
        let p = prepared(dialect, &schema);
        assert_loss(
            &p,
            "/properties/v",
            "oneOf",
            "Must match exactly one of the options.",
        );
        assert!(p.schema["properties"]["v"].get("anyOf").is_some());
    }
}

#[test]
fn openai_strict_closes_objects_and_makes_optional_properties_nullable() {
    // OpenAI strict: `'additionalProperties' is required to be supplied and to be false`;
    // `'required' is required to be supplied and to be an array including every key in
    // properties`.
    let schema = json!({"type": "object", "properties": {
        "q": {"type": "string"}, "limit": {"type": "integer"},
    }, "required": ["q"]});
    let keywords: Vec<String> = check_schema(Dialect::OpenAiStrict, &schema)
        .into_iter()
        .map(|p| p.keyword)
        .collect();
    assert!(keywords.contains(&"additionalProperties".to_owned()));
    assert!(keywords.contains(&"required".to_owned()));
    let p = prepared(Dialect::OpenAiStrict, &schema);
    assert_loss(
        &p,
        "",
        "additionalProperties",
        "Closed for strict mode; the tool takes other properties too.",
    );
    // `limit` refuses `null`: the way back removes the `null` strict sends for it, so making
    // it required-or-null is exact ("Strict, revised"); the note still says how to leave it out.
    assert!(
        p.losses.iter().all(|l| l.keyword != "required"),
        "{:?}",
        p.losses
    );
    assert_eq!(
        p.schema["properties"]["limit"]["description"],
        "Send null to leave it out."
    );
    assert_eq!(p.schema["additionalProperties"], false);
    assert_eq!(p.schema["required"], json!(["q", "limit"]));
    assert_eq!(
        p.schema["properties"]["limit"]["type"],
        json!(["integer", "null"])
    );
    // The way back: the `null` the model must send for "no limit" never reaches the tool.
    let mut args = json!({"q": "rust", "limit": null});
    assert_eq!(restore_arguments(&schema, &mut args), 1);
    assert_eq!(args, json!({"q": "rust"}));
}

#[test]
fn notes_stay_out_of_descriptions_when_asked() {
    let schema = with_property("home", json!({"type": "string", "format": "uri"}));
    let quiet = PrepareOptions {
        notes_in_descriptions: false,
        ..PrepareOptions::default()
    };
    let p = prepare_schema_with(Dialect::Gemini, &schema, quiet).expect("prepared");
    assert_eq!(p.status, SchemaStatus::Lossy);
    assert_eq!(p.losses.len(), 1);
    assert_eq!(p.schema["properties"]["home"], json!({"type": "STRING"}));
}

#[test]
fn a_root_combinator_goes_with_a_note() {
    // OpenAI, Anthropic: `schema must have type 'object' and not have
    // 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level`.
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
    });
    for dialect in [Dialect::OpenAi, Dialect::Anthropic] {
        assert!(check_schema(dialect, &schema)
            .iter()
            .any(|p| p.pointer.is_empty() && p.keyword == "oneOf"));
        let p = prepared(dialect, &schema);
        assert!(p.schema.get("oneOf").is_none());
        assert_loss(
            &p,
            "",
            "oneOf",
            "Must match one of [{\"required\":[\"a\"]},{\"required\":[\"b\"]}].",
        );
    }
}

#[test]
fn a_root_without_a_type_says_object() {
    // Bedrock: `toolSpec.inputSchema.json.type must be one of the following: object`.
    let schema = json!({"properties": {"q": {"type": "string"}}});
    assert!(check_schema(Dialect::Converse, &schema)
        .iter()
        .any(|p| p.pointer.is_empty() && p.keyword == "type"));
    let p = prepared(Dialect::Converse, &schema);
    assert_eq!(p.status, SchemaStatus::Rewritten);
    assert_eq!(p.schema["type"], "object");
}

// ---------------------------------------------------------------------------------------------
// Refusals

fn recursive() -> Value {
    json!({
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Node"}},
        "required": ["tree"],
        "$defs": {"Node": {"type": "object", "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        }, "required": ["name", "children"]}},
    })
}

#[test]
fn recursion_is_refused_where_the_dialect_has_none() {
    // "Recursion, revised": only anthropic-strict (its provider's refusal) and gemini (no `$ref`);
    // `recursion.rs` has the dialects that take it.
    for dialect in [Dialect::AnthropicStrict, Dialect::Gemini] {
        let refusal = refused(dialect, &recursive());
        assert_eq!(refusal.reason, RefusalReason::Recursive, "{dialect}");
        assert_eq!(refusal.keyword, "$ref");
        assert_eq!(refusal.pointer, "/$defs/Node/properties/children/items");
    }
}

#[test]
fn recursion_is_kept_inside_openai_strict() {
    let p = prepared(Dialect::OpenAiStrict, &recursive());
    assert_eq!(
        p.schema["$defs"]["Node"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    assert_eq!(
        p.schema["properties"]["tree"],
        json!({"$ref": "#/$defs/Node"})
    );
    // Recursion through `#` (the root) is kept too.
    let root = json!({"type": "object", "properties": {
        "next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]},
    }, "required": ["next"], "additionalProperties": false});
    assert_eq!(
        prepared(Dialect::OpenAiStrict, &root).status,
        SchemaStatus::AsIs
    );
}

#[test]
fn an_external_ref_is_refused_everywhere() {
    let schema = with_property("a", json!({"$ref": "https://example.com/schemas/a.json"}));
    for dialect in Dialect::ALL {
        let refusal = refused(dialect, &schema);
        assert_eq!(refusal.reason, RefusalReason::ExternalRef, "{dialect}");
        assert_eq!(refusal.pointer, "/properties/a");
    }
}

#[test]
fn a_ref_to_nowhere_is_refused_everywhere() {
    // Gemini: `reference to undefined schema`.
    let schema = with_property("a", json!({"$ref": "#/$defs/Missing"}));
    for dialect in Dialect::ALL {
        let refusal = refused(dialect, &schema);
        assert_eq!(refusal.reason, RefusalReason::RefToNowhere, "{dialect}");
        assert!(refusal.to_string().contains("#/$defs/Missing"));
    }
}

#[test]
fn a_root_that_is_not_an_object_is_refused() {
    for schema in [
        json!({"type": "string"}),
        json!({"type": "array", "items": {"type": "string"}}),
        json!([]),
        json!("object"),
    ] {
        for dialect in Dialect::ALL {
            let refusal = refused(dialect, &schema);
            assert_eq!(
                refusal.reason,
                RefusalReason::RootNotObject,
                "{dialect} {schema}"
            );
        }
    }
}

#[test]
fn over_openai_strict_limits_is_refused() {
    let limits = Dialect::OpenAiStrict.rules().limits.expect("limits");
    // Object properties.
    let many: serde_json::Map<String, Value> = (0..=limits.properties)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let wide = json!({"type": "object", "properties": many});
    assert_eq!(
        refused(Dialect::OpenAiStrict, &wide).reason,
        RefusalReason::TooLarge
    );
    // Nesting.
    let mut deep = json!({"type": "object", "properties": {"leaf": {"type": "string"}}});
    for _ in 0..limits.nesting {
        deep = json!({"type": "object", "properties": {"o": deep}, "required": ["o"]});
    }
    assert_eq!(
        refused(Dialect::OpenAiStrict, &deep).reason,
        RefusalReason::TooLarge
    );
    // Enum values.
    let values: Vec<Value> = (0..=limits.enum_values)
        .map(|i| json!(format!("v{i}")))
        .collect();
    let enums = with_property("e", json!({"type": "string", "enum": values}));
    assert_eq!(
        refused(Dialect::OpenAiStrict, &enums).reason,
        RefusalReason::TooLarge
    );
    // Characters of names and values.
    let long = "x".repeat(limits.name_chars + 1);
    let chars = with_property("e", json!({"type": "string", "enum": [long]}));
    assert_eq!(
        refused(Dialect::OpenAiStrict, &chars).reason,
        RefusalReason::TooLarge
    );
    // The other dialects have no such limit: the wide one travels.
    assert_eq!(prepared(Dialect::OpenAi, &wide).status, SchemaStatus::AsIs);
}

#[test]
fn a_required_property_is_never_emptied() {
    // Gemini takes nothing of `not`: the required property would be left as `{}`.
    let schema = json!({"type": "object", "properties": {
        "x": {"not": {"type": "string"}},
    }, "required": ["x"]});
    let refusal = refused(Dialect::Gemini, &schema);
    assert_eq!(refusal.reason, RefusalReason::WouldEmpty);
    assert_eq!(refusal.pointer, "/properties/x");
    // Optional, it may widen to anything, loudly.
    let optional = with_property("x", json!({"not": {"type": "string"}}));
    let p = prepared(Dialect::Gemini, &optional);
    assert_loss(
        &p,
        "/properties/x",
        "not",
        "Must not match {\"type\":\"string\"}.",
    );
}

#[test]
fn an_array_without_items_is_refused_by_openai_strict() {
    // OpenAI strict: `array schema missing items`.
    let schema =
        json!({"type": "object", "properties": {"xs": {"type": "array"}}, "required": ["xs"]});
    assert!(check_schema(Dialect::OpenAiStrict, &schema)
        .iter()
        .any(|p| p.pointer == "/properties/xs" && p.keyword == "items"));
    let refusal = refused(Dialect::OpenAiStrict, &schema);
    assert_eq!(refusal.pointer, "/properties/xs");
    assert_eq!(refusal.keyword, "items");
}

#[test]
fn the_cache_agrees_with_preparing_afresh() {
    for schema in [
        recursive(),
        with_property("n", json!({"type": ["integer", "null"]})),
    ] {
        for dialect in Dialect::ALL {
            assert_eq!(
                *prepare_schema_cached(dialect, &schema),
                prepare_schema(dialect, &schema)
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Real schemas

#[test]
fn the_corpus_of_mcp_schemas_travels_to_every_broad_dialect() {
    let corpus = corpus("mcp-schemas.json");
    let mut tools = 0;
    for server in corpus["servers"].as_array().expect("servers") {
        for tool in server["tools"].as_array().expect("tools") {
            tools += 1;
            let schema = &tool["inputSchema"];
            let name = format!("{}/{}", server["server"], tool["name"]);
            for dialect in Dialect::ALL {
                match prepare_schema(dialect, schema) {
                    Ok(p) => {
                        let problems = check_schema(dialect, &p.schema);
                        assert!(problems.is_empty(), "{name} in {dialect}: {problems:?}");
                    }
                    Err(refusal) => assert!(
                        dialect.is_strict(),
                        "{name} refused by {dialect}: {refusal}"
                    ),
                }
            }
        }
    }
    assert!(tools > 0, "an empty corpus");
}

// ---------------------------------------------------------------------------------------------
// Findings: where the implementation disagrees with the spec (ignored until fixed)

/// Finding 1. `rewrite.rs`, `Rewriter::all_required` → `make_nullable` → `accepts_null`: an
/// optional property whose schema names no type (`{properties: …}`) is taken to accept `null`
/// already, so it is made required without a `null`; then `Rewriter::typed` types it
/// `object`. The model can no longer leave it out, though its note says "Send null to leave it
/// out."
#[test]
// (finding 1: fixed)
fn finding_strict_optional_untyped_object_can_be_left_out() {
    let schema = with_property("b", json!({"properties": {"k": {"type": "string"}}}));
    let p = prepared(Dialect::OpenAiStrict, &schema);
    let b = p.schema["properties"]["b"].clone();
    assert!(
        jsonschema_free_accepts_null(&b),
        "`b` is required and refuses null: {b}"
    );
}

/// Whether a prepared (strict) node takes `null`, read from its `type` or its `anyOf`.
fn jsonschema_free_accepts_null(node: &Value) -> bool {
    let typed_null = |n: &Value| match n.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.contains(&json!("null")),
        _ => false,
    };
    typed_null(node)
        || node
            .get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|b| b.iter().any(typed_null))
}

/// Finding 2. `restore.rs`, `rejects_null` (and `rewrite.rs`, `accepts_null`) read `oneOf` like
/// `anyOf`: `null` matching two branches is refused by `oneOf`, yet the way back keeps it.
#[test]
// (finding 2: fixed)
fn finding_one_of_with_two_null_branches_refuses_null() {
    let schema = with_property(
        "b",
        json!({"oneOf": [{"type": "null"}, {"type": ["string", "null"]}]}),
    );
    let mut args = json!({"b": null});
    restore_arguments(&schema, &mut args);
    assert_eq!(args, json!({}), "the tool refuses `b: null`");
}

/// Finding 3. `rewrite.rs`, `Rewriter::unknown_keywords`: a dialect without `prefixItems`
/// drops it but keeps `items`, which in 2020-12 then applies to the first positions too: a
/// narrowing in a non-strict dialect (Gemini), recorded as if it only widened.
#[test]
// (finding 3: fixed)
fn finding_dropping_prefix_items_narrows_items() {
    let schema = with_property(
        "pair",
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "number"}}),
    );
    let p = prepared(Dialect::Gemini, &schema);
    // `["a", 1]` is valid for the tool; the prepared `items` must not refuse its "a".
    let items = &p.schema["properties"]["pair"]["items"];
    assert_ne!(
        items,
        &json!({"type": "NUMBER"}),
        "Gemini's items refuse [\"a\", 1]"
    );
}

/// Finding 4. `restore.rs`, `object_parts`: one level only. An object reached through an
/// `allOf` inside an `anyOf` branch (or a union inside `allOf`) keeps its strict `null`s.
#[test]
// (finding 4: fixed)
fn finding_restore_misses_nested_combinators() {
    let schema = with_property(
        "a",
        json!({"anyOf": [{"type": "string"}, {"allOf": [{"type": "object", "properties": {"x": {"type": "string"}}}]}]}),
    );
    assert!(prepare_schema(Dialect::OpenAiStrict, &schema).is_ok());
    let mut args = json!({"a": {"x": null}});
    restore_arguments(&schema, &mut args);
    assert_eq!(args, json!({"a": {}}));
}

/// Finding 6. `restore.rs`, `walk`: an array is walked through the node's own `items` only, not
/// through `anyOf`/`oneOf` branches. pydantic writes `Optional[list[Item]]` exactly so, and the
/// strict `null`s inside the items reach the tool.
#[test]
// (finding 6: fixed)
fn finding_restore_misses_arrays_in_unions() {
    let schema = with_property(
        "items",
        json!({"anyOf": [
            {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "string"}}}},
            {"type": "null"},
        ]}),
    );
    let mut args = json!({"items": [{"x": null}]});
    restore_arguments(&schema, &mut args);
    assert_eq!(args, json!({"items": [{}]}));
}

/// Finding 8. `restore.rs`, `object_parts`: the branch of a union is the first that declares
/// every key present, not the one the object matches; where branches share a property name
/// with different nullability, a `null` the tool refuses is kept.
#[test]
// (finding 8: fixed)
fn finding_restore_picks_the_first_branch_declaring_the_keys() {
    let schema = with_property(
        "a",
        json!({"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "k0"}, "b": {"type": ["string", "null"]}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "k1"}, "b": {"type": "string"}}, "required": ["kind"]},
        ]}),
    );
    let mut args = json!({"a": {"kind": "k1", "b": null}});
    restore_arguments(&schema, &mut args);
    assert_eq!(args, json!({"a": {"kind": "k1"}}));
}

/// Finding 5. `rewrite.rs`, `discriminated` (`provably_exclusive`): branches that require
/// different `const`s of one property exclude each other only for objects; without `type:
/// object` any non-object matches them all, so `oneOf` refuses it and the `anyOf` it becomes
/// takes it. The status says exact.
#[test]
// (finding 5: fixed)
fn finding_discriminated_one_of_needs_object_branches() {
    let schema = with_property(
        "a",
        json!({"oneOf": [
            {"properties": {"kind": {"const": "k0"}}, "required": ["kind"]},
            {"properties": {"kind": {"const": "k1"}}, "required": ["kind"]},
        ]}),
    );
    // `{"a": 1.5}` matches both branches: the tool refuses it.
    let p = prepared(Dialect::Gemini, &schema);
    assert_eq!(p.status, SchemaStatus::Lossy, "{}", p.schema);
}

/// Finding 7. `rewrite.rs`, `Rewriter::null_branch`: `anyOf: [X, {type: null}]` → X with
/// `nullable` merges X in with `let _ = merge_into(..)`, dropping what the merge hands back:
/// X's `properties` whenever X also says `additionalProperties` (zod writes that on every
/// object). The object's properties vanish from Gemini's schema, with no loss recorded.
#[test]
// (finding 7: fixed)
fn finding_gemini_nullable_object_keeps_its_properties() {
    let schema = with_property(
        "a",
        json!({"anyOf": [
            {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "additionalProperties": false},
            {"type": "null"},
        ]}),
    );
    let p = prepared(Dialect::Gemini, &schema);
    assert_eq!(
        p.schema["properties"]["a"]["properties"],
        json!({"x": {"type": "STRING"}}),
        "{}",
        p.schema
    );
}

/// Finding 9. `rewrite.rs`, `Rewriter::types`: `type: [T, "null"]` → `type: T, nullable: true`
/// also where an `enum` (or `const`) beside it leaves `null` out; read as the spec reads
/// `nullable`, the schema called exact now takes `null`.
#[test]
// (finding 9: fixed)
fn finding_gemini_nullable_ignores_enum() {
    let schema = with_property(
        "c",
        json!({"type": ["string", "null"], "enum": ["red", "blue"]}),
    );
    let p = prepared(Dialect::Gemini, &schema);
    assert_ne!(
        (p.status, p.schema["properties"]["c"].get("nullable")),
        (SchemaStatus::Rewritten, Some(&json!(true))),
        "{}",
        p.schema
    );
}

/// Finding 10 (fuzz). `rewrite.rs`, `Rewriter::children`: a value that is no schema where one
/// subschema stands (`"not": 5`, `"then": "object"`) is skipped by the rewrite; the broad
/// dialects then refuse it from the final check in `prepare.rs` as `Inexpressible` "(left after
/// rewriting)", where `"properties": {"a": 7}` is `NotJsonSchema` (and the narrow dialects
/// drop it as a loss, "Must not match 5.").
#[test]
// (finding 10: fixed)
fn finding_a_non_schema_subschema_is_not_json_schema() {
    let schema = with_property("a", json!({"type": "string", "not": 5}));
    let refusal = refused(Dialect::OpenAi, &schema);
    assert_eq!(refusal.reason, RefusalReason::NotJsonSchema, "{refusal}");
}

/// Finding 11 (fuzz). `rewrite.rs`, `Rewriter::enumeration`: for Gemini, a string `enum` (or
/// `const`) on a node typed other than string (which accepts nothing) is neither mended nor
/// refused by the rewrite: the final check refuses it "(left after rewriting)".
#[test]
// (finding 11: fixed)
fn finding_gemini_string_enum_on_another_type() {
    let schema = with_property("a", json!({"type": "array", "const": "x"}));
    if let Err(refusal) = prepare_schema(Dialect::Gemini, &schema) {
        assert!(
            !refusal.why.ends_with("(left after rewriting)"),
            "{refusal}"
        );
    }
}

/// Finding 12 (fuzz). `rewrite.rs`, `Rewriter::node`: `root` runs before `constant`, so where
/// the dialect has no `const` (openai-strict, Gemini) a `const` at the root becomes an `enum` at
/// the root after the root's combinators were removed; the final check refuses it "(left after
/// rewriting)". Fuzz input, minimised: `{"const":""}`.
#[test]
// (finding 12: fixed)
fn finding_root_const_becomes_a_root_enum() {
    let schema = json!({"const": ""});
    for dialect in [Dialect::OpenAiStrict, Dialect::Gemini] {
        if let Err(refusal) = prepare_schema(dialect, &schema) {
            assert!(
                !refusal.why.ends_with("(left after rewriting)"),
                "{refusal}"
            );
        }
    }
}
