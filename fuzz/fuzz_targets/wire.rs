//! `wire_tools` in every `WireFormat` over arbitrary definitions (arbitrary JSON parameters).
//!
//! Properties (tool-name-wire.md, hops 2 and 3; tool-schema-wire.md): the request carries
//! exactly the census's offered tools whose form the provider takes and whose schema its
//! dialect can carry, in census order, each under its form; a form that starts with a letter
//! passes every provider's definition rule (and any form passes all but Gemini's, which wants a
//! letter or `_` first); the description travels verbatim (Converse describes an undescribed
//! tool by its real name); the schema sent is the prepared one, passes the dialect's own check,
//! and is the tool's schema itself wherever the dialect takes that as is; a strict format says
//! `strict: true` where its shape takes it; a list over a request limit is an `OverLimit`
//! error, never a silently shortened list; a definition list that is not the census's input is
//! refused.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolwire_core::names::DEFAULT_META_TOOLS;
use toolwire_core::schema::{check_schema, prepare_schema};
use toolwire_core::wire::{check_definition_name, wire_tools, LlmProvider, WireError};
use toolwire_core::{Census, ToolDefinition, WireFormat};
use toolwire_fuzz::{ArbJson, FuzzName};

#[derive(Debug, Arbitrary)]
struct Input {
    tools: Vec<(FuzzName, String, ArbJson)>,
    with_meta_tools: bool,
}

fuzz_target!(|input: Input| {
    let defs: Vec<ToolDefinition> = input
        .tools
        .into_iter()
        .map(|(name, description, params)| ToolDefinition::new(name.0, description, params.0))
        .collect();
    let taken: &[&str] = if input.with_meta_tools {
        &DEFAULT_META_TOOLS
    } else {
        &[]
    };
    let census = Census::build(defs.iter().map(|d| &d.name), taken);
    let offered: Vec<(usize, &str)> = census
        .tools()
        .iter()
        .enumerate()
        .filter(|(_, t)| t.is_offered())
        .map(|(i, t)| (i, t.form()))
        .collect();

    for format in WireFormat::ALL {
        let provider = format.llm_provider();
        let dialect = format.dialect();
        // What may travel: the offered tools whose form the provider takes and whose schema
        // the dialect can carry (the others are left out of this list only).
        let expected: Vec<(usize, &str)> = offered
            .iter()
            .copied()
            .filter(|&(index, form)| {
                check_definition_name(provider, form).is_ok()
                    && prepare_schema(dialect, &defs[index].parameters_schema()).is_ok()
            })
            .collect();
        let wire = match wire_tools(&census, &defs, format) {
            Ok(wire) => wire,
            // Over a request limit (128 OpenAI tools, the strict limits): an error that says
            // so, never a shortened list.
            Err(WireError::OverLimit { found, limit, .. }) => {
                assert!(found > limit.most(), "{format:?}: {found} within {limit:?}");
                continue;
            }
            Err(err) => panic!("{format:?}: the census's own definitions refused: {err}"),
        };
        // What the list does not carry is in its return value, by real name: loud means
        // returned (issue 17, point 4).
        for &(index, form) in offered.iter().filter(|o| !expected.contains(o)) {
            assert!(
                wire.left_out()
                    .iter()
                    .any(|left| left.name == defs[index].name && left.form == form),
                "{format:?}: {} left out without a word",
                defs[index].name
            );
        }
        let list = match format {
            WireFormat::Gemini => {
                let outer = wire.as_array().expect("gemini: an array");
                if expected.is_empty() {
                    assert!(outer.is_empty(), "gemini: {wire}");
                    continue;
                }
                assert_eq!(outer.len(), 1);
                let decl = outer[0].as_object().expect("gemini: one object");
                assert_eq!(decl.len(), 1);
                decl["functionDeclarations"]
                    .as_array()
                    .expect("functionDeclarations")
                    .clone()
            }
            _ => wire.as_array().expect("an array").clone(),
        };
        assert_eq!(list.len(), expected.len(), "{format:?}");
        for (entry, &(index, form)) in list.iter().zip(&expected) {
            let def = &defs[index];
            let (name, description, schema, strict) = shape(format, entry);
            assert_eq!(name, form, "{format:?} name");
            let letter_first = name.starts_with(|c: char| c.is_ascii_alphabetic());
            if letter_first || provider != LlmProvider::Gemini {
                assert_eq!(
                    check_definition_name(provider, name),
                    Ok(()),
                    "{provider} refuses {name:?}"
                );
            }
            let want_description =
                if matches!(format, WireFormat::Converse | WireFormat::ConverseStrict)
                    && def.description.is_empty()
                {
                    &def.name
                } else {
                    &def.description
                };
            assert_eq!(description, Some(want_description.as_str()), "{format:?}");
            assert_eq!(strict, format.is_strict(), "{format:?} strict");
            let own = def.parameters_schema();
            let prepared = prepare_schema(dialect, &own).expect("filtered above");
            assert_eq!(schema, &prepared.schema, "{format:?} schema");
            assert!(
                check_schema(dialect, schema).is_empty(),
                "{format:?}: {schema}"
            );
            if check_schema(dialect, &own).is_empty() {
                assert_eq!(
                    schema, &own,
                    "{format:?}: a schema the dialect takes travels as is"
                );
                check_own_schema(&def.parameters, schema);
            }
        }
        // The wire text parses back to the same value (floats aside: without serde_json's
        // `float_roundtrip` feature a float may come back one ulp off, by design).
        let text = serde_json::to_string(&wire).expect("serializes");
        let back: Value = serde_json::from_str(&text).expect("parses back");
        if !has_float(&wire) {
            assert_eq!(back, *wire);
        }
    }

    // A ToolDefinition survives its own JSON.
    for def in &defs {
        let text = serde_json::to_string(def).expect("serializes");
        let back: ToolDefinition = serde_json::from_str(&text).expect("parses back");
        assert_eq!(back.name, def.name);
        assert_eq!(back.description, def.description);
        if !has_float(&def.parameters) {
            assert_eq!(back.parameters, def.parameters);
        }
    }

    // Definitions that are not the census's input are refused.
    if let Some((last, rest)) = defs.split_last() {
        assert!(matches!(
            wire_tools(&census, rest, WireFormat::OpenAi),
            Err(WireError::Count { .. })
        ));
        let mut renamed = defs.clone();
        renamed[rest.len()].name = format!("{}/", last.name);
        assert!(matches!(
            wire_tools(&census, &renamed, WireFormat::Anthropic),
            Err(WireError::Name { .. })
        ));
    }
});

