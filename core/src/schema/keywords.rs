//! What JSON Schema keywords are: which hold subschemas, which only annotate, and how each
//! reads in words when a rewrite has to drop it.
//!
//! Policy: a walk over a schema follows only subschema positions, never data (a `$ref` string in
//! a `default` is not a reference).

use serde_json::{Map, Value};

/// What a keyword's value holds, for a keyword that holds subschemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Holds {
    /// One subschema.
    One,
    /// One subschema, or an array of them (`items`: draft 7 tuples are `items: [a, b]`).
    OneOrList,
    /// An object of subschemas, by name.
    Map,
    /// An array of subschemas.
    List,
}

/// The keywords that hold subschemas, and how: the one list every walk over a schema reads.
const SUBSCHEMA_KEYWORDS: &[(&str, Holds)] = &[
    ("additionalProperties", Holds::One),
    ("not", Holds::One),
    ("if", Holds::One),
    ("then", Holds::One),
    ("else", Holds::One),
    ("contains", Holds::One),
    ("propertyNames", Holds::One),
    ("unevaluatedItems", Holds::One),
    ("unevaluatedProperties", Holds::One),
    ("additionalItems", Holds::One),
    ("items", Holds::OneOrList),
    ("properties", Holds::Map),
    ("patternProperties", Holds::Map),
    ("$defs", Holds::Map),
    ("definitions", Holds::Map),
    ("dependentSchemas", Holds::Map),
    ("anyOf", Holds::List),
    ("oneOf", Holds::List),
    ("allOf", Holds::List),
    ("prefixItems", Holds::List),
];

/// What `keyword` holds, if it holds subschemas.
pub(crate) fn holds(keyword: &str) -> Option<Holds> {
    SUBSCHEMA_KEYWORDS
        .iter()
        .find(|(k, _)| *k == keyword)
        .map(|(_, holds)| *holds)
}

/// Keywords that change no verdict: dropping one keeps every valid argument valid and every
/// invalid one invalid.
pub(crate) const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$dynamicAnchor",
    "title",
    "description",
    "default",
    "examples",
    "example",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "propertyOrdering",
];

/// Annotations a model is helped by: when a dialect refuses one, it moves into the
/// description instead of vanishing.
pub(crate) const TOLD_ANNOTATIONS: &[&str] = &["default", "examples", "example"];

/// Whether `keyword` is an annotation.
pub(crate) fn is_annotation(keyword: &str) -> bool {
    ANNOTATIONS.contains(&keyword)
}

/// Whether a keyword constrains values (everything but annotations and `nullable`, which only
/// widens a typed node).
pub(crate) fn is_validation(keyword: &str) -> bool {
    !is_annotation(keyword) && keyword != "nullable"
}

/// The JSON Schema 2020-12 keywords a validator checks (the Core applicators and the
/// Validation vocabulary's assertions, <https://json-schema.org/draft/2020-12/json-schema-core>
/// § 10-11 and <https://json-schema.org/draft/2020-12/json-schema-validation> § 6), with
/// draft 7's array `items`, `additionalItems`, `dependencies` and `$ref`: each is one the
/// `#[tool]`'s validator (`jsonschema` 0.61, built `with_draft(Draft202012)` in
/// `src/__private.rs`) compiles as an assertion (`jsonschema-0.61.2/src/keywords/mod.rs`,
/// `get_for_draft`). Anything else (an extension keyword, `contentMediaType` and
/// `contentEncoding`, which that function compiles as annotations only for 2020-12, an
/// annotation) is never checked by it, so its loss is not guarded. `format` is not here: it is
/// checked only for the formats that validator knows (`validator.rs`, `is_checked_format`).
const CHECKED_RULES: &[&str] = &[
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "prefixItems",
    "items",
    "additionalItems",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "$ref",
    "dependencies",
];

/// Whether a JSON Schema validator checks `keyword` ([`CHECKED_RULES`]); `format` is asked of
/// its value (`validator.rs`, `is_checked_format`).
pub(crate) fn is_checked_rule(keyword: &str) -> bool {
    CHECKED_RULES.contains(&keyword)
}

/// Annotations to a 2020-12 validator that draft 6 and 7 validators may check
/// (`jsonschema-0.61.2/src/keywords/mod.rs` compiles them as assertions for `Draft6 | Draft7`;
/// draft-07 validation § 8): in a schema that names draft-07 or older
/// ([`names_draft_07_or_older`]), such as an MCP server's, they may be meant as rules, so a
/// dialect that drops one records a loss (unguarded: the `#[tool]`'s 2020-12 validator never
/// checks them). Anywhere else they are annotations, dropped as one.
pub(crate) const CONTENT_RULES: &[&str] = &["contentEncoding", "contentMediaType"];

