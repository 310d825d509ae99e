//! Which lost rules the `#[tool]`'s validator really checks (`tool-schema-wire.md`, "What the
//! rail fails on, revised 2026-12": guarded means the tool's own validation refuses what breaks
//! the rule): a `format` only if the validator knows it (`jsonschema`'s own and schemars' `ip`,
//! `partial-date-time`, `partial-time`), never an extension keyword or a content keyword. Each
//! verdict is checked against the validator itself, built with the options the `#[tool]`'s is
//! (`arguments_validator_options`): a rule called checked must refuse a value that breaks it.

use serde_json::{json, Value};
use toolwire_core::schema::{prepare_schema, Dialect, Loss, SchemaReport, Standing};

/// The `#[tool]`'s validator, as `toolwire::__private::ArgumentsValidator` builds it.
fn tool_validator(schema: &Value) -> jsonschema::Validator {
    toolwire_core::schema::arguments_validator_options()
        .build(schema)
        .expect("compiles")
}

/// The one loss at `/properties/v` of `{v: node}` in `dialect`.
fn loss_of(dialect: Dialect, node: Value) -> Loss {
    let schema = json!({"type": "object", "properties": {"v": node}});
    let prepared = prepare_schema(dialect, &schema).unwrap();
    let mut at_v: Vec<Loss> = prepared
        .losses
        .into_iter()
        .filter(|l| l.pointer == "/properties/v")
        .collect();
    assert_eq!(at_v.len(), 1, "{at_v:?}");
    at_v.remove(0)
}

/// Whether the tool's validator refuses `{v: bad}` under `{v: node}`.
fn refused_by_the_tool(node: &Value, bad: Value) -> bool {
    let schema = json!({"type": "object", "properties": {"v": node}});
    !tool_validator(&schema).is_valid(&json!({ "v": bad }))
}

#[test]
fn a_lost_format_the_validator_checks_is_guarded_and_one_it_ignores_is_not() {
    // (format, a string that breaks it): anthropic-strict takes a short list of string
    // formats only, so each of these is dropped there.
    for (format, bad, checked) in [
        ("uri-template", "{", true),
        ("json-pointer", "no-slash", true),
        ("regex", "(", true),
        ("iri-reference", "\\\\", true),
        ("ip", "not an address", true),
        ("partial-date-time", "2024-06-15 07:00:00", true),
        ("partial-time", "7:00:00", true),
        ("zoned-date-time", "not a time", false),
        ("upper-case-word", "lower", false),
        ("idn-hostname", "-bad-", false),
    ] {
        let node = json!({"type": "string", "format": format});
        let loss = loss_of(Dialect::AnthropicStrict, node.clone());
        assert_eq!(
            (loss.keyword.as_str(), loss.format.as_deref()),
            ("format", Some(format))
        );
        assert_eq!(loss.checked_by_validators(), checked, "{format}");
        assert_eq!(
            refused_by_the_tool(&node, json!(bad)),
            checked,
            "`{format}`: the verdict must be the validator's"
        );
        let expected = if checked {
            Standing::Guarded
        } else {
            Standing::Unguarded
        };
        assert_eq!(loss.standing(true), expected, "{format}");
        assert_eq!(loss.standing(false), Standing::Unguarded, "{format}");
    }
}

#[test]
fn one_unchecked_format_makes_the_whole_report_unguarded() {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "string", "format": "uri-template"},
        "b": {"type": "string", "format": "zoned-date-time"}}});
    let prepared = toolwire_core::schema::prepare_schema_cached(Dialect::AnthropicStrict, &schema);
    let report = SchemaReport::of_preparation(&prepared, true);
    assert_eq!(report.standing, Some(Standing::Unguarded), "{report:?}");
    let json = serde_json::to_value(&report).unwrap();
    let formats: Vec<&Value> = json["losses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["format"])
        .collect();
    assert!(formats.contains(&&json!("zoned-date-time")), "{json}");
}

#[test]
fn an_extension_keyword_lost_is_unguarded_and_no_validator_refuses_for_it() {
    let node = json!({"type": "string", "x-case": "lower"});
    let loss = loss_of(Dialect::Gemini, node.clone());
    assert_eq!(
        (loss.keyword.as_str(), loss.format.as_deref()),
        ("x-case", None)
    );
    assert_eq!(loss.standing(true), Standing::Unguarded);
    assert!(!refused_by_the_tool(&node, json!("UPPER")));
}

#[test]
fn a_content_keyword_dropped_from_a_draft_07_schema_is_a_loss_and_unguarded() {
    // A draft-07 server may check these; the `#[tool]`'s 2020-12 validator never does.
    for (keyword, value, bad) in [
        ("contentMediaType", "application/json", "{not json"),
        ("contentEncoding", "base64", "*not base64*"),
    ] {
        for draft in [
            "http://json-schema.org/draft-07/schema#",
            "http://json-schema.org/draft-04/schema#",
        ] {
            let schema = json!({"$schema": draft, "type": "object",
                "properties": {"v": {"type": "string", keyword: value}}});
            let prepared = prepare_schema(Dialect::Gemini, &schema).unwrap();
            let loss = prepared
                .losses
                .iter()
                .find(|l| l.pointer == "/properties/v")
                .unwrap_or_else(|| panic!("no loss of `{keyword}` under {draft}"));
            assert_eq!(loss.keyword, keyword);
            assert!(loss.note.contains(value), "{}", loss.note);
            assert_eq!(loss.standing(true), Standing::Unguarded, "{keyword}");
        }
        let node = json!({"type": "string", keyword: value});
        assert!(!refused_by_the_tool(&node, json!(bad)), "{keyword}");
    }
}

#[test]
fn a_content_keyword_of_a_2020_12_schema_is_dropped_as_an_annotation() {
    // No `$schema` is 2020-12 (an MCP tool's `inputSchema` defaults to it), and so is 2019-09's
    // vocabulary: there the content keywords only annotate.
    for root in [
        json!({}),
        json!({"$schema": "https://json-schema.org/draft/2020-12/schema"}),
        json!({"$schema": "https://json-schema.org/draft/2019-09/schema"}),
    ] {
        for keyword in ["contentMediaType", "contentEncoding"] {
            let mut schema = root.clone();
            schema["type"] = json!("object");
            schema["properties"] = json!({"v": {"type": "string", keyword: "application/json"}});
            let prepared = prepare_schema(Dialect::Gemini, &schema).unwrap();
            assert!(
                prepared.losses.iter().all(|l| l.keyword != keyword),
                "{root}: {:?}",
                prepared.losses
            );
            assert!(
                prepared.schema["properties"]["v"].get(keyword).is_none(),
                "{root}: dropped, as Gemini takes no `{keyword}`: {}",
                prepared.schema
            );
            // Told to the model, as `default` is: the hint is how to write the value.
            let told = prepared.schema["properties"]["v"]["description"].as_str();
            assert!(
                told.is_some_and(|d| d.contains("application/json")),
                "{root}: {}",
                prepared.schema
            );
            let report = SchemaReport::of_preparation(
                &toolwire_core::schema::prepare_schema_cached(Dialect::Gemini, &schema),
                true,
            );
            assert_ne!(
                report.standing,
                Some(Standing::Unguarded),
                "{root}: {report:?}"
            );
        }
    }
}