/// The name, description, schema and strict flag of one wire entry.
fn shape(format: WireFormat, entry: &Value) -> (&str, Option<&str>, &Value, bool) {
    let (inner, schema_key) = match format {
        WireFormat::OpenAi | WireFormat::OpenAiStrict => {
            assert_eq!(entry["type"], "function");
            (&entry["function"], "parameters")
        }
        WireFormat::OpenAiResponses | WireFormat::OpenAiResponsesStrict => {
            assert_eq!(entry["type"], "function");
            (entry, "parameters")
        }
        WireFormat::Anthropic | WireFormat::AnthropicStrict => (entry, "input_schema"),
        WireFormat::Converse | WireFormat::ConverseStrict => (&entry["toolSpec"], "inputSchema"),
        WireFormat::Gemini => (entry, "parameters"),
        other => panic!("a wire format this target does not know yet: {other:?}"),
    };
    let name = inner["name"].as_str().expect("a string name");
    let schema = match format {
        WireFormat::Converse | WireFormat::ConverseStrict => &inner[schema_key]["json"],
        _ => &inner[schema_key],
    };
    let strict = match inner.get("strict") {
        None => false,
        Some(flag) => flag.as_bool().expect("strict is a boolean"),
    };
    (name, inner["description"].as_str(), schema, strict)
}

/// The schema is the tool's own object schema, or the empty object schema.
fn check_own_schema(given: &Value, schema: &Value) {
    let map = schema.as_object().expect("an object schema");
    match given {
        Value::Object(given) if !given.is_empty() => {
            for (key, value) in given {
                assert_eq!(map.get(key), Some(value), "schema key {key:?} changed");
            }
            let added: Vec<&String> = map.keys().filter(|k| !given.contains_key(*k)).collect();
            if given.get("type").and_then(Value::as_str) == Some("object")
                && !given.contains_key("properties")
            {
                assert_eq!(added, ["properties"]);
                assert_eq!(map["properties"], Value::Object(Default::default()));
            } else {
                assert!(added.is_empty(), "keys added: {added:?}");
            }
        }
        _ => assert_eq!(
            *schema,
            serde_json::json!({"type": "object", "properties": {}})
        ),
    }
}

fn has_float(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.is_f64(),
        Value::Array(items) => items.iter().any(has_float),
        Value::Object(map) => map.values().any(has_float),
        _ => false,
    }
}