/// Whether a schema's root names draft-07 or an older draft in its `$schema`, where a `$ref`'s
/// siblings are ignored and the content keywords ([`CONTENT_RULES`]) may assert. A schema with
/// no `$schema` is draft 2020-12: schemars writes 2020-12, and an MCP tool's `inputSchema`
/// "Defaults to 2020-12 if no `$schema` field is present"
/// (<https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool>).
pub(crate) fn names_draft_07_or_older(root: &Value) -> bool {
    root.get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|uri| {
            ["draft-07", "draft-06", "draft-04", "draft-03"]
                .iter()
                .any(|old| uri.contains(old))
        })
}

/// Writes a walker over the direct subschemas of a node, once for shared and once for mutable
/// access (`iter`/`iter_mut`), from one body: the two cannot drift apart.
macro_rules! subschema_walker {
    ($(#[$doc:meta])* $name:ident, $iter:ident $(, $mutable:tt)?) => {
        $(#[$doc])*
        pub(crate) fn $name<'a>(
            node: &'a $($mutable)? Map<String, Value>,
            mut each: impl FnMut(&[&str], &'a $($mutable)? Value),
        ) {
            for (key, value) in node.$iter() {
                let key = key.as_str();
                match (holds(key), value) {
                    (Some(Holds::One), sub) => each(&[key], sub),
                    (Some(Holds::OneOrList | Holds::List), Value::Array(list)) => {
                        for (i, sub) in list.$iter().enumerate() {
                            each(&[key, &i.to_string()], sub);
                        }
                    }
                    (Some(Holds::OneOrList), sub) => each(&[key], sub),
                    (Some(Holds::Map), Value::Object(map)) => {
                        for (name, sub) in map.$iter() {
                            each(&[key, name], sub);
                        }
                    }
                    _ => {}
                }
            }
        }
    };
}

subschema_walker!(
    /// Calls `each` on every direct subschema of `node` with the pointer segments that lead to
    /// it.
    for_each_subschema,
    iter
);

subschema_walker!(
    /// [`for_each_subschema`], with each subschema mutable.
    for_each_subschema_mut,
    iter_mut,
    mut
);

/// `pointer` with one more segment, escaped (RFC 6901: `~` is `~0`, `/` is `~1`).
pub(crate) fn child(pointer: &str, segments: &[&str]) -> String {
    let mut out = String::with_capacity(pointer.len() + 16);
    out.push_str(pointer);
    for segment in segments {
        out.push('/');
        for c in segment.chars() {
            match c {
                '~' => out.push_str("~0"),
                '/' => out.push_str("~1"),
                c => out.push(c),
            }
        }
    }
    out
}

/// A value as a note shows it: compact JSON, cut at 160 characters.
pub(crate) fn shown_value(value: &Value) -> String {
    let text = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    cut(text)
}

fn cut(text: String) -> String {
    const MAX: usize = 160;
    if text.chars().count() <= MAX {
        return text;
    }
    let mut out: String = text.chars().take(MAX).collect();
    out.push('…');
    out
}

/// What dropping `keyword: value` loses, in words the model reads.
pub(crate) fn note_for(keyword: &str, value: &Value) -> String {
    let v = shown_value(value);
    match keyword {
        "pattern" => format!("Must match {v}."),
        "format" => format!("Format: {v}."),
        "minLength" => format!("At least {v} characters."),
        "maxLength" => format!("At most {v} characters."),
        "minItems" => format!("At least {v} items."),
        "maxItems" => format!("At most {v} items."),
        "uniqueItems" if value == &Value::Bool(true) => "Items must be unique.".to_owned(),
        "minimum" => format!("At least {v}."),
        "maximum" => format!("At most {v}."),
        "exclusiveMinimum" => format!("Greater than {v}."),
        "exclusiveMaximum" => format!("Less than {v}."),
        "multipleOf" => format!("A multiple of {v}."),
        "minProperties" => format!("At least {v} properties."),
        "maxProperties" => format!("At most {v} properties."),
        "additionalProperties" if value == &Value::Bool(false) => {
            "No properties other than those listed.".to_owned()
        }
        "additionalProperties" => format!("Other properties must match {v}."),
        "propertyNames" => format!("Property names must match {v}."),
        "patternProperties" => format!("Properties by pattern: {v}."),
        "enum" => match value {
            Value::Array(values) => cut(format!(
                "One of: {}.",
                values
                    .iter()
                    .map(Value::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            _ => format!("One of: {v}."),
        },
        "const" => format!("Must be {}.", cut(value.to_string())),
        "oneOf" => "Must match exactly one of the options.".to_owned(),
        "not" => format!("Must not match {v}."),
        "allOf" => format!("Must also match {v}."),
        "required" => "Send null to leave it out.".to_owned(),
        "dependentRequired" => format!("When a key is present, these are required too: {v}."),
        "default" => format!("Default: {}.", cut(value.to_string())),
        "examples" | "example" => format!("Example: {}.", cut(value.to_string())),
        other => format!("Also `{other}`: {v}."),
    }
}
