//! `wire_tools` in every `WireFormat` over arbitrary definitions (arbitrary JSON parameters).
//!
//! Properties (tool-name-wire.md, hops 2 and 3): the request carries exactly the census's
//! offered tools, in census order, each under its form; a form that starts with a letter passes
//! every provider's definition rule (and any form passes all but Gemini's, which wants a letter
//! or `_` first); description and schema travel verbatim (Converse describes an undescribed tool
//! by its real name); a definition list that is not the census's input is refused.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolwire_core::{Census, ToolDefinition, WireFormat, names::DEFAULT_META_TOOLS, wire::{LlmProvider, WireError, check_definition_name, wire_tools}};
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
        let wire = wire_tools(&census, &defs, format).expect("the census's own definitions");
        let list = match format {
            WireFormat::Gemini => {
                let outer = wire.as_array().expect("gemini: an array");
                if offered.is_empty() {
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
        assert_eq!(list.len(), offered.len(), "{format:?}");
        for (entry, &(index, form)) in list.iter().zip(&offered) {
            let def = &defs[index];
            let (name, description, schema) = shape(format, entry);
            assert_eq!(name, form, "{format:?} name");
            let provider = format.llm_provider();
            let verdict = check_definition_name(provider, name);
            let letter_first = name.starts_with(|c: char| c.is_ascii_alphabetic());
            if letter_first || provider != LlmProvider::Gemini {
                assert_eq!(verdict, Ok(()), "{provider} refuses {name:?}");
            }
            if provider == LlmProvider::Gemini {
                let ok_first = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
                assert_eq!(verdict.is_ok(), ok_first, "gemini {name:?}: {verdict:?}");
            }
            let want_description = if format == WireFormat::Converse && def.description.is_empty() {
                &def.name
            } else {
                &def.description
            };
            assert_eq!(description, Some(want_description.as_str()), "{format:?}");
            assert_eq!(schema, &def.parameters_schema(), "{format:?} schema");
            check_schema(&def.parameters, schema);
        }
        // The wire text parses back to the same value (floats aside: without serde_json's
        // `float_roundtrip` feature a float may come back one ulp off, by design).
        let text = serde_json::to_string(&wire).expect("serializes");
        let back: Value = serde_json::from_str(&text).expect("parses back");
        if !has_float(&wire) {
            assert_eq!(back, wire);
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

/// The name, description and schema of one wire entry.
fn shape(format: WireFormat, entry: &Value) -> (&str, Option<&str>, &Value) {
    let (inner, schema_key) = match format {
        WireFormat::OpenAi => {
            assert_eq!(entry["type"], "function");
            (&entry["function"], "parameters")
        }
        WireFormat::Anthropic => (entry, "input_schema"),
        WireFormat::Converse => (&entry["toolSpec"], "inputSchema"),
        WireFormat::Gemini => (entry, "parameters"),
    };
    let name = inner["name"].as_str().expect("a string name");
    let schema = match format {
        WireFormat::Converse => &inner[schema_key]["json"],
        _ => &inner[schema_key],
    };
    (name, inner["description"].as_str(), schema)
}

/// The schema is the tool's own object schema, or the empty object schema.
fn check_schema(given: &Value, schema: &Value) {
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
